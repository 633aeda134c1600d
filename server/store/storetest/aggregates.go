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

// aggWorld is a user with two libraries whose assets the aggregate cases
// count and cluster.
type aggWorld struct {
	user      *catalog.User
	lib, lib2 *catalog.Library
	n         int
}

func newAggWorld(t *testing.T, s store.Store) *aggWorld {
	t.Helper()
	u := makeUser(t, s, "agg@example.com")
	return &aggWorld{user: u, lib: makeLibrary(t, s, u.ID, "Family", 0), lib2: makeLibrary(t, s, u.ID, "Work", 1)}
}

// aggAsset describes one asset: its wall-clock capture time and what the
// filters look at. lonLat is nil for an asset without coordinates.
type aggAsset struct {
	lib    *catalog.Library
	wall   time.Time
	offset *int
	media  catalog.MediaType
	rating *float64
	lonLat []float64
}

// put saves the assets in one transaction, in order (ids grow with it).
func (w *aggWorld) put(t *testing.T, s store.Store, specs ...aggAsset) []*catalog.Asset {
	t.Helper()
	out := make([]*catalog.Asset, len(specs))
	for i, sp := range specs {
		w.n++
		lib, media := sp.lib, sp.media
		if lib == nil {
			lib = w.lib
		}
		if media == "" {
			media = catalog.MediaImage
		}
		sum := sha256.Sum256([]byte(fmt.Sprint("aggregates", w.n)))
		created := at(w.n)
		a := &catalog.Asset{ID: catalog.NewID(catalog.PrefixAsset, created), LibraryID: lib.ID,
			ContributorID: w.user.ID, MediaType: media, MIMEType: "image/jpeg", OriginalFileName: "a.jpg",
			FileCreatedAt: created, FileModifiedAt: created, Capture: catalog.CaptureTime{Wall: sp.wall, Offset: sp.offset},
			Checksum: sum[:], OriginalSize: 1, FileSizeBytes: 1, Metrics: map[string]any{}, CreatedAt: created,
			UpdatedAt: created}
		a.FileMeta.Rating = sp.rating
		if sp.lonLat != nil {
			a.FileMeta.Longitude, a.FileMeta.Latitude = &sp.lonLat[0], &sp.lonLat[1]
		}
		out[i] = a
	}
	write(t, s, func(r store.Repos) error {
		for _, a := range out {
			if err := r.Assets().Create(ctx(t), a); err != nil {
				return err
			}
		}
		return nil
	})
	return out
}

// update saves edited assets.
func updateAssets(t *testing.T, s store.Store, assets ...*catalog.Asset) {
	t.Helper()
	write(t, s, func(r store.Repos) error {
		for _, a := range assets {
			a.UpdatedAt = a.UpdatedAt.Add(time.Minute)
			if err := r.Assets().Update(ctx(t), a); err != nil {
				return err
			}
		}
		return nil
	})
}

// day is midnight UTC of a date.
func day(y int, m time.Month, d int) time.Time { return time.Date(y, m, d, 0, 0, 0, 0, time.UTC) }

// bc is a bucket as the cases write it: "2024-01-15:3".
func bc(start time.Time, n int64) query.BucketCount { return query.BucketCount{Start: start, Count: n} }

// counts asks for every bucket of a filter on one page.
func counts(t *testing.T, s store.Store, f query.AssetFilter, b query.CountBucket) []query.BucketCount {
	t.Helper()
	got, more, err := s.Read().AssetAggregates().Counts(ctx(t), query.CountsQuery{Filter: f, Bucket: b, Limit: 1000})
	require.NoError(t, err)
	require.False(t, more)
	return got
}

