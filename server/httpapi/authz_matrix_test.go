package httpapi_test

import (
	"encoding/json"
	"fmt"
	"mime/multipart"
	"net/http"
	"slices"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/photoctl/photoctl/server/api"
	"github.com/photoctl/photoctl/server/servertest"
)

// The authorization matrix: every endpoint (one row each, in
// authz_matrix_rows_test.go) × every caller (owner, collaborator, viewer,
// non-member of a shared library) × every credential (session, API key, API
// key scoped to another library), through the real server, asserting the
// status of each cell. A second test fails when the served OpenAPI
// document has an operation without a row, so new endpoints cannot escape.
// The fixture (one server, the parties, the shared library) is in
// authz_matrix_world_test.go; content rows in authz_matrix_content_test.go.

// caller is a caller's relation to the shared library, weakest role last.
type caller int

const (
	asOwner caller = iota
	asCollaborator
	asViewer
	asNonMember
)

var everyCaller = []caller{asOwner, asCollaborator, asViewer, asNonMember}

func (w caller) String() string {
	return [...]string{"the owner", "a collaborator", "a viewer", "a non-member"}[w]
}

// roleNeed is the least a row requires of the caller.
type roleNeed int

const (
	// needNothing: any authenticated caller; the route touches no library's
	// content (or, like join and preview, is how a non-member reaches one).
	needNothing roleNeed = iota
	needRead
	needWrite
	needOwner
)

// permits reports whether the caller's role in the shared library meets n.
func (w caller) permits(n roleNeed) bool {
	switch n {
	case needRead:
		return w <= asViewer
	case needWrite:
		return w <= asCollaborator
	case needOwner:
		return w == asOwner
	default:
		return true
	}
}

// credential is a column of the matrix.
type credential struct {
	name string
	// firstParty is a first-party session (sharing and key management
	// accept nothing else).
	firstParty bool
	// coversShared is false for a delegated credential whose library scope
	// leaves out the shared library.
	coversShared bool
	token        func(p *matrixParty) string
}

// credentials are the columns. The OAuth token has every scope (minted in
// oauth_matrix_test.go); OAuth tokens are never library-scoped, so there
// is no "scoped to another library" OAuth column.
var credentials = []credential{
	{"a session", true, true, func(p *matrixParty) string { return p.session }},
	{"an API key", false, true, func(p *matrixParty) string { return p.key.Secret }},
	{"an API key scoped to another library", false, false, func(p *matrixParty) string { return p.otherKey.Secret }},
	{"an OAuth token", false, true, func(p *matrixParty) string { return p.oauth }},
}

// matrixRow is one endpoint of the matrix.
type matrixRow struct {
	method string
	// path is the OpenAPI path template, as the served document spells it.
	path        string
	public      bool
	sessionOnly bool
	notSession  bool // the default rule without sessions (/api/mcp): a session is 403
	needs       roleNeed
	// ok is the success status (200 when 0).
	ok int
	// nonMemberGets is what a non-member of the shared library gets (404 when
	// 0: existence is not revealed). Bulk operations answer an id the caller
	// cannot reach as a 422 on that item.
	nonMemberGets int
	// byRole replaces the status for some callers who pass every check
	// before the handler (join: members are already members).
	byRole map[caller]int
	// sharing rows answer 403, 404 and 409 with a SharingErrorResponse code.
	sharing bool
	// req builds the concrete request of one cell, making whatever fixtures
	// it needs (a fresh asset, library, invitation...).
	req func(c *cell) cellRequest
}

// cellRequest is the concrete request of one cell.
type cellRequest struct {
	path string
	body any
	// file, when set, sends a multipart body: the file part plus form.
	file *cellFile
	// token replaces the cell's credential (a fresh session for logout).
	token string
}

// cellFile is a multipart file part and its form fields.
type cellFile struct {
	name  string
	data  []byte
	form  map[string]string
	field string // "file" when empty
}

