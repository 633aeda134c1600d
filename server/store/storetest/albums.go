package storetest

import (
	"crypto/sha256"
	"fmt"
	"slices"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/photoctl/photoctl/server/catalog"
	"github.com/photoctl/photoctl/server/query"
	"github.com/photoctl/photoctl/server/store"
)

// organizeWorld is a user with two libraries, ready for albums and stacks.
type organizeWorld struct {
	user      *catalog.User
	lib, lib2 *catalog.Library
	n         int
}

func newOrganizeWorld(t *testing.T, s store.Store) *organizeWorld {
	t.Helper()
	u := makeUser(t, s, "alice@example.com")
	return &organizeWorld{user: u, lib: makeLibrary(t, s, u.ID, "Family", 0), lib2: makeLibrary(t, s, u.ID, "Work", 1)}
}

// putAsset saves an asset of the library captured at wall (offset in
// seconds, or nil).
func (w *organizeWorld) putAsset(t *testing.T, s store.Store, lib *catalog.Library, wall time.Time, offset *int) *catalog.Asset {
	t.Helper()
	w.n++
	sum := sha256.Sum256([]byte(fmt.Sprint("organize", w.n)))
	created := at(w.n)
	a := &catalog.Asset{ID: catalog.NewID(catalog.PrefixAsset, created), LibraryID: lib.ID, ContributorID: w.user.ID,
		MediaType: catalog.MediaImage, MIMEType: "image/jpeg", OriginalFileName: "a.jpg", FileCreatedAt: created,
		FileModifiedAt: created, Capture: catalog.CaptureTime{Wall: wall, Offset: offset}, Checksum: sum[:],
		OriginalSize: 1, FileSizeBytes: 1, CreatedAt: created, UpdatedAt: created}
	write(t, s, func(r store.Repos) error { return r.Assets().Create(ctx(t), a) })
	return a
}

// putAlbum saves an album of the library created at minute m.
func putAlbum(t *testing.T, s store.Store, lib *catalog.Library, name string, m int) *catalog.Album {
	t.Helper()
	a := &catalog.Album{ID: catalog.NewID(catalog.PrefixAlbum, at(m)), LibraryID: lib.ID, Name: name,
		CreatedAt: at(m), UpdatedAt: at(m)}
	write(t, s, func(r store.Repos) error { return r.Albums().Create(ctx(t), a) })
	return a
}

// link adds assets to an album, one link a minute from minute m, and
// returns the links.
func link(t *testing.T, s store.Store, album *catalog.Album, m int, assets ...*catalog.Asset) []catalog.AlbumAsset {
	t.Helper()
	var out []catalog.AlbumAsset
	write(t, s, func(r store.Repos) error {
		for i, a := range assets {
			l := catalog.AlbumAsset{ID: catalog.NewID(catalog.PrefixAlbumAsset, at(m+i)), AlbumID: album.ID,
				AssetID: a.ID, LibraryID: album.LibraryID, CreatedAt: at(m + i), UpdatedAt: at(m + i)}
			if err := r.Albums().AddLink(ctx(t), &l); err != nil {
				return err
			}
			out = append(out, l)
		}
		return nil
	})
	return out
}

func getAlbum(t *testing.T, s store.Store, id string) *catalog.Album {
	t.Helper()
	a, err := s.Read().Albums().Get(ctx(t), id)
	require.NoError(t, err)
	return a
}

// albumSummary is what an album's derived fields say: count, start, end
// (RFC 3339) and cover id.
func albumSummary(t *testing.T, s store.Store, id string) []any {
	t.Helper()
	a := getAlbum(t, s, id)
	var start, end, cover any
	if a.StartDate != nil {
		start = a.StartDate.String()
	}
	if a.EndDate != nil {
		end = a.EndDate.String()
	}
	if a.Cover != nil {
		cover = a.Cover.AssetID
	}
	return []any{a.AssetCount, start, end, cover}
}

func setTrashed(t *testing.T, s store.Store, trashed bool, assets ...*catalog.Asset) {
	t.Helper()
	ids := make([]string, len(assets))
	for i, a := range assets {
		ids[i] = a.ID
	}
	var when *time.Time
	if trashed {
		when = ptr(at(100))
	}
	write(t, s, func(r store.Repos) error { return r.Assets().SetTrashed(ctx(t), ids, when, at(100)) })
}

func linkID(l catalog.AlbumAsset) string { return l.ID }
func albumID(a catalog.Album) string     { return a.ID }
func assetID(a catalog.Asset) string     { return a.ID }

func linkIDsNewestFirst(links ...catalog.AlbumAsset) []string {
	out := idsOf(links, linkID)
	slices.Reverse(out)
	return out
}

