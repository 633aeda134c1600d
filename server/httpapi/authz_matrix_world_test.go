package httpapi_test

import (
	"fmt"
	"net/http"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/photoctl/photoctl/server/api"
	"github.com/photoctl/photoctl/server/app"
	"github.com/photoctl/photoctl/server/servertest"
)

// matrixParty is one caller with every credential it uses.
type matrixParty struct {
	user    servertest.User
	session string
	// own is the party's first library; otherKey is scoped to it.
	own           string
	key, otherKey api.APIKeyCreated
	// oauth is an OAuth access token with every scope (oauth_matrix_test.go).
	oauth string
}

// matrixWorld is the matrix's fixture: one server, an owner with a shared library
// that a collaborator and a viewer joined through invitations, a
// non-member, and shared fixtures that rows read without changing.
type matrixWorld struct {
	t       *testing.T
	s       *servertest.Server
	parties [4]*matrixParty
	shared  string
	// asset is in the shared library, with version and a thumbnail.
	asset   api.Asset
	version api.Version
	// invitation is an active invitation to the shared library.
	invitation api.InvitationCreated
	// org holds the organizing fixtures (album, person...), made on first use.
	org *content
	seq int
}

func newWorld(t *testing.T) *matrixWorld {
	// Sessions outlive a slow run.
	s := servertest.Start(t, func(c *app.Config) { c.Auth.AccessTTL, c.OAuth.AccessTTL = 24*time.Hour, 24*time.Hour })
	w := &matrixWorld{t: t, s: s}
	for i := range w.parties {
		u, session := s.Session()
		own := s.Libraries(session)[0].ID
		w.parties[i] = &matrixParty{user: u, session: session, own: own,
			key: w.newKey(session, nil), otherKey: w.newKey(session, []string{own})}
	}
	w.mintOAuthTokens()
	o := w.parties[asOwner]
	w.shared = s.CreateLibrary(o.session, "Shared").ID
	w.join(w.shared, asCollaborator, "collaborator")
	w.join(w.shared, asViewer, "viewer")
	w.asset = w.freshAsset()
	w.version = w.freshVersion(w.asset.ID)
	w.invitation = w.freshInvitation(w.shared)
	// Stand in for the ingest pipeline, which renders asynchronously: a
	// thumbnail and a preview where it writes them, unless it already has.
	dir := servertest.BlobFile(t, s.Config.DataDir, "variants/"+w.asset.ID)
	require.NoError(t, os.MkdirAll(dir, 0o700))
	for _, name := range []string{"thumbnail", "preview"} {
		if m, _ := filepath.Glob(filepath.Join(dir, name+".*")); len(m) == 0 {
			require.NoError(t, os.WriteFile(filepath.Join(dir, name+".jpg"), servertest.JPEG(t, 64, 64, 1), 0o600))
		}
	}
	return w
}

func (w *matrixWorld) newKey(session string, libraryIDs []string) api.APIKeyCreated {
	r := w.s.Do("POST", "/api/api-keys", session, api.APIKeyCreateRequest{Name: "matrix",
		Scope: &api.APIKeyScope{Actions: []string{"all"}, LibraryIDs: libraryIDs}})
	return servertest.Expect[api.APIKeyCreated](w.t, r, http.StatusCreated)
}

// next returns a number no other call returned, for unique names and bytes.
func (w *matrixWorld) next() int { w.seq++; return w.seq }

// jpeg returns image bytes no other call returned (so uploads never
// deduplicate).
func (w *matrixWorld) jpeg() []byte {
	n := w.next()
	return servertest.JPEG(w.t, 16+n/200, 16, n%200)
}

// join makes party p a member of library lib with role.
func (w *matrixWorld) join(lib string, p caller, role string) {
	inv := w.freshInvitationWith(lib, role)
	r := join(w.s, w.parties[p].session, inv.Token)
	require.Equal(w.t, http.StatusOK, r.Status, "join: %s", r.Body)
}

// freshShared is a new library of the owner that the collaborator and the
// viewer joined, for rows that change or leave it.
func (w *matrixWorld) freshShared() string {
	l := w.s.CreateLibrary(w.parties[asOwner].session, fmt.Sprintf("Shared %d", w.next()))
	w.join(l.ID, asCollaborator, "collaborator")
	w.join(l.ID, asViewer, "viewer")
	return l.ID
}

func (w *matrixWorld) freshInvitation(lib string) api.InvitationCreated {
	return w.freshInvitationWith(lib, "viewer")
}

func (w *matrixWorld) freshInvitationWith(lib, role string) api.InvitationCreated {
	return invite(w.t, w.s, w.parties[asOwner].session, lib, inviteBody(w.s, role, time.Hour, 5))
}

// freshAsset is a new asset the owner uploads to the shared library.
func (w *matrixWorld) freshAsset() api.Asset {
	return w.s.UploadAsset(w.parties[asOwner].session, "m.jpg", w.jpeg(), map[string]string{"library_id": w.shared})
}

// freshVersion is a new version the owner appends to an asset.
func (w *matrixWorld) freshVersion(assetID string) api.Version {
	return appendVersion(w.t, w.s, w.parties[asOwner].session, assetID, "edit.jpg", w.jpeg())
}

// freshMember is a new account that joined the shared library as a viewer.
func (w *matrixWorld) freshMember() servertest.User {
	u, session := w.s.Session()
	r := join(w.s, session, w.freshInvitation(w.shared).Token)
	require.Equal(w.t, http.StatusOK, r.Status, "join: %s", r.Body)
	return u
}
