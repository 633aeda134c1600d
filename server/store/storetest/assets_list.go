package storetest

import (
	"cmp"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/photoctl/photoctl/server/catalog"
	"github.com/photoctl/photoctl/server/query"
	"github.com/photoctl/photoctl/server/store"
)

// wallAt is 2024-05-d h:00 as a wall-clock reading (encoded as UTC).
func wallAt(d, h int) time.Time { return time.Date(2024, 5, d, h, 0, 0, 0, time.UTC) }

// wallBound is an offsetless bound; instantBound one with an offset.
func wallBound(t time.Time) *catalog.TimeBound { return &catalog.TimeBound{Time: t} }
func instantBound(t time.Time) *catalog.TimeBound {
	return &catalog.TimeBound{Time: t, HasOffset: true}
}

func boxOf(minLon, minLat, maxLon, maxLat float64) *catalog.Location {
	return &catalog.Location{Box: &catalog.BBox{MinLon: minLon, MinLat: minLat, MaxLon: maxLon, MaxLat: maxLat}}
}

var assetListCases = []testCase{
	{"lists order by capture wall time then id, newest first or oldest first, with exact paging", func(t *testing.T, s store.Store) {
		w := newAssetWorld(t, s)
		// Walls deliberately out of creation order, two equal (id breaks the tie).
		c := w.put(t, s, w.lib, wallAt(3, 10))
		a := w.put(t, s, w.lib, wallAt(1, 10))
		d := w.put(t, s, w.lib, wallAt(3, 10))
		b := w.put(t, s, w.lib, wallAt(2, 10), withOffset(9)) // the wall orders, not the instant
		e := w.put(t, s, w.lib, wallAt(4, 10))
		w.put(t, s, w.lib2, wallAt(2, 12)) // another library
		lo, hi := c, d
		if hi.ID < lo.ID {
			lo, hi = hi, lo
		}
		asc := []string{a.ID, b.ID, lo.ID, hi.ID, e.ID}
		desc := []string{e.ID, hi.ID, lo.ID, b.ID, a.ID}
		checkPaging(t, desc, assetID, assetLister(t, s, query.AssetFilter{LibraryID: w.lib.ID}))
		checkPaging(t, asc, assetID, assetLister(t, s, query.AssetFilter{LibraryID: w.lib.ID, Asc: true}))
	}},
	{"live and trashed assets page together as one timeline", func(t *testing.T, s store.Store) {
		w := newAssetWorld(t, s)
		var all []*catalog.Asset
		for i := range 7 {
			a := w.put(t, s, w.lib, wallAt(1+i%4, 10), func(a *catalog.Asset) { // equal walls: the id decides
				if i%3 != 1 {
					a.TrashedAt = ptr(at(100))
				}
			})
			all = append(all, a)
		}
		w.put(t, s, w.lib2, wallAt(2, 11))
		slices.SortFunc(all, func(a, b *catalog.Asset) int {
			return cmp.Or(a.Capture.Wall.Compare(b.Capture.Wall), strings.Compare(a.ID, b.ID))
		})
		asc := idsOf(derefAll(all), assetID)
		desc := slices.Clone(asc)
		slices.Reverse(desc)
		checkPaging(t, desc, assetID, assetLister(t, s, query.AssetFilter{LibraryID: w.lib.ID, State: query.StateAll}))
		checkPaging(t, asc, assetID, assetLister(t, s, query.AssetFilter{LibraryID: w.lib.ID, State: query.StateAll, Asc: true}))
		_, _, err := s.Read().Assets().List(ctx(t), query.AssetFilter{LibraryID: w.lib2.ID, State: query.StateAll},
			query.Page{Limit: 2, AfterID: all[0].ID})
		requireInvalidCursor(t, err)
	}},
	{"a cursor that is not an asset of the list is a validation error", func(t *testing.T, s store.Store) {
		w := newAssetWorld(t, s)
		w.put(t, s, w.lib, wallAt(1, 10))
		other := w.put(t, s, w.lib2, wallAt(1, 11))
		video := w.put(t, s, w.lib, wallAt(1, 12), func(a *catalog.Asset) { a.MediaType = catalog.MediaVideo })
		_, _, err := s.Read().Assets().List(ctx(t), query.AssetFilter{LibraryID: w.lib.ID}, query.Page{Limit: 5, AfterID: other.ID})
		requireInvalidCursor(t, err)
		_, _, err = s.Read().Assets().List(ctx(t), query.AssetFilter{LibraryID: w.lib.ID, MediaType: catalog.MediaImage},
			query.Page{Limit: 5, AfterID: video.ID})
		requireInvalidCursor(t, err)
		_, _, err = s.Read().Assets().List(ctx(t), query.AssetFilter{LibraryID: w.lib.ID}, query.Page{Limit: 5, AfterID: "asset_missing"})
		requireInvalidCursor(t, err)
	}},
	{"media type, minimum rating (the merged view) and ids filter", func(t *testing.T, s store.Store) {
		w := newAssetWorld(t, s)
		img := w.put(t, s, w.lib, wallAt(1, 10), func(a *catalog.Asset) { a.FileMeta.Rating = ptr(3.0) })
		vid := w.put(t, s, w.lib, wallAt(2, 10), func(a *catalog.Asset) {
			a.MediaType, a.MIMEType = catalog.MediaVideo, "video/mp4"
			a.FileMeta.Rating, a.UserMeta.Rating = ptr(1.0), ptr(5.0) // the user's rating wins
		})
		unrated := w.put(t, s, w.lib, wallAt(3, 10))
		lst := listAssets(t, s)
		ids := func(f query.AssetFilter) []string { f.LibraryID = w.lib.ID; return idsOf(lst(t, f), assetID) }
		require.Equal(t, []string{unrated.ID, img.ID}, ids(query.AssetFilter{MediaType: catalog.MediaImage}))
		require.Equal(t, []string{vid.ID}, ids(query.AssetFilter{MediaType: catalog.MediaVideo}))
		require.Equal(t, []string{vid.ID, img.ID}, ids(query.AssetFilter{MinRating: ptr(3)}))
		require.Equal(t, []string{vid.ID}, ids(query.AssetFilter{MinRating: ptr(4)}))
		require.Equal(t, []string{vid.ID, img.ID}, ids(query.AssetFilter{MinRating: ptr(0)})) // unrated: no rating
		require.Equal(t, []string{unrated.ID, img.ID}, ids(query.AssetFilter{IDs: []string{img.ID, unrated.ID, "asset_missing"}}))
		require.Equal(t, []string{img.ID}, ids(query.AssetFilter{IDs: []string{img.ID, vid.ID}, MediaType: catalog.MediaImage}))
	}},
	{"offsetless capture bounds compare the wall reading: after inclusive, before exclusive", func(t *testing.T, s store.Store) {
		w := newAssetWorld(t, s)
		plain := w.put(t, s, w.lib, wallAt(1, 10))
		east := w.put(t, s, w.lib, wallAt(1, 10), withOffset(9))  // instant 01:00Z
		west := w.put(t, s, w.lib, wallAt(1, 12), withOffset(-5)) // instant 17:00Z
		lst := listAssets(t, s)
		ids := func(r catalog.CaptureRange) []string {
			return sortedAssetIDs(lst(t, query.AssetFilter{LibraryID: w.lib.ID, Capture: r}))
		}
		require.Equal(t, sortedIDs(plain, east), ids(catalog.CaptureRange{After: wallBound(wallAt(1, 10)), Before: wallBound(wallAt(1, 12))}))
		require.Equal(t, sortedIDs(west), ids(catalog.CaptureRange{After: wallBound(wallAt(1, 11))}))
		require.Equal(t, sortedIDs(plain, east), ids(catalog.CaptureRange{Before: wallBound(wallAt(1, 12))}))
		require.Empty(t, ids(catalog.CaptureRange{Before: wallBound(wallAt(1, 10))}))
		// Sub-microsecond bounds round up: an asset at the bound's microsecond is after it.
		require.Equal(t, sortedIDs(west), ids(catalog.CaptureRange{After: wallBound(wallAt(1, 10).Add(time.Nanosecond))}))
	}},
	{"offset-aware capture bounds compare the instant; an asset without offset counts its wall", func(t *testing.T, s store.Store) {
		w := newAssetWorld(t, s)
		plain := w.put(t, s, w.lib, wallAt(1, 10))               // instant taken as 10:00Z
		east := w.put(t, s, w.lib, wallAt(1, 10), withOffset(9)) // instant 01:00Z
		west := w.put(t, s, w.lib, wallAt(1, 12), withOffset(-5))
		far := w.put(t, s, w.lib, wallAt(2, 9), withOffset(14)) // instant 1 May 19:00Z, wall 14 h later
		dateline := w.put(t, s, w.lib, wallAt(1, 7), withOffset(-12))
		lst := listAssets(t, s)
		ids := func(r catalog.CaptureRange) []string {
			return sortedAssetIDs(lst(t, query.AssetFilter{LibraryID: w.lib.ID, Capture: r}))
		}
		require.Equal(t, sortedIDs(east), ids(catalog.CaptureRange{After: instantBound(wallAt(1, 0)), Before: instantBound(wallAt(1, 2)), Absolute: true}))
		require.Equal(t, sortedIDs(plain), ids(catalog.CaptureRange{After: instantBound(wallAt(1, 9)), Before: instantBound(wallAt(1, 11)), Absolute: true}))
		require.Equal(t, sortedIDs(west, far, dateline), ids(catalog.CaptureRange{After: instantBound(wallAt(1, 17)), Absolute: true}))
		require.Equal(t, sortedIDs(far, dateline), ids(catalog.CaptureRange{After: instantBound(wallAt(1, 18)), Before: instantBound(wallAt(1, 20)), Absolute: true}))
		require.Equal(t, sortedIDs(east, plain), ids(catalog.CaptureRange{Before: instantBound(wallAt(1, 17)), Absolute: true}))
		// Ordered by wall time all the same.
		got := lst(t, query.AssetFilter{LibraryID: w.lib.ID, Asc: true,
			Capture: catalog.CaptureRange{After: instantBound(wallAt(1, 0)), Absolute: true}})
		require.Equal(t, []string{dateline.ID, plain.ID, east.ID, west.ID, far.ID}, idsOf(got, assetID))
	}},
	{"a box selects edges included; a crossing box reads over the antimeridian; the world has every located asset", func(t *testing.T, s store.Store) {
		w := newAssetWorld(t, s)
		paris := w.put(t, s, w.lib, wallAt(1, 1), atPosition(2.35, 48.85))
		edge := w.put(t, s, w.lib, wallAt(1, 2), atPosition(10, 45)) // on the box's corner
		fijiEast := w.put(t, s, w.lib, wallAt(1, 3), atPosition(179.5, -17))
		fijiWest := w.put(t, s, w.lib, wallAt(1, 4), atPosition(-179.5, -16))
		dateline := w.put(t, s, w.lib, wallAt(1, 5), atPosition(-180, 0))
		pole := w.put(t, s, w.lib, wallAt(1, 6), atPosition(0, 90))
		w.put(t, s, w.lib, wallAt(1, 7))                                 // no position
		geo := w.put(t, s, w.lib, wallAt(1, 8), func(a *catalog.Asset) { // a position from the geo layer
			a.GeoMeta.Longitude, a.GeoMeta.Latitude = ptr(5.0), ptr(46.0)
		})
		w.put(t, s, w.lib2, wallAt(1, 9), atPosition(2.35, 48.85)) // another library
		lst := listAssets(t, s)
		ids := func(l *catalog.Location) []string {
			return sortedAssetIDs(lst(t, query.AssetFilter{LibraryID: w.lib.ID, Location: l}))
		}
		require.Equal(t, sortedIDs(paris, edge, geo), ids(boxOf(0, 45, 10, 50)))
		require.Equal(t, sortedIDs(paris, geo), ids(boxOf(0, 45.000001, 9.999999, 50)))
		require.Equal(t, sortedIDs(fijiEast, fijiWest), ids(boxOf(179, -20, -179, -10)))
		require.Equal(t, sortedIDs(fijiEast, fijiWest, dateline), ids(boxOf(179, -20, -179, 0)))
		require.Equal(t, sortedIDs(fijiEast), ids(boxOf(179, -20, 180, 0)))
		require.Equal(t, sortedIDs(paris, edge, fijiEast, fijiWest, dateline, pole, geo), ids(&catalog.Location{Box: ptr(catalog.World)}))
		require.Empty(t, ids(boxOf(-10, -10, -5, -5)))
		// Page order and paging hold under a location.
		checkPaging(t, []string{geo.ID, edge.ID, paris.ID}, assetID,
			assetLister(t, s, query.AssetFilter{LibraryID: w.lib.ID, Location: boxOf(0, 45, 10, 50)}))
		checkPaging(t, []string{fijiWest.ID, fijiEast.ID}, assetID,
			assetLister(t, s, query.AssetFilter{LibraryID: w.lib.ID, Location: boxOf(179, -20, -179, -10)}))
	}},
	{"a circle selects along the great circle, across the antimeridian and over a pole", func(t *testing.T, s store.Store) {
		w := newAssetWorld(t, s)
		paris := w.put(t, s, w.lib, wallAt(1, 1), atPosition(2.3522, 48.8566))
		versailles := w.put(t, s, w.lib, wallAt(1, 2), atPosition(2.1204, 48.8049)) // about 17.8 km from Paris
		fijiEast := w.put(t, s, w.lib, wallAt(1, 3), atPosition(179.5, -17))
		fijiWest := w.put(t, s, w.lib, wallAt(1, 4), atPosition(-179.5, -16))
		north := w.put(t, s, w.lib, wallAt(1, 5), atPosition(100, 89.5))
		northToo := w.put(t, s, w.lib, wallAt(1, 6), atPosition(-80, 89.5)) // across the pole from it
		w.put(t, s, w.lib, wallAt(1, 7))
		lst := listAssets(t, s)
		ids := func(lon, lat, r float64) []string {
			l := &catalog.Location{Circle: &catalog.Circle{Lon: lon, Lat: lat, RadiusM: r}}
			return sortedAssetIDs(lst(t, query.AssetFilter{LibraryID: w.lib.ID, Location: l}))
		}
		require.Equal(t, sortedIDs(paris), ids(2.3522, 48.8566, 17000))
		require.Equal(t, sortedIDs(paris, versailles), ids(2.3522, 48.8566, 18500))
		// The box around the circle holds a corner point the circle does not.
		require.Equal(t, sortedIDs(paris), ids(2.3522, 48.8566+0.2, 22300))
		require.Equal(t, sortedIDs(fijiEast, fijiWest), ids(179.9, -16.5, 100000))
		require.Equal(t, sortedIDs(fijiEast), ids(179.6, -17, 20000))
		require.Equal(t, sortedIDs(north, northToo), ids(0, 90, 60000))
		require.Equal(t, sortedIDs(paris, versailles, fijiEast, fijiWest, north, northToo), ids(0, 0, catalog.MaxRadiusM))
	}},
	{"every filter combines with the others and with paging", func(t *testing.T, s store.Store) {
		w := newAssetWorld(t, s)
		var want, trashed []string
		for i := range 6 {
			a := w.put(t, s, w.lib, wallAt(10+i, 12), atPosition(float64(i), 45), func(a *catalog.Asset) { a.UserMeta.Rating = ptr(4.0) })
			if i >= 1 && i <= 4 {
				want = append([]string{a.ID}, want...)
			}
			w.put(t, s, w.lib, wallAt(10+i, 13), atPosition(float64(i), 45)) // unrated
			w.put(t, s, w.lib, wallAt(10+i, 14), atPosition(float64(i), 45), func(a *catalog.Asset) {
				a.UserMeta.Rating, a.MediaType = ptr(5.0), catalog.MediaVideo
			})
			gone := w.put(t, s, w.lib, wallAt(10+i, 15), atPosition(float64(i), 45), func(a *catalog.Asset) {
				a.UserMeta.Rating, a.TrashedAt = ptr(5.0), ptr(at(100))
			})
			if i >= 1 && i <= 4 {
				trashed = append([]string{gone.ID}, trashed...)
			}
		}
		f := query.AssetFilter{LibraryID: w.lib.ID, MediaType: catalog.MediaImage, MinRating: ptr(4),
			Capture:  catalog.CaptureRange{After: wallBound(wallAt(11, 0)), Before: wallBound(wallAt(16, 0))},
			Location: boxOf(0.5, 40, 4.5, 50)}
		checkPaging(t, want, assetID, assetLister(t, s, f))
		f.Asc = true
		checkPaging(t, []string{want[3], want[2], want[1], want[0]}, assetID, assetLister(t, s, f))
		f.Asc, f.State = false, query.StateTrashed
		checkPaging(t, trashed, assetID, assetLister(t, s, f))
		f.State = query.StateAll
		all := []string{trashed[0], want[0], trashed[1], want[1], trashed[2], want[2], trashed[3], want[3]}
		checkPaging(t, all, assetID, assetLister(t, s, f))
	}},
}
