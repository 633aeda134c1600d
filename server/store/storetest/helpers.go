package storetest

import (
	"context"
	"errors"
	"fmt"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/photoctl/photoctl/server/catalog"
	"github.com/photoctl/photoctl/server/store"
)

// base is the suite's fixed clock: every time is an offset from it, so
// orders and round trips do not depend on when the suite runs.
var base = time.Date(2024, 5, 1, 12, 0, 0, 0, time.UTC)

// at returns base plus m minutes.
func at(m int) time.Time { return base.Add(time.Duration(m) * time.Minute) }

// ptr returns a pointer to v.
func ptr[T any](v T) *T { return &v }

// write runs fn in one transaction and requires it to commit.
func write(t *testing.T, s store.Store, fn func(r store.Repos) error) {
	t.Helper()
	require.NoError(t, s.InTx(t.Context(), fn))
}

// writeErr runs fn in one transaction and returns InTx's error.
func writeErr(t *testing.T, s store.Store, fn func(r store.Repos) error) error {
	t.Helper()
	return s.InTx(t.Context(), fn)
}

// ctx is the context of the running test.
func ctx(t *testing.T) context.Context { return t.Context() }

// requireKind requires err to be of the given error kind.
func requireKind(t *testing.T, err, kind error) {
	t.Helper()
	require.Error(t, err)
	require.True(t, errors.Is(err, kind), "want %v, got %v", kind, err)
}

// requireInvalidCursor requires err to be a validation error: a cursor from
// another list is a 422, never an empty page.
func requireInvalidCursor(t *testing.T, err error) {
	t.Helper()
	var ve *catalog.ValidationError
	require.True(t, errors.As(err, &ve), "want a *catalog.ValidationError, got %v", err)
}

// newUser returns an unsaved user created at minute m.
func newUser(email string, m int) *catalog.User {
	return &catalog.User{ID: catalog.NewID(catalog.PrefixUser, at(m)), Email: email,
		IsActive: true, CreatedAt: at(m), UpdatedAt: at(m)}
}

// makeUser saves a user with the given e-mail.
func makeUser(t *testing.T, s store.Store, email string) *catalog.User {
	t.Helper()
	u := newUser(email, 0)
	write(t, s, func(r store.Repos) error { return r.Users().Create(ctx(t), u) })
	return u
}

// newLibrary returns an unsaved library created at minute m.
func newLibrary(ownerID, name string, m int) *catalog.Library {
	return &catalog.Library{ID: catalog.NewID(catalog.PrefixLibrary, at(m)), Name: name,
		OwnerID: ownerID, CreatedAt: at(m), UpdatedAt: at(m)}
}

// makeLibrary saves a library created at minute m.
func makeLibrary(t *testing.T, s store.Store, ownerID, name string, m int) *catalog.Library {
	t.Helper()
	l := newLibrary(ownerID, name, m)
	write(t, s, func(r store.Repos) error { return r.Libraries().Create(ctx(t), l) })
	return l
}

// makeLibraries saves n libraries of one owner, one a minute, and returns
// them oldest first.
func makeLibraries(t *testing.T, s store.Store, ownerID string, n int) []*catalog.Library {
	t.Helper()
	out := make([]*catalog.Library, n)
	for i := range out {
		out[i] = makeLibrary(t, s, ownerID, fmt.Sprintf("library %d", i), i)
	}
	return out
}

// trash moves a library to the trash at minute m.
func trash(t *testing.T, s store.Store, l *catalog.Library, m int) {
	t.Helper()
	l.TrashedAt, l.UpdatedAt = ptr(at(m)), at(m)
	write(t, s, func(r store.Repos) error { return r.Libraries().Update(ctx(t), l) })
}

// newKey returns an unsaved API key of user userID created at minute m.
func newKey(userID, name string, m int) *catalog.APIKey {
	id := catalog.NewID(catalog.PrefixAPIKey, at(m))
	return &catalog.APIKey{ID: id, UserID: userID, Name: name, SecretHash: []byte("hash of " + id),
		Scope: catalog.Scope{Actions: []catalog.Action{catalog.ActionAll}}, CreatedAt: at(m), UpdatedAt: at(m)}
}

// saveKeys saves keys in one transaction.
func saveKeys(t *testing.T, s store.Store, keys ...*catalog.APIKey) {
	t.Helper()
	write(t, s, func(r store.Repos) error {
		for _, k := range keys {
			if err := r.APIKeys().Create(ctx(t), k); err != nil {
				return err
			}
		}
		return nil
	})
}

// newSession returns an unsaved session of user userID.
func newSession(userID string) *catalog.Session {
	return &catalog.Session{ID: catalog.NewID(catalog.PrefixSession, base), UserID: userID,
		CreatedAt: base, ExpiresAt: base.Add(30 * 24 * time.Hour)}
}

// newRefreshToken returns an unsaved refresh token of session se.
func newRefreshToken(se *catalog.Session, m int) *catalog.RefreshToken {
	id := catalog.NewID(catalog.PrefixRefresh, at(m))
	return &catalog.RefreshToken{ID: id, SessionID: se.ID, UserID: se.UserID, Hash: []byte("hash of " + id),
		CreatedAt: at(m), ExpiresAt: at(m).Add(30 * 24 * time.Hour)}
}

// makeAsset saves a minimal image asset created at minute m.
func makeAsset(t *testing.T, s store.Store, libraryID, userID string, m int) string {
	t.Helper()
	a := &catalog.Asset{ID: catalog.NewID(catalog.PrefixAsset, at(m)), LibraryID: libraryID, ContributorID: userID,
		MediaType: catalog.MediaImage, MIMEType: "image/jpeg", OriginalFileName: fmt.Sprintf("%d.jpg", m),
		FileCreatedAt: at(m), FileModifiedAt: at(m), Capture: catalog.CaptureTime{Wall: at(m)},
		Checksum: []byte(fmt.Sprintf("checksum %d of %s", m, libraryID)), OriginalSize: 1, FileSizeBytes: 1,
		Metrics: map[string]any{}, CreatedAt: at(m), UpdatedAt: at(m)}
	write(t, s, func(r store.Repos) error { return r.Assets().Create(ctx(t), a) })
	return a.ID
}
