package storetest

import (
	"cmp"
	"slices"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/photoctl/photoctl/server/catalog"
	"github.com/photoctl/photoctl/server/query"
	"github.com/photoctl/photoctl/server/store"
)

// stackViewWorld is a library whose stacks hold live and trashed members,
// captured at the same instant as assets outside them (the id breaks those
// ties, so pages end inside stacks), with a member far from its cover, in
// an album and with a person's faces. It answers what each filter must
// list by testing every asset in Go.
type stackViewWorld struct {
	*aggWorld
	assets  []*catalog.Asset
	cover   map[string]string // the cover of an asset's stack; absent when unstacked
	trashed map[string]bool
	album   *catalog.Album
	person  *catalog.Person
	inAlbum map[string]bool
	shown   map[string]bool // holds a face of person
}

// Places of the world's assets.
var (
	svParis = []float64{2.35, 48.85}
	svTokyo = []float64{139.7, 35.7}
	svNY    = []float64{-74, 40.7}
)

func newStackViewWorld(t *testing.T, s store.Store) *stackViewWorld {
	t.Helper()
	w := &stackViewWorld{aggWorld: newAggWorld(t, s), cover: map[string]string{}, trashed: map[string]bool{},
		inAlbum: map[string]bool{}, shown: map[string]bool{}}
	tie, noon2, noon4 := wallAt(1, 10), wallAt(2, 9), wallAt(4, 0)
	w.assets = w.put(t, s,
		aggAsset{wall: tie, rating: ptr(5.0), lonLat: svParis},                        // 0 stack A
		aggAsset{wall: tie, rating: ptr(3.0), lonLat: []float64{2.351, 48.851}},       // 1 stack A, cover
		aggAsset{wall: tie, rating: ptr(1.0), lonLat: svTokyo},                        // 2 stack A: no cover in its cell
		aggAsset{wall: tie, media: catalog.MediaVideo, lonLat: svParis},               // 3
		aggAsset{wall: noon2, media: catalog.MediaVideo, rating: ptr(4.0)},            // 4 stack B
		aggAsset{wall: noon2, lonLat: svNY},                                           // 5 stack B, cover
		aggAsset{wall: noon2, lonLat: svNY},                                           // 6 stack B, trashed
		aggAsset{wall: wallAt(3, 12), rating: ptr(2.0), lonLat: svParis},              // 7
		aggAsset{wall: noon4, lonLat: svTokyo},                                        // 8 stack C, cover, trashed
		aggAsset{wall: noon4},                                                         // 9 stack C, trashed
		aggAsset{wall: wallAt(5, 8)},                                                  // 10
		aggAsset{wall: tie, lib: w.lib2, lonLat: svParis},                             // another library
		aggAsset{wall: wallAt(1, 9), rating: ptr(5.0), media: catalog.MediaVideo},     // 12
		aggAsset{wall: wallAt(1, 11), rating: ptr(3.0), lonLat: []float64{2.4, 48.8}}, // 13
	)
	a := w.assets
	stacks := []*catalog.Stack{
		putStack(t, s, a[1], 200, a[0], a[1], a[2]),
		putStack(t, s, a[5], 201, a[4], a[5], a[6]),
		putStack(t, s, a[8], 202, a[8], a[9]),
	}
	for _, st := range stacks {
		for _, id := range st.AssetIDs {
			w.cover[id] = st.CoverAssetID
		}
	}
	w.album = putAlbum(t, s, w.lib, "Trip", 210)
	link(t, s, w.album, 211, a[0], a[2], a[5], a[6], a[7])
	for _, x := range []*catalog.Asset{a[0], a[2], a[5], a[6], a[7]} {
		w.inAlbum[x.ID] = true
	}
	w.person = makePerson(t, s, w.lib.ID, "Ann", 220)
	for i, x := range []*catalog.Asset{a[0], a[3], a[5], a[9]} {
		makeFace(t, s, w.lib.ID, x.ID, &w.person.ID, 221+i)
		w.shown[x.ID] = true
	}
	setTrashed(t, s, true, a[6], a[8], a[9])
	for _, x := range []*catalog.Asset{a[6], a[8], a[9]} {
		w.trashed[x.ID] = true
	}
	for _, st := range stacks[1:] { // as the service does after trashing members
		write(t, s, func(r store.Repos) error { return r.Stacks().Update(ctx(t), st) })
	}
	return w
}

