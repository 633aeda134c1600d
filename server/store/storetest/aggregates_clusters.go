package storetest

import (
	"errors"
	"math"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/photoctl/photoctl/server/catalog"
	"github.com/photoctl/photoctl/server/query"
	"github.com/photoctl/photoctl/server/store"
)

// clusters asks for the clusters of a viewport with no cap to speak of.
func clusters(t *testing.T, s store.Store, f query.AssetFilter, box catalog.BBox, cell float64) []query.GeoCluster {
	t.Helper()
	f.Location = &catalog.Location{Box: &box}
	got, err := s.Read().AssetAggregates().GeoClusters(ctx(t), query.ClusterQuery{Filter: f, CellSize: cell, MaxCells: 1000})
	require.NoError(t, err)
	return got
}

// gc is a cluster as the cases expect it; positions are compared to 1e-6
// degree (they are stored to 1e-7).
func gc(lon, lat float64, n int64, rep *catalog.Asset) query.GeoCluster {
	return query.GeoCluster{Longitude: lon, Latitude: lat, Count: n, RepresentativeID: rep.ID}
}

func requireClusters(t *testing.T, want, got []query.GeoCluster, msgAndArgs ...any) {
	t.Helper()
	require.Len(t, got, len(want), msgAndArgs...)
	for i := range want {
		require.InDelta(t, want[i].Longitude, got[i].Longitude, 1e-6, msgAndArgs...)
		require.InDelta(t, want[i].Latitude, got[i].Latitude, 1e-6, msgAndArgs...)
		require.Equal(t, want[i].Count, got[i].Count, msgAndArgs...)
		require.Equal(t, want[i].RepresentativeID, got[i].RepresentativeID, msgAndArgs...)
	}
}

// clusterSizes are cell sizes that the 1°, 0.1° and 0.01° levels of a
// maintained grid tile, and ones that no level tiles (0.013, 2.34567).
var clusterSizes = []float64{10, 1, 0.5, 0.1, 0.05, 0.01, 7, 0.37, 0.013, 2.34567}

