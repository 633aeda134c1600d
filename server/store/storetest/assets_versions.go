package storetest

import (
	"crypto/sha256"
	"fmt"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/photoctl/photoctl/server/catalog"
	"github.com/photoctl/photoctl/server/query"
	"github.com/photoctl/photoctl/server/store"
)

// newVersion returns an unsaved version of asset a created at minute m.
func newVersion(w *assetWorld, a *catalog.Asset, m int) *store.AssetVersion {
	sum := sha256.Sum256([]byte(fmt.Sprint("version", m)))
	return &store.AssetVersion{ID: catalog.NewID(catalog.PrefixVersion, at(m)), AssetID: a.ID,
		ContributorID: w.user.ID, MIMEType: "image/jpeg", FileName: fmt.Sprintf("edit %d.jpg", m), Size: int64(100 + m),
		Checksum: sum[:], CreatedAt: at(m), UpdatedAt: at(m)}
}

// putVersions saves versions of a created at the given minutes.
func putVersions(t *testing.T, s store.Store, w *assetWorld, a *catalog.Asset, minutes ...int) []*store.AssetVersion {
	t.Helper()
	out := make([]*store.AssetVersion, len(minutes))
	write(t, s, func(r store.Repos) error {
		for i, m := range minutes {
			out[i] = newVersion(w, a, m)
			if err := r.AssetVersions().Create(ctx(t), out[i]); err != nil {
				return err
			}
		}
		return nil
	})
	return out
}

func versionID(v store.AssetVersion) string { return v.ID }

var assetVersionCases = []testCase{
	{"a version reads back as written; another asset's version is ErrNotFound", func(t *testing.T, s store.Store) {
		w := newAssetWorld(t, s)
		a := w.put(t, s, w.lib, at(1))
		b := w.put(t, s, w.lib, at(2))
		v := putVersions(t, s, w, a, 10)[0]
		got, err := s.Read().AssetVersions().Get(ctx(t), a.ID, v.ID)
		require.NoError(t, err)
		require.Equal(t, v, got)
		_, err = s.Read().AssetVersions().Get(ctx(t), b.ID, v.ID)
		requireKind(t, err, catalog.ErrNotFound)
		_, err = s.Read().AssetVersions().Get(ctx(t), a.ID, "ver_missing")
		requireKind(t, err, catalog.ErrNotFound)
	}},
	{"a version id is unique: a second is ErrConflict", func(t *testing.T, s store.Store) {
		w := newAssetWorld(t, s)
		a := w.put(t, s, w.lib, at(1))
		v := putVersions(t, s, w, a, 10)[0]
		again := newVersion(w, a, 11)
		again.ID = v.ID
		requireKind(t, writeErr(t, s, func(r store.Repos) error { return r.AssetVersions().Create(ctx(t), again) }),
			catalog.ErrConflict)
	}},
	{"versions list newest first with exact paging, All oldest first, Previous the one before", func(t *testing.T, s store.Store) {
		w := newAssetWorld(t, s)
		a := w.put(t, s, w.lib, at(1))
		b := w.put(t, s, w.lib, at(2))
		vs := putVersions(t, s, w, a, 10, 11, 12, 13)
		other := putVersions(t, s, w, b, 14)[0]
		want := []string{vs[3].ID, vs[2].ID, vs[1].ID, vs[0].ID}
		checkPaging(t, want, versionID, func(p query.Page) ([]store.AssetVersion, bool, error) {
			return s.Read().AssetVersions().List(ctx(t), a.ID, p)
		})
		_, _, err := s.Read().AssetVersions().List(ctx(t), a.ID, query.Page{Limit: 2, AfterID: other.ID})
		requireInvalidCursor(t, err)
		all, err := s.Read().AssetVersions().All(ctx(t), a.ID)
		require.NoError(t, err)
		require.Equal(t, []string{vs[0].ID, vs[1].ID, vs[2].ID, vs[3].ID}, idsOf(all, versionID))

		prev, err := s.Read().AssetVersions().Previous(ctx(t), a.ID, vs[2].ID)
		require.NoError(t, err)
		require.Equal(t, vs[1].ID, prev.ID)
		// The one named need not exist any more.
		write(t, s, func(r store.Repos) error { return r.AssetVersions().Delete(ctx(t), a.ID, vs[3].ID) })
		prev, err = s.Read().AssetVersions().Previous(ctx(t), a.ID, vs[3].ID)
		require.NoError(t, err)
		require.Equal(t, vs[2].ID, prev.ID)
		_, err = s.Read().AssetVersions().Previous(ctx(t), a.ID, vs[0].ID)
		requireKind(t, err, catalog.ErrNotFound)
	}},
	{"Update writes the mutable fields; Delete removes one; a missing one is ErrNotFound", func(t *testing.T, s store.Store) {
		w := newAssetWorld(t, s)
		a := w.put(t, s, w.lib, at(1))
		b := w.put(t, s, w.lib, at(2))
		v := putVersions(t, s, w, a, 10)[0]
		other := makeUser(t, s, "bob@example.com")
		v.ContributorID, v.MIMEType, v.FileName, v.Size = other.ID, "image/png", "new.png", 999
		v.Checksum, v.Revision, v.UpdatedAt = []byte("new bytes"), 3, at(20)
		write(t, s, func(r store.Repos) error { return r.AssetVersions().Update(ctx(t), v) })
		got, err := s.Read().AssetVersions().Get(ctx(t), a.ID, v.ID)
		require.NoError(t, err)
		require.Equal(t, v, got)

		wrong := *v
		wrong.AssetID = b.ID
		requireKind(t, writeErr(t, s, func(r store.Repos) error { return r.AssetVersions().Update(ctx(t), &wrong) }),
			catalog.ErrNotFound)
		requireKind(t, writeErr(t, s, func(r store.Repos) error { return r.AssetVersions().Delete(ctx(t), b.ID, v.ID) }),
			catalog.ErrNotFound)
		write(t, s, func(r store.Repos) error { return r.AssetVersions().Delete(ctx(t), a.ID, v.ID) })
		requireKind(t, writeErr(t, s, func(r store.Repos) error { return r.AssetVersions().Delete(ctx(t), a.ID, v.ID) }),
			catalog.ErrNotFound)
		all, err := s.Read().AssetVersions().All(ctx(t), a.ID)
		require.NoError(t, err)
		require.Empty(t, all)
	}},
}