// listedBuckets counts per bucket what List returns for the filter: what
// counts must answer whichever way the store finds it.
func listedBuckets(t *testing.T, s store.Store, f query.AssetFilter, b query.CountBucket) []query.BucketCount {
	t.Helper()
	items, more, err := s.Read().Assets().List(ctx(t), f, query.Page{Limit: 1000})
	require.NoError(t, err)
	require.False(t, more)
	var out []query.BucketCount
	for _, a := range items {
		start := b.Start(a.Capture.Wall)
		if n := len(out); n > 0 && out[n-1].Start.Equal(start) {
			out[n-1].Count++
			continue
		}
		out = append(out, bc(start, 1))
	}
	return out
}

// countsWorld holds assets on five days, one before 1970, beside assets
// that no live count of w.lib shows.
func countsWorld(t *testing.T, s store.Store) (*aggWorld, []*catalog.Asset) {
	w := newAggWorld(t, s)
	plus2 := 7200
	assets := w.put(t, s,
		// The wall-clock date counts, not the instant (2023-12-31 21:30 UTC).
		aggAsset{wall: time.Date(2023, 12, 31, 23, 30, 0, 0, time.UTC), offset: &plus2},
		aggAsset{wall: time.Date(2024, 1, 1, 0, 10, 0, 0, time.UTC)},
		aggAsset{wall: time.Date(2024, 1, 1, 10, 0, 0, 0, time.UTC), media: catalog.MediaVideo},
		aggAsset{wall: time.Date(2024, 1, 15, 12, 0, 0, 0, time.UTC), rating: ptr(4.0)},
		aggAsset{wall: time.Date(2024, 3, 2, 8, 0, 0, 0, time.UTC), rating: ptr(2.0)},
		aggAsset{wall: time.Date(1969, 12, 31, 23, 59, 59, 999999000, time.UTC)},
		aggAsset{wall: time.Date(2024, 1, 1, 12, 0, 0, 0, time.UTC), lib: w.lib2},
		aggAsset{wall: time.Date(2024, 2, 1, 12, 0, 0, 0, time.UTC)},
	)
	setTrashed(t, s, true, assets[7])
	return w, assets
}

// aggregateCases are the cases of AssetAggregates: counts, then clusters.
var aggregateCases = slices.Concat(aggregateCountCases, aggregateClusterCases)