func listLinks(t *testing.T, s store.Store, f query.AlbumAssetFilter) list[catalog.AlbumAsset] {
	return func(p query.Page) ([]catalog.AlbumAsset, bool, error) {
		return s.Read().Albums().ListLinks(ctx(t), f, p)
	}
}

var may = func(d int) time.Time { return time.Date(2024, 5, d, 12, 0, 0, 0, time.UTC) }

var albumCases = []testCase{
	{"a new album reads back empty: no count, dates or cover", func(t *testing.T, s store.Store) {
		w := newOrganizeWorld(t, s)
		a := putAlbum(t, s, w.lib, "Holidays", 2)
		a.Description = ""
		got := getAlbum(t, s, a.ID)
		require.Equal(t, a, got)
		found, err := s.Read().Albums().FindByName(ctx(t), w.lib.ID, catalog.NameKey(" HOLIDAYS"))
		require.NoError(t, err)
		require.Equal(t, a, found)
		_, err = s.Read().Albums().FindByName(ctx(t), w.lib2.ID, "holidays")
		requireKind(t, err, catalog.ErrNotFound)
		_, err = s.Read().Albums().Get(ctx(t), catalog.NewID(catalog.PrefixAlbum, base))
		requireKind(t, err, catalog.ErrNotFound)
	}},
	{"names are unique per library, case-insensitively; a conflict writes nothing", func(t *testing.T, s store.Store) {
		w := newOrganizeWorld(t, s)
		putAlbum(t, s, w.lib, "Holidays", 2)
		putAlbum(t, s, w.lib2, "holidays", 3)
		dup := &catalog.Album{ID: catalog.NewID(catalog.PrefixAlbum, at(4)), LibraryID: w.lib.ID, Name: " HOLIDAYS ",
			CreatedAt: at(4), UpdatedAt: at(4)}
		requireKind(t, writeErr(t, s, func(r store.Repos) error { return r.Albums().Create(ctx(t), dup) }), catalog.ErrConflict)
		_, err := s.Read().Albums().Get(ctx(t), dup.ID)
		requireKind(t, err, catalog.ErrNotFound)
		work := putAlbum(t, s, w.lib, "Work", 5)
		work.Name, work.Description, work.UpdatedAt = "HOLIDAYS", "x", at(6)
		requireKind(t, writeErr(t, s, func(r store.Repos) error { return r.Albums().Update(ctx(t), work) }), catalog.ErrConflict)
		require.Equal(t, "Work", getAlbum(t, s, work.ID).Name)
		work.Name = "Office"
		write(t, s, func(r store.Repos) error { return r.Albums().Update(ctx(t), work) })
		require.Equal(t, work, getAlbum(t, s, work.ID))
	}},
	{"a pair links once", func(t *testing.T, s store.Store) {
		w := newOrganizeWorld(t, s)
		a := w.putAsset(t, s, w.lib, may(1), nil)
		al := putAlbum(t, s, w.lib, "A", 2)
		link(t, s, al, 3, a)
		err := writeErr(t, s, func(r store.Repos) error {
			return r.Albums().AddLink(ctx(t), &catalog.AlbumAsset{ID: catalog.NewID(catalog.PrefixAlbumAsset, at(9)),
				AlbumID: al.ID, AssetID: a.ID, LibraryID: w.lib.ID, CreatedAt: at(9), UpdatedAt: at(9)})
		})
		requireKind(t, err, catalog.ErrConflict)
		require.Equal(t, 1, getAlbum(t, s, al.ID).AssetCount)
	}},
	{"count, dates and cover follow the live members", func(t *testing.T, s store.Store) {
		w := newOrganizeWorld(t, s)
		plus2 := 7200
		a := w.putAsset(t, s, w.lib, may(1), &plus2)
		b := w.putAsset(t, s, w.lib, may(2), nil)
		c := w.putAsset(t, s, w.lib, may(3), nil)
		al := putAlbum(t, s, w.lib, "A", 2)
		link(t, s, al, 3, b, a, c)
		require.Equal(t, []any{3, "2024-05-01T12:00:00+02:00", "2024-05-03T12:00:00", c.ID}, albumSummary(t, s, al.ID))

		al.CoverAssetID, al.UpdatedAt = &a.ID, at(20)
		write(t, s, func(r store.Repos) error { return r.Albums().Update(ctx(t), al) })
		require.Equal(t, &a.ID, getAlbum(t, s, al.ID).CoverAssetID)
		require.Equal(t, []any{3, "2024-05-01T12:00:00+02:00", "2024-05-03T12:00:00", a.ID}, albumSummary(t, s, al.ID))

		setTrashed(t, s, true, a, c)
		require.Equal(t, []any{1, "2024-05-02T12:00:00", "2024-05-02T12:00:00", b.ID}, albumSummary(t, s, al.ID),
			"a trashed chosen cover gives way")
		setTrashed(t, s, false, a)
		require.Equal(t, []any{2, "2024-05-01T12:00:00+02:00", "2024-05-02T12:00:00", a.ID}, albumSummary(t, s, al.ID))

		b.Capture = catalog.CaptureTime{Wall: may(9)}
		write(t, s, func(r store.Repos) error { return r.Assets().Update(ctx(t), b) })
		require.Equal(t, []any{2, "2024-05-01T12:00:00+02:00", "2024-05-09T12:00:00", a.ID}, albumSummary(t, s, al.ID))

		write(t, s, func(r store.Repos) error { return r.Assets().Delete(ctx(t), []string{a.ID}) })
		got := getAlbum(t, s, al.ID)
		require.Nil(t, got.CoverAssetID, "a deleted asset is no cover")
		require.Equal(t, []any{1, "2024-05-09T12:00:00", "2024-05-09T12:00:00", b.ID}, albumSummary(t, s, al.ID))
	}},
	{"removing links updates the album; a removed chosen cover is cleared", func(t *testing.T, s store.Store) {
		w := newOrganizeWorld(t, s)
		a := w.putAsset(t, s, w.lib, may(1), nil)
		b := w.putAsset(t, s, w.lib, may(2), nil)
		al := putAlbum(t, s, w.lib, "A", 2)
		links := link(t, s, al, 3, a, b)
		al.CoverAssetID = &a.ID
		write(t, s, func(r store.Repos) error { return r.Albums().Update(ctx(t), al) })
		got, err := s.Read().Albums().Links(ctx(t), al.ID, []string{a.ID, b.ID, "asset_other"})
		require.NoError(t, err)
		require.Equal(t, links, got)
		write(t, s, func(r store.Repos) error { return r.Albums().RemoveLinks(ctx(t), []string{links[0].ID}) })
		require.Nil(t, getAlbum(t, s, al.ID).CoverAssetID)
		require.Equal(t, []any{1, "2024-05-02T12:00:00", "2024-05-02T12:00:00", b.ID}, albumSummary(t, s, al.ID))
	}},
	{"links of trashed assets are hidden from lists but kept", func(t *testing.T, s store.Store) {
		w := newOrganizeWorld(t, s)
		a := w.putAsset(t, s, w.lib, may(1), nil)
		b := w.putAsset(t, s, w.lib, may(2), nil)
		al := putAlbum(t, s, w.lib, "A", 2)
		links := link(t, s, al, 3, a, b)
		setTrashed(t, s, true, a)
		items, _ := firstPage(t, 10, listLinks(t, s, query.AlbumAssetFilter{LibraryID: w.lib.ID, AlbumID: al.ID}))
		require.Equal(t, []string{links[1].ID}, idsOf(items, linkID))
		all, err := s.Read().Albums().LinksOfAssets(ctx(t), []string{a.ID, b.ID})
		require.NoError(t, err)
		require.Equal(t, links, all)
		albums, _ := firstPage(t, 10, func(p query.Page) ([]catalog.Album, bool, error) {
			return s.Read().Albums().List(ctx(t), query.AlbumFilter{LibraryID: w.lib.ID, AssetID: a.ID}, p)
		})
		require.Empty(t, albums)
	}},
	{"deleting an album removes its links, not its assets", func(t *testing.T, s store.Store) {
		w := newOrganizeWorld(t, s)
		a := w.putAsset(t, s, w.lib, may(1), nil)
		al := putAlbum(t, s, w.lib, "A", 2)
		link(t, s, al, 3, a)
		write(t, s, func(r store.Repos) error { return r.Albums().Delete(ctx(t), al.ID) })
		requireKind(t, writeErr(t, s, func(r store.Repos) error { return r.Albums().Delete(ctx(t), al.ID) }), catalog.ErrNotFound)
		left, err := s.Read().Albums().LinksOfAssets(ctx(t), []string{a.ID})
		require.NoError(t, err)
		require.Empty(t, left)
		_, err = s.Read().Assets().Get(ctx(t), a.ID)
		require.NoError(t, err)
	}},
	{"album lists page newest first, per library and per asset", func(t *testing.T, s store.Store) {
		w := newOrganizeWorld(t, s)
		a := w.putAsset(t, s, w.lib, may(1), nil)
		var want, withA []string
		for i := range 5 {
			al := putAlbum(t, s, w.lib, fmt.Sprint("album ", i), 10+i)
			want = append([]string{al.ID}, want...)
			if i%2 == 0 {
				link(t, s, al, 20+i, a)
				withA = append([]string{al.ID}, withA...)
			}
		}
		putAlbum(t, s, w.lib2, "elsewhere", 30)
		checkPaging(t, want, albumID, func(p query.Page) ([]catalog.Album, bool, error) {
			return s.Read().Albums().List(ctx(t), query.AlbumFilter{LibraryID: w.lib.ID}, p)
		})
		checkPaging(t, withA, albumID, func(p query.Page) ([]catalog.Album, bool, error) {
			return s.Read().Albums().List(ctx(t), query.AlbumFilter{LibraryID: w.lib.ID, AssetID: a.ID}, p)
		})
	}},
	{"link lists page newest first under every filter; a foreign cursor is invalid", func(t *testing.T, s store.Store) {
		w := newOrganizeWorld(t, s)
		var assets []*catalog.Asset
		for i := range 4 {
			assets = append(assets, w.putAsset(t, s, w.lib, may(1+i), nil))
		}
		one, two := putAlbum(t, s, w.lib, "one", 2), putAlbum(t, s, w.lib, "two", 3)
		l1 := link(t, s, one, 10, assets...)
		l2 := link(t, s, two, 20, assets[1], assets[2])
		other := link(t, s, putAlbum(t, s, w.lib2, "x", 4), 30, w.putAsset(t, s, w.lib2, may(9), nil))
		lib := w.lib.ID
		checkPaging(t, linkIDsNewestFirst(l1...), linkID, listLinks(t, s, query.AlbumAssetFilter{LibraryID: lib, AlbumID: one.ID}))
		checkPaging(t, linkIDsNewestFirst(l1[1], l2[0]), linkID, listLinks(t, s, query.AlbumAssetFilter{LibraryID: lib, AssetID: assets[1].ID}))
		checkPaging(t, linkIDsNewestFirst(append(l1, l2...)...), linkID, listLinks(t, s, query.AlbumAssetFilter{LibraryID: lib}))
		checkPaging(t, linkIDsNewestFirst(l1[0], l2[1]), linkID, listLinks(t, s, query.AlbumAssetFilter{LibraryID: lib,
			IDs: []string{l2[1].ID, l1[0].ID, other[0].ID}}))
		_, _, err := s.Read().Albums().ListLinks(ctx(t), query.AlbumAssetFilter{LibraryID: lib, AlbumID: two.ID},
			query.Page{Limit: 5, AfterID: l1[0].ID})
		requireInvalidCursor(t, err)
	}},
	{"an album's asset list follows its timeline and does not collapse stacks", func(t *testing.T, s store.Store) {
		w := newOrganizeWorld(t, s)
		a := w.putAsset(t, s, w.lib, may(3), nil)
		b := w.putAsset(t, s, w.lib, may(1), nil)
		c := w.putAsset(t, s, w.lib, may(2), nil)
		d := w.putAsset(t, s, w.lib, may(4), nil)
		st := &catalog.Stack{ID: catalog.NewID(catalog.PrefixStack, at(5)), LibraryID: w.lib.ID, CoverAssetID: d.ID,
			AssetIDs: []string{c.ID, d.ID}, Source: catalog.StackManual, CreatedAt: at(5), UpdatedAt: at(5)}
		write(t, s, func(r store.Repos) error { return r.Stacks().Create(ctx(t), st) })
		al := putAlbum(t, s, w.lib, "A", 6)
		link(t, s, al, 7, a, b, c)
		lister := func(f query.AssetFilter) list[catalog.Asset] {
			return func(p query.Page) ([]catalog.Asset, bool, error) { return s.Read().Assets().List(ctx(t), f, p) }
		}
		checkPaging(t, []string{a.ID, c.ID, b.ID}, assetID, lister(query.AssetFilter{LibraryID: w.lib.ID, AlbumID: al.ID}))
		checkPaging(t, []string{b.ID, c.ID, a.ID}, assetID, lister(query.AssetFilter{LibraryID: w.lib.ID, AlbumID: al.ID, Asc: true}))
		setTrashed(t, s, true, c)
		checkPaging(t, []string{a.ID, b.ID}, assetID, lister(query.AssetFilter{LibraryID: w.lib.ID, AlbumID: al.ID}))
		checkPaging(t, []string{c.ID}, assetID, lister(query.AssetFilter{LibraryID: w.lib.ID, AlbumID: al.ID, State: query.StateTrashed}))
		checkPaging(t, []string{a.ID, c.ID, b.ID}, assetID, lister(query.AssetFilter{LibraryID: w.lib.ID, AlbumID: al.ID, State: query.StateAll}))
		checkPaging(t, []string{}, assetID, lister(query.AssetFilter{LibraryID: w.lib2.ID, AlbumID: al.ID}))
	}},
}