// want is what List must answer for f: the library's assets that pass f,
// collapsed (a stack's cover and its trashed members) unless f lists every
// member, in f's order.
func (w *stackViewWorld) want(f query.AssetFilter) []string {
	var out []*catalog.Asset
	for _, a := range w.assets {
		if w.passes(a, f) {
			out = append(out, a)
		}
	}
	slices.SortFunc(out, func(x, y *catalog.Asset) int {
		c := cmp.Or(x.Capture.Wall.Compare(y.Capture.Wall), strings.Compare(x.ID, y.ID))
		if !f.Asc {
			return -c
		}
		return c
	})
	return idsOf(out, func(a *catalog.Asset) string { return a.ID })
}

func (w *stackViewWorld) passes(a *catalog.Asset, f query.AssetFilter) bool {
	m := a.Merged()
	cover, stacked := w.cover[a.ID]
	switch {
	case a.LibraryID != f.LibraryID,
		(f.State == query.StateTrashed) != w.trashed[a.ID] && f.State != query.StateAll,
		stacked && !f.WithStacked && f.AlbumID == "" && cover != a.ID && !w.trashed[a.ID],
		f.MediaType != "" && a.MediaType != f.MediaType,
		f.MinRating != nil && (m.Rating == nil || *m.Rating < float64(*f.MinRating)),
		f.Capture.After != nil && a.Capture.Wall.Before(f.Capture.After.Time),
		f.Capture.Before != nil && !a.Capture.Wall.Before(f.Capture.Before.Time),
		f.AlbumID != "" && !w.inAlbum[a.ID],
		len(f.PersonIDs) > 0 && !w.shown[a.ID]:
		return false
	}
	if f.Location != nil {
		b := f.Location.Box
		return m.Longitude != nil && *m.Longitude >= b.MinLon && *m.Longitude <= b.MaxLon &&
			*m.Latitude >= b.MinLat && *m.Latitude <= b.MaxLat
	}
	return true
}

// stackViewFilters are the filters the cases combine with both views and
// both orders: every filter of the list that a stack's members can differ
// on (no location: the cases add their own).
func (w *stackViewWorld) filters() map[string]query.AssetFilter {
	lib := w.lib.ID
	return map[string]query.AssetFilter{
		"none":              {LibraryID: lib},
		"trashed":           {LibraryID: lib, State: query.StateTrashed},
		"all states":        {LibraryID: lib, State: query.StateAll},
		"images":            {LibraryID: lib, MediaType: catalog.MediaImage},
		"videos, all":       {LibraryID: lib, MediaType: catalog.MediaVideo, State: query.StateAll},
		"rated 3 or more":   {LibraryID: lib, MinRating: ptr(3)},
		"mid-day range":     {LibraryID: lib, Capture: catalog.CaptureRange{After: wallBound(wallAt(1, 10)), Before: wallBound(wallAt(3, 0))}},
		"whole-day range":   {LibraryID: lib, State: query.StateAll, Capture: catalog.CaptureRange{After: wallBound(wallAt(2, 0)), Before: wallBound(wallAt(5, 0))}},
		"album":             {LibraryID: lib, AlbumID: w.album.ID},
		"album, all states": {LibraryID: lib, AlbumID: w.album.ID, State: query.StateAll},
		"person":            {LibraryID: lib, PersonIDs: []string{w.person.ID}},
		"person, all":       {LibraryID: lib, PersonIDs: []string{w.person.ID}, State: query.StateAll},
	}
}

// views returns f in both orders of both views.
func views(f query.AssetFilter) []query.AssetFilter {
	var out []query.AssetFilter
	for _, expand := range []bool{false, true} {
		for _, asc := range []bool{false, true} {
			v := f
			v.WithStacked, v.Asc = expand, asc
			out = append(out, v)
		}
	}
	return out
}

// pageSizes are the page sizes a view is walked with: small ones, whose
// pages end inside stacks and inside ties, and one page for everything.
var pageSizes = []int{1, 2, 3, 100}

