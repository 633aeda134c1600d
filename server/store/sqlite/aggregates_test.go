package sqlite

import (
	"context"
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/photoctl/photoctl/server/catalog"
	"github.com/photoctl/photoctl/server/store"
	"github.com/photoctl/photoctl/server/store/geogrid"
)

// TestAggregatesFollowWrites compares the maintained tables with the same
// aggregates computed from scratch after random writes of every kind.
func TestAggregatesFollowWrites(t *testing.T) {
	f := newAggFixture(t)
	seedRandom(t, f, rand.New(rand.NewPCG(1, 2)), 2000)
	for _, c := range []struct{ maintained, fresh string }{
		{`SELECT library_id, live, day, media_type, rating, count FROM asset_day_counts`,
			`SELECT library_id, live, ` + sqlDay + `, media_type, coalesce(rating, -1), count(*)
			FROM assets a WHERE stack_cover = 1 GROUP BY 1, 2, 3, 4, 5`},
		{`SELECT library_id, live, units, cx, cy, count, sum_x, sum_y, rep_id FROM geo_cells`,
			`SELECT library_id, live, units, x / units, y / units, count(*), sum(x), sum(y), max(id)
			FROM (SELECT a.library_id, a.live, a.id, l.units, ` + sqlX + ` AS x, ` + sqlY + ` AS y
			FROM assets a, geo_levels l WHERE a.stack_cover = 1 AND a.latitude IS NOT NULL)
			GROUP BY 1, 2, 3, 4, 5`},
	} {
		got, want := tableRows(t, f.db, c.maintained), tableRows(t, f.db, c.fresh)
		require.NotEmpty(t, want)
		require.ElementsMatch(t, want, got)
	}
	var levels []int64
	rows, err := f.db.reader.Query(`SELECT units FROM geo_levels ORDER BY units DESC`)
	require.NoError(t, err)
	for rows.Next() {
		var u int64
		require.NoError(t, rows.Scan(&u))
		levels = append(levels, u)
	}
	require.Equal(t, geogrid.Levels, levels, "geogrid.Levels must list the table geo_levels")
}

func tableRows(t *testing.T, db *DB, query string) []string {
	t.Helper()
	rows, err := db.reader.Query(query)
	require.NoError(t, err)
	defer rows.Close()
	cols, err := rows.Columns()
	require.NoError(t, err)
	var out []string
	for rows.Next() {
		vals := make([]any, len(cols))
		ptrs := make([]any, len(cols))
		for i := range vals {
			ptrs[i] = &vals[i]
		}
		require.NoError(t, rows.Scan(ptrs...))
		out = append(out, fmt.Sprint(vals...))
	}
	require.NoError(t, rows.Err())
	return out
}

// TestCountsPathsAgree asks random countable queries of both paths.
func TestCountsPathsAgree(t *testing.T) {
	f := newAggFixture(t)
	rng := rand.New(rand.NewPCG(3, 4))
	seedRandom(t, f, rng, 2000)
	ctx := context.Background()
	agg := aggregates{f.db.reader}
	nonEmpty := 0
	for i := range 300 {
		q := store.CountsQuery{Filter: randomFilter(f, rng), Bucket: []store.CountBucket{store.BucketDay,
			store.BucketMonth, store.BucketYear}[rng.IntN(3)], Limit: 1 + rng.IntN(60)}
		if rng.IntN(3) == 0 {
			day := time.Date(2018+rng.IntN(7), time.Month(1+rng.IntN(12)), 1+rng.IntN(28), 0, 0, 0, 0, time.UTC)
			after := q.Bucket.Start(day)
			q.After = &after
		}
		require.True(t, dayCountable(q.Filter))
		want, wantMore, err := agg.counts(ctx, q, pathAssets)
		require.NoError(t, err)
		got, gotMore, err := agg.counts(ctx, q, pathTable)
		require.NoError(t, err)
		require.Equal(t, want, got, "query %d: %+v", i, q)
		require.Equal(t, wantMore, gotMore)
		if len(want) > 0 {
			nonEmpty++
		}
		auto, _, err := agg.Counts(ctx, q)
		require.NoError(t, err)
		require.Equal(t, want, auto)
	}
	require.Greater(t, nonEmpty, 200)
}

// randomFilter is a filter both paths of counts can answer.
func randomFilter(f *aggFixture, rng *rand.Rand) store.AssetFilter {
	flt := store.AssetFilter{LibraryID: f.lib, State: []store.AssetState{"", store.StateLive, store.StateTrashed,
		store.StateAll}[rng.IntN(4)], Asc: rng.IntN(2) == 0}
	if rng.IntN(5) == 0 {
		flt.LibraryID = f.lib2
	}
	if rng.IntN(3) == 0 {
		flt.MediaType = []catalog.MediaType{catalog.MediaImage, catalog.MediaVideo}[rng.IntN(2)]
	}
	if rng.IntN(3) == 0 {
		n := rng.IntN(6)
		flt.MinRating = &n
	}
	if rng.IntN(2) == 0 {
		lo := time.Date(2017+rng.IntN(8), time.Month(1+rng.IntN(12)), 1+rng.IntN(28), 0, 0, 0, 0, time.UTC)
		flt.Capture.After = &catalog.TimeBound{Time: lo}
		if rng.IntN(2) == 0 {
			flt.Capture.Before = &catalog.TimeBound{Time: lo.AddDate(0, rng.IntN(30), rng.IntN(30)+1)}
		}
	}
	return flt
}