var aggregateCountCases = []testCase{
	{"counts bucket a library's live assets by wall-clock day, month and year, newest first", func(t *testing.T, s store.Store) {
		w, _ := countsWorld(t, s)
		f := query.AssetFilter{LibraryID: w.lib.ID}
		require.Equal(t, []query.BucketCount{bc(day(2024, 3, 2), 1), bc(day(2024, 1, 15), 1), bc(day(2024, 1, 1), 2),
			bc(day(2023, 12, 31), 1), bc(day(1969, 12, 31), 1)}, counts(t, s, f, query.BucketDay))
		require.Equal(t, []query.BucketCount{bc(day(2024, 3, 1), 1), bc(day(2024, 1, 1), 3), bc(day(2023, 12, 1), 1),
			bc(day(1969, 12, 1), 1)}, counts(t, s, f, query.BucketMonth))
		require.Equal(t, []query.BucketCount{bc(day(2024, 1, 1), 4), bc(day(2023, 1, 1), 1), bc(day(1969, 1, 1), 1)},
			counts(t, s, f, query.BucketYear))
		f.Asc = true
		require.Equal(t, []query.BucketCount{bc(day(1969, 1, 1), 1), bc(day(2023, 1, 1), 1), bc(day(2024, 1, 1), 4)},
			counts(t, s, f, query.BucketYear))
		require.Equal(t, []query.BucketCount{bc(day(2024, 1, 1), 1)},
			counts(t, s, query.AssetFilter{LibraryID: w.lib2.ID}, query.BucketDay))
	}},
	{"counts page after a bucket in either order and say whether more follow", func(t *testing.T, s store.Store) {
		w, _ := countsWorld(t, s)
		agg := s.Read().AssetAggregates()
		page := func(asc bool, after *time.Time, limit int) ([]query.BucketCount, bool) {
			t.Helper()
			got, more, err := agg.Counts(ctx(t), query.CountsQuery{Filter: query.AssetFilter{LibraryID: w.lib.ID, Asc: asc},
				Bucket: query.BucketMonth, After: after, Limit: limit})
			require.NoError(t, err)
			return got, more
		}
		got, more := page(false, nil, 2)
		require.Equal(t, []query.BucketCount{bc(day(2024, 3, 1), 1), bc(day(2024, 1, 1), 3)}, got)
		require.True(t, more)
		got, more = page(false, &got[1].Start, 2)
		require.Equal(t, []query.BucketCount{bc(day(2023, 12, 1), 1), bc(day(1969, 12, 1), 1)}, got)
		require.False(t, more, "a page that ends exactly at the last bucket has no more")
		got, more = page(true, nil, 3)
		require.Equal(t, []query.BucketCount{bc(day(1969, 12, 1), 1), bc(day(2023, 12, 1), 1), bc(day(2024, 1, 1), 3)}, got)
		require.True(t, more)
		got, more = page(true, &got[2].Start, 3)
		require.Equal(t, []query.BucketCount{bc(day(2024, 3, 1), 1)}, got)
		require.False(t, more)
		got, more = page(true, ptr(day(2024, 3, 1)), 3)
		require.Empty(t, got)
		require.False(t, more)
		_, _, err := agg.Counts(ctx(t), query.CountsQuery{Filter: query.AssetFilter{LibraryID: w.lib.ID},
			Bucket: query.BucketDay})
		require.Error(t, err, "a limit below 1 is an error")
	}},
	{"trashed assets count only in the trashed and all states", func(t *testing.T, s store.Store) {
		w, assets := countsWorld(t, s)
		f := query.AssetFilter{LibraryID: w.lib.ID, State: query.StateTrashed}
		require.Equal(t, []query.BucketCount{bc(day(2024, 2, 1), 1)}, counts(t, s, f, query.BucketDay))
		f.State = query.StateAll
		require.Equal(t, []query.BucketCount{bc(day(2024, 1, 1), 5)}, counts(t, s, f, query.BucketYear)[:1])
		setTrashed(t, s, true, assets[1], assets[2])
		require.Equal(t, []query.BucketCount{bc(day(2024, 2, 1), 1), bc(day(2024, 1, 1), 2)},
			counts(t, s, query.AssetFilter{LibraryID: w.lib.ID, State: query.StateTrashed}, query.BucketDay))
		require.Equal(t, []query.BucketCount{bc(day(2024, 1, 1), 2)},
			counts(t, s, query.AssetFilter{LibraryID: w.lib.ID}, query.BucketYear)[:1])
		setTrashed(t, s, false, assets[1], assets[7])
		write(t, s, func(r store.Repos) error { return r.Assets().Delete(ctx(t), []string{assets[2].ID, assets[4].ID}) })
		require.Equal(t, []query.BucketCount{bc(day(2024, 2, 1), 1), bc(day(2024, 1, 15), 1), bc(day(2024, 1, 1), 1),
			bc(day(2023, 12, 31), 1), bc(day(1969, 12, 31), 1)}, counts(t, s, query.AssetFilter{LibraryID: w.lib.ID}, query.BucketDay))
		require.Empty(t, counts(t, s, query.AssetFilter{LibraryID: w.lib.ID, State: query.StateTrashed}, query.BucketDay))
	}},
	{"counts follow edits of capture time, media type and rating", func(t *testing.T, s store.Store) {
		w, assets := countsWorld(t, s)
		assets[1].Capture.Wall = time.Date(2024, 1, 2, 9, 0, 0, 0, time.UTC)
		assets[3].MediaType = catalog.MediaVideo
		assets[4].UserMeta.Rating = ptr(5.0)
		updateAssets(t, s, assets[1], assets[3], assets[4])
		f := query.AssetFilter{LibraryID: w.lib.ID, Asc: true}
		require.Equal(t, []query.BucketCount{bc(day(1969, 12, 31), 1), bc(day(2023, 12, 31), 1), bc(day(2024, 1, 1), 1),
			bc(day(2024, 1, 2), 1), bc(day(2024, 1, 15), 1), bc(day(2024, 3, 2), 1)}, counts(t, s, f, query.BucketDay))
		f.MediaType = catalog.MediaVideo
		require.Equal(t, []query.BucketCount{bc(day(2024, 1, 1), 1), bc(day(2024, 1, 15), 1)}, counts(t, s, f, query.BucketDay))
		f.MediaType, f.MinRating = "", ptr(3)
		require.Equal(t, []query.BucketCount{bc(day(2024, 1, 15), 1), bc(day(2024, 3, 2), 1)}, counts(t, s, f, query.BucketDay))
		f.MinRating = ptr(5)
		require.Equal(t, []query.BucketCount{bc(day(2024, 3, 1), 1)}, counts(t, s, f, query.BucketMonth))
	}},
	{"counts take every list filter and agree with the list", func(t *testing.T, s store.Store) {
		w := newAggWorld(t, s)
		var specs []aggAsset
		places := [][]float64{{2.35, 48.85}, {-74, 40.7}, {179.5, -17}, {-179.5, -17.5}, nil, {139.7, 35.7}}
		for i := range 48 {
			sp := aggAsset{wall: time.Date(2022+i/5%3, time.Month(1+i%5), 1+i%3, i%24, 30, 0, 0, time.UTC),
				lonLat: places[i%len(places)]}
			if i%4 == 0 {
				sp.offset = ptr(3600 * (i%13 - 6))
			}
			if i%7 == 0 {
				sp.media = catalog.MediaVideo
			}
			if i%3 == 0 {
				sp.rating = ptr(float64(i % 6))
			}
			specs = append(specs, sp)
		}
		w.put(t, s, specs...)
		paris, crossing := catalog.BBox{MinLon: 2, MinLat: 48, MaxLon: 3, MaxLat: 49}, catalog.BBox{MinLon: 170, MinLat: -30, MaxLon: -170, MaxLat: 0}
		bound := func(tm time.Time, offset bool) *catalog.TimeBound {
			return &catalog.TimeBound{Time: tm, HasOffset: offset}
		}
		filters := []query.AssetFilter{
			{MediaType: catalog.MediaVideo},
			{MinRating: ptr(2)},
			{MinRating: ptr(-1)},
			{Capture: catalog.CaptureRange{After: bound(day(2024, 2, 1), false), Before: bound(day(2024, 4, 1), false)}},
			{Capture: catalog.CaptureRange{After: bound(time.Date(2024, 2, 2, 10, 0, 0, 0, time.UTC), false)}},
			{Capture: catalog.CaptureRange{Before: bound(time.Date(2024, 3, 1, 5, 0, 0, 0, time.UTC), true), Absolute: true}},
			{Location: &catalog.Location{Box: &paris}},
			{Location: &catalog.Location{Box: &crossing}, MediaType: catalog.MediaImage},
			{Location: &catalog.Location{Box: &catalog.World}},
			{Location: &catalog.Location{Circle: &catalog.Circle{Lon: 180, Lat: -17, RadiusM: 100_000}}},
			{State: query.StateAll, Location: &catalog.Location{Circle: &catalog.Circle{Lon: 2.3, Lat: 48.8, RadiusM: 20_000}}},
		}
		for i, f := range filters {
			f.LibraryID = w.lib.ID
			for _, asc := range []bool{false, true} {
				f.Asc = asc
				for _, b := range []query.CountBucket{query.BucketDay, query.BucketMonth, query.BucketYear} {
					want := listedBuckets(t, s, f, b)
					require.NotEmpty(t, want, "filter %d", i)
					require.Equal(t, want, counts(t, s, f, b), "filter %d, %s", i, b)
				}
			}
		}
	}},
}