// expected derives a cell's status from the row and the caller.
func (r matrixRow) expected(w caller, c credential) int {
	ok := r.ok
	if ok == 0 {
		ok = http.StatusOK
	}
	switch {
	case r.public:
		return ok
	case r.sessionOnly && !c.firstParty:
		return http.StatusForbidden
	case r.notSession && c.firstParty:
		return http.StatusForbidden
	case r.needs == needNothing:
	case w == asNonMember:
		if r.nonMemberGets != 0 {
			return r.nonMemberGets
		}
		return http.StatusNotFound
	case !c.coversShared:
		return http.StatusForbidden
	case !w.permits(r.needs):
		return http.StatusForbidden
	}
	if st, ok := r.byRole[w]; ok {
		return st
	}
	return ok
}

// cell is one (row, caller, credential) with the world it runs in.
type cell struct {
	*matrixWorld
	t      *testing.T
	caller caller
	cred   credential
	// succeeds is the expected outcome, for builders that make costly
	// fixtures only where the operation will go through.
	succeeds bool
}

// me is the calling party.
func (c *cell) me() *matrixParty { return c.parties[c.caller] }

func TestAuthorizationMatrix(t *testing.T) {
	w := newWorld(t)
	for _, r := range matrixRows() {
		t.Run(r.method+" "+r.path, func(t *testing.T) {
			for _, caller := range everyCaller {
				for _, cred := range credentials {
					want := r.expected(caller, cred)
					name := fmt.Sprintf("%s with %s gets %d", caller, cred.name, want)
					t.Run(name, func(t *testing.T) {
						w.t = t
						c := &cell{matrixWorld: w, t: t, caller: caller, cred: cred, succeeds: want < 300}
						req := r.req(c)
						token := req.token
						if token == "" {
							token = cred.token(c.me())
						}
						resp := w.send(r.method, req, token)
						require.Equal(t, want, resp.Status, "%s %s: %s", r.method, req.path, resp.Body)
						if r.sharing && (want == 403 || want == 404 || want == 409) {
							var body api.SharingErrorResponse
							resp.JSON(t, &body)
							require.NotEmpty(t, body.Code, "a sharing error carries a code: %s", resp.Body)
						}
					})
				}
			}
		})
	}
}

// TestAuthorizationMatrixCoversEveryOperation fails when the served
// OpenAPI document has an operation the matrix has no row for (add one in
// authz_matrix_rows_test.go), or a row names an operation that is gone.
func TestAuthorizationMatrixCoversEveryOperation(t *testing.T) {
	s := servertest.Start(t)
	var doc struct {
		Paths map[string]map[string]json.RawMessage `json:"paths"`
	}
	require.NoError(t, json.Unmarshal(servedDocument(t, s), &doc))
	var served []string
	for path, item := range doc.Paths {
		for method := range item {
			served = append(served, strings.ToUpper(method)+" "+path)
		}
	}
	var rows []string
	for _, r := range matrixRows() {
		rows = append(rows, r.method+" "+r.path)
	}
	slices.Sort(served)
	slices.Sort(rows)
	var missing, stale []string
	for _, op := range served {
		if !slices.Contains(rows, op) {
			missing = append(missing, op)
		}
	}
	for _, op := range rows {
		if !slices.Contains(served, op) {
			stale = append(stale, op)
		}
	}
	require.Empty(t, missing, "operations without a row in the authorization matrix")
	require.Empty(t, stale, "matrix rows for operations the server does not document")
	require.Len(t, slices.Compact(rows), len(rows), "one matrixRow per operation")
}

// send performs a cell's request.
func (w *matrixWorld) send(method string, req cellRequest, token string) *servertest.Response {
	w.t.Helper()
	if req.file == nil {
		return w.s.Do(method, req.path, token, req.body)
	}
	field := req.file.field
	if field == "" {
		field = "file"
	}
	return w.s.Multipart(method, req.path, token, func(mw *multipart.Writer) {
		for k, v := range req.file.form {
			require.NoError(w.t, mw.WriteField(k, v))
		}
		fw, err := mw.CreateFormFile(field, req.file.name)
		require.NoError(w.t, err)
		_, err = fw.Write(req.file.data)
		require.NoError(w.t, err)
	})
}