var aggregateClusterCases = []testCase{
	{"geo clusters put each shown, located asset in one grid cell with its mean position and greatest id", func(t *testing.T, s store.Store) {
		w := newAggWorld(t, s)
		wall := day(2024, 5, 1)
		a := w.put(t, s,
			aggAsset{wall: wall, lonLat: []float64{2.3522, 48.8566}},
			aggAsset{wall: wall, lonLat: []float64{2.3533, 48.8577}, media: catalog.MediaVideo},
			aggAsset{wall: wall, lonLat: []float64{-74.006, 40.7128}},
			aggAsset{wall: wall},
			aggAsset{wall: wall, lonLat: []float64{2.3544, 48.8588}},
			aggAsset{wall: wall, lonLat: []float64{2.3555, 48.8599}, lib: w.lib2},
		)
		setTrashed(t, s, true, a[4])
		f := query.AssetFilter{LibraryID: w.lib.ID}
		for _, size := range clusterSizes {
			// Rows from south to north, then west to east: New York is
			// south of Paris, or in the same row (10°) and west of it.
			want := []query.GeoCluster{gc(-74.006, 40.7128, 1, a[2]), gc(2.35275, 48.85715, 2, a[1])}
			requireClusters(t, want, clusters(t, s, f, catalog.World, size), "cell %v", size)
			requireClusters(t, want, clusters(t, s, f, catalog.BBox{MinLon: -80, MinLat: 40, MaxLon: 3, MaxLat: 49}, size),
				"cell %v", size)
		}
		f.State = query.StateTrashed
		requireClusters(t, []query.GeoCluster{gc(2.3544, 48.8588, 1, a[4])}, clusters(t, s, f, catalog.World, 1))
		f.State = query.StateAll
		requireClusters(t, []query.GeoCluster{gc(2.3533, 48.8577, 3, a[4])},
			clusters(t, s, f, catalog.BBox{MinLon: 0, MinLat: 45, MaxLon: 5, MaxLat: 50}, 0.1))
		f.State, f.MediaType = "", catalog.MediaImage
		requireClusters(t, []query.GeoCluster{gc(-74.006, 40.7128, 1, a[2]), gc(2.3522, 48.8566, 1, a[0])},
			clusters(t, s, f, catalog.World, 1))
		f.MediaType = ""
		require.Empty(t, clusters(t, s, f, catalog.BBox{MinLon: 10, MinLat: 10, MaxLon: 20, MaxLat: 20}, 1))
		requireClusters(t, []query.GeoCluster{gc(2.3555, 48.8599, 1, a[5])},
			clusters(t, s, query.AssetFilter{LibraryID: w.lib2.ID}, catalog.World, 5))
	}},
	{"geo clusters keep to the viewport's edges exactly as the list does", func(t *testing.T, s store.Store) {
		w := newAggWorld(t, s)
		wall := day(2024, 5, 1)
		a := w.put(t, s,
			aggAsset{wall: wall, lonLat: []float64{10, 20}},       // on the south-west corner
			aggAsset{wall: wall, lonLat: []float64{12, 22}},       // on the north-east corner
			aggAsset{wall: wall, lonLat: []float64{11.5, 21.5}},   // inside
			aggAsset{wall: wall, lonLat: []float64{9.99999, 21}},  // just west
			aggAsset{wall: wall, lonLat: []float64{11, 22.00001}}, // just north
			aggAsset{wall: wall, lonLat: []float64{-180, 0}},
			aggAsset{wall: wall, lonLat: []float64{180, 90}},
			aggAsset{wall: wall, lonLat: []float64{0, -90}},
		)
		f := query.AssetFilter{LibraryID: w.lib.ID}
		box := catalog.BBox{MinLon: 10, MinLat: 20, MaxLon: 12, MaxLat: 22}
		for _, size := range clusterSizes {
			got := clusters(t, s, f, box, size)
			var total int64
			for _, c := range got {
				total += c.Count
			}
			require.EqualValues(t, 3, total, "cell %v", size)
			got = clusters(t, s, f, catalog.World, size)
			total = 0
			for _, c := range got {
				total += c.Count
			}
			require.EqualValues(t, len(a), total, "the world holds every located asset (cell %v)", size)
		}
	}},
	{"a viewport crossing the antimeridian is one band ordered east from its west edge", func(t *testing.T, s store.Store) {
		w := newAggWorld(t, s)
		wall := day(2024, 5, 1)
		a := w.put(t, s,
			aggAsset{wall: wall, lonLat: []float64{-170, 1}},
			aggAsset{wall: wall, lonLat: []float64{175, 1}},
			aggAsset{wall: wall, lonLat: []float64{178, 1}},
			aggAsset{wall: wall, lonLat: []float64{-178.5, 1}},
			aggAsset{wall: wall, lonLat: []float64{0, 1}},
		)
		f := query.AssetFilter{LibraryID: w.lib.ID}
		box := catalog.BBox{MinLon: 170, MinLat: -10, MaxLon: -160, MaxLat: 10}
		// 7° cells from the grid line at 170: [170, 177), [177, -176), [-176, -169).
		requireClusters(t, []query.GeoCluster{gc(175, 1, 1, a[1]), gc(179.75, 1, 2, a[3]), gc(-170, 1, 1, a[0])},
			clusters(t, s, f, box, 7))
		// 1° cells come from a maintained grid where one is kept.
		requireClusters(t, []query.GeoCluster{gc(175, 1, 1, a[1]), gc(178, 1, 1, a[2]), gc(-178.5, 1, 1, a[3]),
			gc(-170, 1, 1, a[0])}, clusters(t, s, f, box, 1))
		f.MediaType = catalog.MediaImage
		requireClusters(t, []query.GeoCluster{gc(175, 1, 1, a[1]), gc(178, 1, 1, a[2]), gc(-178.5, 1, 1, a[3]),
			gc(-170, 1, 1, a[0])}, clusters(t, s, f, box, 1))
	}},
	{"more non-empty cells than the cap is a TooManyCellsError, never a partial answer", func(t *testing.T, s store.Store) {
		w := newAggWorld(t, s)
		wall := day(2024, 5, 1)
		w.put(t, s,
			aggAsset{wall: wall, lonLat: []float64{10.5, 10.5}},
			aggAsset{wall: wall, lonLat: []float64{11.5, 10.5}},
			aggAsset{wall: wall, lonLat: []float64{12.5, 10.5}},
			aggAsset{wall: wall, lonLat: []float64{12.6, 10.6}},
		)
		box := catalog.BBox{MinLon: 0, MinLat: 0, MaxLon: 20, MaxLat: 20}
		for _, media := range []catalog.MediaType{"", catalog.MediaImage} { // maintained cells, then the assets
			f := query.AssetFilter{LibraryID: w.lib.ID, MediaType: media, Location: &catalog.Location{Box: &box}}
			got, err := s.Read().AssetAggregates().GeoClusters(ctx(t), query.ClusterQuery{Filter: f, CellSize: 1, MaxCells: 2})
			var tooMany *query.TooManyCellsError
			require.True(t, errors.As(err, &tooMany), "want a TooManyCellsError, got %v", err)
			require.Equal(t, 2, tooMany.Max)
			require.Nil(t, got)
			got, err = s.Read().AssetAggregates().GeoClusters(ctx(t), query.ClusterQuery{Filter: f, CellSize: 1, MaxCells: 3})
			require.NoError(t, err)
			require.Len(t, got, 3)
		}
	}},
	{"geo clusters follow moves, trash, restore and delete, and find new representatives", func(t *testing.T, s store.Store) {
		w := newAggWorld(t, s)
		wall := day(2024, 5, 1)
		a := w.put(t, s,
			// In one cell of every grid of clusterSizes.
			aggAsset{wall: wall, lonLat: []float64{5.0045, 5.0045}},
			aggAsset{wall: wall, lonLat: []float64{5.0055, 5.0055}},
			aggAsset{wall: wall, lonLat: []float64{5.0065, 5.0065}},
			aggAsset{wall: wall, lonLat: []float64{5.0075, 5.0075}},
		)
		f := query.AssetFilter{LibraryID: w.lib.ID}
		box := catalog.BBox{MinLon: 0, MinLat: 0, MaxLon: 10, MaxLat: 10}
		check := func(want []query.GeoCluster, what string) {
			t.Helper()
			for _, size := range clusterSizes {
				requireClusters(t, want, clusters(t, s, f, box, size), "%s, cell %v", what, size)
			}
		}
		check([]query.GeoCluster{gc(5.006, 5.006, 4, a[3])}, "four")
		setTrashed(t, s, true, a[3], a[2])
		check([]query.GeoCluster{gc(5.005, 5.005, 2, a[1])}, "the two latest trashed")
		setTrashed(t, s, false, a[2])
		check([]query.GeoCluster{gc(5.0055, 5.0055, 3, a[2])}, "one restored")
		a[2].UserMeta.Longitude, a[2].UserMeta.Latitude = ptr(-50.0), ptr(-50.0)
		a[1].UserMeta.Longitude, a[1].UserMeta.Latitude = ptr(5.007), ptr(5.007)
		updateAssets(t, s, a[2], a[1])
		check([]query.GeoCluster{gc(5.00575, 5.00575, 2, a[1])}, "the representative moved away, another within its cell")
		write(t, s, func(r store.Repos) error { return r.Assets().Delete(ctx(t), []string{a[1].ID}) })
		check([]query.GeoCluster{gc(5.0045, 5.0045, 1, a[0])}, "the representative deleted")
		write(t, s, func(r store.Repos) error { return r.Assets().Delete(ctx(t), []string{a[0].ID}) })
		check(nil, "none left")
		requireClusters(t, []query.GeoCluster{gc(-50, -50, 1, a[2])}, clusters(t, s, f, catalog.World, 2))
	}},
	{"counts and clusters show a stack by its cover, and follow cover changes and trash", func(t *testing.T, s store.Store) {
		w := newAggWorld(t, s)
		a := w.put(t, s,
			aggAsset{wall: day(2024, 5, 1), lonLat: []float64{10.1, 10.1}},
			aggAsset{wall: day(2024, 5, 2), lonLat: []float64{10.2, 10.2}},
			aggAsset{wall: day(2024, 5, 3), lonLat: []float64{10.3, 10.3}},
			aggAsset{wall: day(2024, 5, 4), lonLat: []float64{10.4, 10.4}},
		)
		f := query.AssetFilter{LibraryID: w.lib.ID, Asc: true}
		box := catalog.BBox{MinLon: 0, MinLat: 0, MaxLon: 20, MaxLat: 20}
		check := func(days []query.BucketCount, cluster query.GeoCluster, what string) {
			t.Helper()
			require.Equal(t, days, counts(t, s, f, query.BucketDay), what)
			for _, size := range []float64{1, 2.34567} { // maintained cells, then the assets
				requireClusters(t, []query.GeoCluster{cluster}, clusters(t, s, f, box, size), "%s, cell %v", what, size)
			}
		}
		st := putStack(t, s, a[1], 10, a[0], a[1], a[2])
		check([]query.BucketCount{bc(day(2024, 5, 2), 1), bc(day(2024, 5, 4), 1)}, gc(10.3, 10.3, 2, a[3]), "stacked")
		st.CoverAssetID, st.UpdatedAt = a[0].ID, at(11)
		write(t, s, func(r store.Repos) error { return r.Stacks().Update(ctx(t), st) })
		check([]query.BucketCount{bc(day(2024, 5, 1), 1), bc(day(2024, 5, 4), 1)}, gc(10.25, 10.25, 2, a[3]), "new cover")
		setTrashed(t, s, true, a[3])
		check([]query.BucketCount{bc(day(2024, 5, 1), 1)}, gc(10.1, 10.1, 1, a[0]), "the lone asset trashed")
		write(t, s, func(r store.Repos) error { return r.Stacks().Delete(ctx(t), st.ID) })
		check([]query.BucketCount{bc(day(2024, 5, 1), 1), bc(day(2024, 5, 2), 1), bc(day(2024, 5, 3), 1)},
			gc(10.2, 10.2, 3, a[2]), "unstacked")
	}},
	{"a cluster's position is the exact mean, even far from the cell's centre", func(t *testing.T, s store.Store) {
		w := newAggWorld(t, s)
		var specs []aggAsset
		var sumLon, sumLat float64
		for i := range 10 {
			lon, lat := -0.99+0.0999*float64(i), 0.001*math.Pow(2, float64(i%5))
			sumLon, sumLat = sumLon+lon, sumLat+lat
			specs = append(specs, aggAsset{wall: time.Date(2024, 5, 1, i, 0, 0, 0, time.UTC), lonLat: []float64{lon, lat}})
		}
		a := w.put(t, s, specs...)
		f := query.AssetFilter{LibraryID: w.lib.ID}
		want := []query.GeoCluster{gc(sumLon/10, sumLat/10, 10, a[9])}
		for _, size := range []float64{1, 3, 9} {
			requireClusters(t, want, clusters(t, s, f, catalog.BBox{MinLon: -1, MinLat: 0, MaxLon: 0, MaxLat: 0.5}, size),
				"cell %v", size)
			requireClusters(t, want, clusters(t, s, f, catalog.World, size), "world, cell %v", size)
		}
	}},
}