// TestClustersPathsAgree asks random viewports and cell sizes of both
// paths.
func TestClustersPathsAgree(t *testing.T) {
	f := newAggFixture(t)
	rng := rand.New(rand.NewPCG(5, 6))
	seedRandom(t, f, rng, 2000)
	ctx := context.Background()
	agg := aggregates{f.db.reader}
	sizes := []float64{0.01, 0.02, 0.05, 0.1, 0.25, 0.3, 0.5, 1, 2, 3, 5, 10, 20, 45, 90, 180}
	nonEmpty := 0
	for i := range 400 {
		box := randomBox(rng)
		q := store.ClusterQuery{CellSize: sizes[rng.IntN(len(sizes))], MaxCells: 1 << 30,
			Filter: store.AssetFilter{LibraryID: f.lib, State: []store.AssetState{"", store.StateTrashed,
				store.StateAll}[rng.IntN(3)], Location: &catalog.Location{Box: &box}}}
		if rng.IntN(5) == 0 {
			q.Filter.LibraryID = f.lib2
		}
		require.NotZero(t, geogrid.Level(q.Filter, geogrid.New(box, q.CellSize)), "%v", q.CellSize)
		want, err := agg.geoClusters(ctx, q, pathAssets)
		require.NoError(t, err)
		got, err := agg.geoClusters(ctx, q, pathTable)
		require.NoError(t, err)
		require.Equal(t, want, got, "query %d: box %v, cell %v", i, box, q.CellSize)
		if len(want) > 0 {
			nonEmpty++
		}
		// The cells hold exactly the assets the list shows for the box.
		var total int64
		for _, c := range want {
			total += c.Count
			const eps = 1e-6 // positions are rounded to 1e-7 degree
			east := box.EastOf(c.Longitude)
			require.True(t, c.Latitude >= box.MinLat-eps && c.Latitude <= box.MaxLat+eps &&
				(east <= box.WidthDegrees()+eps || east >= 360-eps), "centroid %v,%v outside %v", c.Longitude, c.Latitude, box)
		}
		listed, _, err := assets{f.db.reader}.List(ctx, q.Filter, store.Page{Limit: 5000})
		require.NoError(t, err)
		require.EqualValues(t, len(listed), total, "box %v", box)
		for _, c := range want {
			require.True(t, slices.ContainsFunc(listed, func(a catalog.Asset) bool { return a.ID == c.RepresentativeID }))
		}
	}
	require.Greater(t, nonEmpty, 200)
}

// randomBox is a viewport: the world, a crossing one, one on grid lines, or
// any.
func randomBox(rng *rand.Rand) catalog.BBox {
	switch rng.IntN(6) {
	case 0:
		return catalog.World
	case 1:
		return catalog.BBox{MinLon: float64(rng.IntN(36)*10 - 180), MinLat: -80, MaxLon: float64(rng.IntN(36)*10 - 170), MaxLat: 60}
	}
	p := places[rng.IntN(len(places))]
	w, h := []float64{0.05, 0.3, 2, 20, 200}[rng.IntN(5)], []float64{0.05, 0.3, 2, 20, 120}[rng.IntN(5)]
	lon0 := p[0] - rng.Float64()*w
	lon1 := lon0 + w
	for lon0 < -180 {
		lon0 += 360
	}
	for lon1 > 180 {
		lon1 -= 360
	}
	lat0 := max(-90, p[1]-rng.Float64()*h)
	return catalog.BBox{MinLon: lon0, MinLat: lat0, MaxLon: lon1, MaxLat: min(90, lat0+h)}
}

// TestCountsMatchTheList checks both kinds of answer against the list: the
// buckets add up to the assets List returns for the same filter, whatever
// the filter (locations and offset-aware bounds take the fallback).
func TestCountsMatchTheList(t *testing.T) {
	f := newAggFixture(t)
	rng := rand.New(rand.NewPCG(7, 8))
	seedRandom(t, f, rng, 1500)
	ctx := context.Background()
	for i := range 150 {
		flt := randomFilter(f, rng)
		switch rng.IntN(4) {
		case 0:
			box := randomBox(rng)
			flt.Location = &catalog.Location{Box: &box}
		case 1:
			p := places[rng.IntN(len(places))]
			flt.Location = &catalog.Location{Circle: &catalog.Circle{Lon: p[0], Lat: p[1], RadiusM: rng.Float64() * 500_000}}
		case 2:
			if flt.Capture.After != nil {
				flt.Capture.After = &catalog.TimeBound{Time: flt.Capture.After.Time.Add(90 * time.Minute), HasOffset: true}
				flt.Capture.Before = nil
			}
		}
		counts, more, err := aggregates{f.db.reader}.Counts(ctx, store.CountsQuery{Filter: flt, Bucket: store.BucketDay,
			Limit: 1 << 20})
		require.NoError(t, err)
		require.False(t, more)
		var total int64
		for j, c := range counts {
			total += c.Count
			require.Positive(t, c.Count)
			if j > 0 {
				require.Equal(t, flt.Asc, c.Start.After(counts[j-1].Start), "order")
			}
		}
		listed, _, err := assets{f.db.reader}.List(ctx, flt, store.Page{Limit: 5000})
		require.NoError(t, err)
		require.EqualValues(t, len(listed), total, "query %d: %+v", i, flt)
	}
}