var assetStackViewCases = []testCase{
	{"an expanded list shows every member once, a collapsed one each stack once, at every page size", func(t *testing.T, s store.Store) {
		w := newStackViewWorld(t, s)
		boxes := map[string]*catalog.Location{"": nil, "world": {Box: &catalog.World},
			"paris": boxOf(2.2, 48.7, 2.5, 48.9), "tokyo": boxOf(139, 35, 140.5, 36.5)}
		for name, f := range w.filters() {
			for box, l := range boxes {
				f.Location = l
				for _, v := range views(f) {
					want := w.want(v)
					for _, n := range pageSizes {
						require.Equal(t, want, walk(t, n, len(want), assetID, assetLister(t, s, v)),
							"%s %s, expanded %v, ascending %v, limit %d", name, box, v.WithStacked, v.Asc, n)
					}
				}
			}
		}
		// The member away from its cover is a cell of its own for the
		// expanded list: a list of covers (geo_cells) does not know it.
		a := w.assets
		f := query.AssetFilter{LibraryID: w.lib.ID, Location: boxOf(139, 35, 140.5, 36.5), WithStacked: true}
		require.Equal(t, []string{a[2].ID}, timeline(t, s, f))
	}},
	{"every member reads its stack's cover; unstacked assets read none", func(t *testing.T, s store.Store) {
		w := newStackViewWorld(t, s)
		items := timeline(t, s, query.AssetFilter{LibraryID: w.lib.ID, State: query.StateAll, WithStacked: true})
		require.Len(t, items, len(w.assets)-1)
		got, err := s.Read().Assets().GetMany(ctx(t), items)
		require.NoError(t, err)
		for _, a := range got {
			require.Equal(t, w.cover[a.ID], a.StackCoverID, "asset %s", a.ID)
		}
		one, err := s.Read().Assets().Get(ctx(t), w.assets[0].ID)
		require.NoError(t, err)
		require.Equal(t, w.assets[1].ID, one.StackCoverID)
	}},
	{"counts of either view add up to the rows that view lists", func(t *testing.T, s store.Store) {
		w := newStackViewWorld(t, s)
		for name, f := range w.filters() {
			for _, l := range []*catalog.Location{nil, boxOf(2.2, 48.7, 2.5, 48.9)} {
				f.Location = l
				for _, v := range views(f) {
					for _, b := range []query.CountBucket{query.BucketDay, query.BucketMonth} {
						got := counts(t, s, v, b)
						require.Equal(t, listedBuckets(t, s, v, b), got, "%s, expanded %v, %s", name, v.WithStacked, b)
						var sum int64
						for _, c := range got {
							sum += c.Count
						}
						require.EqualValues(t, len(w.want(v)), sum, "%s, expanded %v, %s", name, v.WithStacked, b)
					}
				}
			}
		}
	}},
	{"geo clusters of either view count the located rows that view lists", func(t *testing.T, s store.Store) {
		w := newStackViewWorld(t, s)
		for name, f := range w.filters() {
			for _, v := range views(f) {
				v.Asc = false
				v.Location = &catalog.Location{Box: &catalog.World}
				listed := w.want(v)
				for _, size := range []float64{10, 1, 0.1, 0.37} {
					var sum int64
					for _, c := range clusters(t, s, v, catalog.World, size) {
						sum += c.Count
						require.Contains(t, listed, c.RepresentativeID, "%s, expanded %v, cell %v", name, v.WithStacked, size)
					}
					require.EqualValues(t, len(listed), sum, "%s, expanded %v, cell %v", name, v.WithStacked, size)
				}
			}
		}
		// Tokyo holds a member alone, and a trashed cover.
		f := query.AssetFilter{LibraryID: w.lib.ID}
		tokyo := catalog.BBox{MinLon: 139, MinLat: 35, MaxLon: 141, MaxLat: 37}
		require.Empty(t, clusters(t, s, f, tokyo, 1))
		f.WithStacked = true
		requireClusters(t, []query.GeoCluster{gc(svTokyo[0], svTokyo[1], 1, w.assets[2])}, clusters(t, s, f, tokyo, 1))
	}},
}
