package storetest

import (
	"crypto/sha1"
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

// assetWorld is a user with two libraries, for the Assets cases.
type assetWorld struct {
	user      *catalog.User
	lib, lib2 *catalog.Library
	n         int
}

func newAssetWorld(t *testing.T, s store.Store) *assetWorld {
	t.Helper()
	u := makeUser(t, s, "alice@example.com")
	return &assetWorld{user: u, lib: makeLibrary(t, s, u.ID, "Family", 0), lib2: makeLibrary(t, s, u.ID, "Work", 1)}
}

// newAsset returns an unsaved image asset of the library captured at wall
// (no offset), with a checksum of its own, changed by the options.
func (w *assetWorld) newAsset(lib *catalog.Library, wall time.Time, opts ...func(*catalog.Asset)) *catalog.Asset {
	w.n++
	sum := sha256.Sum256([]byte(fmt.Sprint("assets", w.n)))
	created := at(w.n)
	a := &catalog.Asset{ID: catalog.NewID(catalog.PrefixAsset, created), LibraryID: lib.ID, ContributorID: w.user.ID,
		MediaType: catalog.MediaImage, MIMEType: "image/jpeg", OriginalFileName: fmt.Sprintf("%d.jpg", w.n),
		FileCreatedAt: created, FileModifiedAt: created, Capture: catalog.CaptureTime{Wall: wall}, Checksum: sum[:],
		OriginalSize: 10, FileSizeBytes: 10, CreatedAt: created, UpdatedAt: created}
	for _, o := range opts {
		o(a)
	}
	return a
}

// put saves a new asset of the library captured at wall.
func (w *assetWorld) put(t *testing.T, s store.Store, lib *catalog.Library, wall time.Time, opts ...func(*catalog.Asset)) *catalog.Asset {
	t.Helper()
	a := w.newAsset(lib, wall, opts...)
	write(t, s, func(r store.Repos) error { return r.Assets().Create(ctx(t), a) })
	return a
}

// withOffset sets the capture offset, in hours.
func withOffset(hours int) func(*catalog.Asset) {
	return func(a *catalog.Asset) { a.Capture.Offset = ptr(hours * 3600) }
}

// atPosition puts the asset at lon, lat (its file metadata).
func atPosition(lon, lat float64) func(*catalog.Asset) {
	return func(a *catalog.Asset) { a.FileMeta.Longitude, a.FileMeta.Latitude = ptr(lon), ptr(lat) }
}

func getAsset(t *testing.T, s store.Store, id string) *catalog.Asset {
	t.Helper()
	a, err := s.Read().Assets().Get(ctx(t), id)
	require.NoError(t, err)
	return a
}

// sortedIDs returns the assets' ids in byte order.
func sortedIDs(assets ...*catalog.Asset) []string {
	out := make([]string, len(assets))
	for i, a := range assets {
		out[i] = a.ID
	}
	slices.Sort(out)
	return out
}

func sortedAssetIDs(assets []catalog.Asset) []string {
	out := idsOf(assets, assetID)
	slices.Sort(out)
	return out
}

var assetCases = []testCase{
	{"an asset reads back exactly as written, every field", func(t *testing.T, s store.Store) {
		w := newAssetWorld(t, s)
		sha := sha1.Sum([]byte("sha1"))
		a := w.newAsset(w.lib, time.Date(2023, 7, 14, 18, 30, 15, 123456000, time.UTC), withOffset(2), func(a *catalog.Asset) {
			a.MediaType, a.MIMEType = catalog.MediaVideo, "video/mp4"
			a.DeviceAssetID, a.DeviceID = "device-asset-1", "phone"
			a.ChecksumSHA1 = sha[:]
			a.Width, a.Height = ptr(4000), ptr(3000)
			a.OriginalSize, a.FileSizeBytes = 1<<40, 12345
			a.FileMeta = catalog.Metadata{Make: ptr("Canon"), ISO: ptr(400.0), Latitude: ptr(48.8566), Longitude: ptr(2.3522),
				Rating: ptr(2.0)}
			a.GeoMeta = catalog.Metadata{City: ptr("Paris"), CountryCode: ptr("FR")}
			a.UserMeta = catalog.Metadata{Rating: ptr(5.0), Description: ptr("a day out")}
			a.Metrics = map[string]any{"phash": "0123456789abcdef", "sharpness": 0.25}
			a.Description = ptr("")
			a.TrashedAt = ptr(at(50))
		})
		write(t, s, func(r store.Repos) error { return r.Assets().Create(ctx(t), a) })
		got := getAsset(t, s, a.ID)
		require.Equal(t, a, got)

		plain := w.put(t, s, w.lib, at(10))
		got = getAsset(t, s, plain.ID)
		require.Nil(t, got.Capture.Offset)
		require.Nil(t, got.ChecksumSHA1)
		require.Nil(t, got.Width)
		require.Nil(t, got.Description)
		require.Nil(t, got.CurrentVersionID)
		require.Nil(t, got.StackID)
		require.Nil(t, got.TrashedAt)
		require.Empty(t, got.Metrics)
		require.Equal(t, catalog.Metadata{}, got.UserMeta)
	}},
	{"a missing asset is ErrNotFound; GetMany and Existing return those that exist", func(t *testing.T, s store.Store) {
		w := newAssetWorld(t, s)
		a := w.put(t, s, w.lib, at(1))
		b := w.put(t, s, w.lib2, at(2))
		_, err := s.Read().Assets().Get(ctx(t), "asset_missing")
		requireKind(t, err, catalog.ErrNotFound)
		got, err := s.Read().Assets().GetMany(ctx(t), []string{b.ID, "asset_missing", a.ID})
		require.NoError(t, err)
		require.Equal(t, sortedIDs(a, b), sortedAssetIDs(got))
		got, err = s.Read().Assets().GetMany(ctx(t), nil)
		require.NoError(t, err)
		require.Empty(t, got)
		ids, err := s.Read().Assets().Existing(ctx(t), []string{b.ID, "asset_missing", a.ID})
		require.NoError(t, err)
		slices.Sort(ids)
		require.Equal(t, sortedIDs(a, b), ids)
		ids, err = s.Read().Assets().Existing(ctx(t), nil)
		require.NoError(t, err)
		require.Empty(t, ids)
	}},
	{"a checksum is unique per library: a second is ErrConflict and the transaction goes on", func(t *testing.T, s store.Store) {
		w := newAssetWorld(t, s)
		a := w.put(t, s, w.lib, at(1))
		dup := w.newAsset(w.lib, at(2), func(d *catalog.Asset) { d.Checksum = a.Checksum })
		other := w.newAsset(w.lib, at(3))
		write(t, s, func(r store.Repos) error {
			requireKind(t, r.Assets().Create(ctx(t), dup), catalog.ErrConflict)
			return r.Assets().Create(ctx(t), other) // the caller caught the conflict and carries on
		})
		_, err := s.Read().Assets().Get(ctx(t), dup.ID)
		requireKind(t, err, catalog.ErrNotFound)
		getAsset(t, s, other.ID)
		// The same bytes in another library are another asset.
		elsewhere := w.put(t, s, w.lib2, at(4), func(d *catalog.Asset) { d.Checksum = a.Checksum })
		// A second asset with an existing id is a conflict too.
		again := w.newAsset(w.lib, at(5), func(d *catalog.Asset) { d.ID = a.ID })
		requireKind(t, writeErr(t, s, func(r store.Repos) error { return r.Assets().Create(ctx(t), again) }),
			catalog.ErrConflict)

		found, err := s.Read().Assets().FindByChecksum(ctx(t), w.lib.ID, a.Checksum)
		require.NoError(t, err)
		require.Equal(t, a.ID, found.ID)
		found, err = s.Read().Assets().FindByChecksum(ctx(t), w.lib2.ID, a.Checksum)
		require.NoError(t, err)
		require.Equal(t, elsewhere.ID, found.ID)
		_, err = s.Read().Assets().FindByChecksum(ctx(t), w.lib.ID, []byte("unknown"))
		requireKind(t, err, catalog.ErrNotFound)

		ids, err := s.Read().Assets().IDsByChecksum(ctx(t), w.lib.ID, [][]byte{a.Checksum, []byte("unknown"), other.Checksum})
		require.NoError(t, err)
		require.Equal(t, map[string]string{string(a.Checksum): a.ID, string(other.Checksum): other.ID}, ids)
		ids, err = s.Read().Assets().IDsByChecksum(ctx(t), w.lib.ID, nil)
		require.NoError(t, err)
		require.Empty(t, ids)
	}},
	{"FindBySHA1 finds the library's live and trashed assets by SHA-1", func(t *testing.T, s store.Store) {
		w := newAssetWorld(t, s)
		sha := func(v string) []byte { h := sha1.Sum([]byte(v)); return h[:] }
		live := w.put(t, s, w.lib, at(1), func(a *catalog.Asset) { a.ChecksumSHA1 = sha("live") })
		trashed := w.put(t, s, w.lib, at(2), func(a *catalog.Asset) { a.ChecksumSHA1 = sha("trashed"); a.TrashedAt = ptr(at(9)) })
		w.put(t, s, w.lib2, at(3), func(a *catalog.Asset) { a.ChecksumSHA1 = sha("live") })
		w.put(t, s, w.lib, at(4)) // no SHA-1
		sums := [][]byte{sha("live"), sha("trashed"), sha("unknown")}
		for i := range 600 { // more than one batch
			sums = append(sums, sha(fmt.Sprint("padding", i)))
		}
		got, err := s.Read().Assets().FindBySHA1(ctx(t), w.lib.ID, sums)
		require.NoError(t, err)
		require.Equal(t, sortedIDs(live, trashed), sortedAssetIDs(got))
		got, err = s.Read().Assets().FindBySHA1(ctx(t), w.lib.ID, nil)
		require.NoError(t, err)
		require.Empty(t, got)
	}},
	{"Seq numbers each asset with a distinct positive integer that IDBySeq reads back", func(t *testing.T, s store.Store) {
		w := newAssetWorld(t, s)
		a := w.put(t, s, w.lib, at(1))
		b := w.put(t, s, w.lib2, at(2))
		sa, err := s.Read().Assets().Seq(ctx(t), a.ID)
		require.NoError(t, err)
		sb, err := s.Read().Assets().Seq(ctx(t), b.ID)
		require.NoError(t, err)
		require.Positive(t, sa)
		require.Positive(t, sb)
		require.NotEqual(t, sa, sb)
		id, err := s.Read().Assets().IDBySeq(ctx(t), sb)
		require.NoError(t, err)
		require.Equal(t, b.ID, id)
		_, err = s.Read().Assets().Seq(ctx(t), "asset_missing")
		requireKind(t, err, catalog.ErrNotFound)
		_, err = s.Read().Assets().IDBySeq(ctx(t), sa+sb+1000)
		requireKind(t, err, catalog.ErrNotFound)
	}},
	{"Update writes every mutable field and the derived filters follow it", func(t *testing.T, s store.Store) {
		w := newAssetWorld(t, s)
		a := w.put(t, s, w.lib, at(1), atPosition(10, 50))
		a.OriginalFileName, a.MIMEType = "renamed.jpg", "image/png"
		a.Capture = catalog.CaptureTime{Wall: at(500), Offset: ptr(-3600)}
		a.FileSizeBytes, a.Width = 77, ptr(10)
		a.CurrentVersionID = ptr("ver_x")
		a.GeoMeta = catalog.Metadata{Latitude: ptr(-33.9), Longitude: ptr(151.2)} // wins over the file's
		a.UserMeta = catalog.Metadata{Rating: ptr(4.0)}
		a.Metrics = map[string]any{"phash": "ffff"}
		a.Description = ptr("a harbour")
		a.UpdatedAt = at(600)
		write(t, s, func(r store.Repos) error { return r.Assets().Update(ctx(t), a) })
		require.Equal(t, a, getAsset(t, s, a.ID))

		lst := listAssets(t, s)
		rated := query.AssetFilter{LibraryID: w.lib.ID, MinRating: ptr(4)}
		require.Equal(t, []string{a.ID}, idsOf(lst(t, rated), assetID))
		sydney := &catalog.Location{Box: &catalog.BBox{MinLon: 150, MinLat: -35, MaxLon: 152, MaxLat: -33}}
		require.Equal(t, []string{a.ID}, idsOf(lst(t, query.AssetFilter{LibraryID: w.lib.ID, Location: sydney}), assetID))
		europe := &catalog.Location{Box: &catalog.BBox{MinLon: 0, MinLat: 40, MaxLon: 20, MaxLat: 60}}
		require.Empty(t, lst(t, query.AssetFilter{LibraryID: w.lib.ID, Location: europe}))
		// The position removed: in no box any more, not even the world.
		a.FileMeta, a.GeoMeta = catalog.Metadata{}, catalog.Metadata{}
		write(t, s, func(r store.Repos) error { return r.Assets().Update(ctx(t), a) })
		require.Empty(t, lst(t, query.AssetFilter{LibraryID: w.lib.ID, Location: &catalog.Location{Box: ptr(catalog.World)}}))
		require.Equal(t, []string{a.ID}, idsOf(lst(t, query.AssetFilter{LibraryID: w.lib.ID}), assetID))

		missing := w.newAsset(w.lib, at(2))
		requireKind(t, writeErr(t, s, func(r store.Repos) error { return r.Assets().Update(ctx(t), missing) }),
			catalog.ErrNotFound)
	}},
	{"SetTrashed moves assets between states; TrashedBefore lists the oldest trashed first", func(t *testing.T, s store.Store) {
		w := newAssetWorld(t, s)
		a := w.put(t, s, w.lib, at(1))
		b := w.put(t, s, w.lib, at(2))
		c := w.put(t, s, w.lib2, at(3))
		d := w.put(t, s, w.lib, at(4))
		trashAt := func(m int, assets ...*catalog.Asset) {
			write(t, s, func(r store.Repos) error {
				return r.Assets().SetTrashed(ctx(t), idsOf(derefAll(assets), assetID), ptr(at(m)), at(m))
			})
		}
		trashAt(30, c)
		trashAt(20, a, b)
		got := getAsset(t, s, a.ID)
		require.Equal(t, at(20), *got.TrashedAt)
		require.Equal(t, at(20), got.UpdatedAt)

		lst := listAssets(t, s)
		require.Equal(t, []string{d.ID}, idsOf(lst(t, query.AssetFilter{LibraryID: w.lib.ID}), assetID))
		require.Equal(t, []string{b.ID, a.ID},
			idsOf(lst(t, query.AssetFilter{LibraryID: w.lib.ID, State: query.StateTrashed}), assetID))
		require.Equal(t, []string{d.ID, b.ID, a.ID},
			idsOf(lst(t, query.AssetFilter{LibraryID: w.lib.ID, State: query.StateAll}), assetID))

		ids, err := s.Read().Assets().TrashedBefore(ctx(t), at(31), 10)
		require.NoError(t, err)
		require.Len(t, ids, 3)
		require.ElementsMatch(t, []string{a.ID, b.ID}, ids[:2])
		require.Equal(t, c.ID, ids[2])
		ids, err = s.Read().Assets().TrashedBefore(ctx(t), at(30), 10) // strictly before
		require.NoError(t, err)
		require.ElementsMatch(t, []string{a.ID, b.ID}, ids)
		ids, err = s.Read().Assets().TrashedBefore(ctx(t), at(31), 1)
		require.NoError(t, err)
		require.Len(t, ids, 1)

		// Restore.
		write(t, s, func(r store.Repos) error { return r.Assets().SetTrashed(ctx(t), []string{a.ID}, nil, at(40)) })
		got = getAsset(t, s, a.ID)
		require.Nil(t, got.TrashedAt)
		require.Equal(t, at(40), got.UpdatedAt)
		require.Equal(t, []string{d.ID, a.ID}, idsOf(lst(t, query.AssetFilter{LibraryID: w.lib.ID}), assetID))
	}},
	{"Delete removes the rows, their versions and their index entries", func(t *testing.T, s store.Store) {
		w := newAssetWorld(t, s)
		a := w.put(t, s, w.lib, at(1), atPosition(10, 50))
		b := w.put(t, s, w.lib, at(2), atPosition(10, 50))
		keep := w.put(t, s, w.lib, at(3), atPosition(10, 50))
		v := newVersion(w, a, 5)
		write(t, s, func(r store.Repos) error { return r.AssetVersions().Create(ctx(t), v) })
		write(t, s, func(r store.Repos) error { return r.Assets().Delete(ctx(t), []string{a.ID, b.ID}) })
		_, err := s.Read().Assets().Get(ctx(t), a.ID)
		requireKind(t, err, catalog.ErrNotFound)
		_, err = s.Read().AssetVersions().Get(ctx(t), a.ID, v.ID)
		requireKind(t, err, catalog.ErrNotFound)
		lst := listAssets(t, s)
		box := &catalog.Location{Box: &catalog.BBox{MinLon: 0, MinLat: 40, MaxLon: 20, MaxLat: 60}}
		require.Equal(t, []string{keep.ID}, idsOf(lst(t, query.AssetFilter{LibraryID: w.lib.ID, Location: box}), assetID))
		require.Equal(t, []string{keep.ID}, idsOf(lst(t, query.AssetFilter{LibraryID: w.lib.ID}), assetID))
		// The checksum is free again.
		w.put(t, s, w.lib, at(4), func(n *catalog.Asset) { n.Checksum = a.Checksum })
	}},
}

func derefAll(assets []*catalog.Asset) []catalog.Asset {
	out := make([]catalog.Asset, len(assets))
	for i, a := range assets {
		out[i] = *a
	}
	return out
}

// listAssets returns a function that fetches every asset of a filter in
// one page.
func listAssets(t *testing.T, s store.Store) func(t *testing.T, f query.AssetFilter) []catalog.Asset {
	return func(t *testing.T, f query.AssetFilter) []catalog.Asset {
		t.Helper()
		items, more, err := s.Read().Assets().List(ctx(t), f, query.Page{Limit: 1000})
		require.NoError(t, err)
		require.False(t, more)
		return items
	}
}

// assetLister is an asset list for checkPaging.
func assetLister(t *testing.T, s store.Store, f query.AssetFilter) list[catalog.Asset] {
	return func(p query.Page) ([]catalog.Asset, bool, error) { return s.Read().Assets().List(ctx(t), f, p) }
}
