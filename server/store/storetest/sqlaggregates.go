package storetest

import (
	"context"
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/photoctl/photoctl/server/catalog"
	"github.com/photoctl/photoctl/server/query"
	"github.com/photoctl/photoctl/server/store/geogrid"
	"github.com/photoctl/photoctl/server/store/sqlstore"
)

// RunSQLAggregates runs the white-box tests of the maintained aggregates
// against the SQL store h opens.
func RunSQLAggregates(t *testing.T, h SQLStore) {
	for _, c := range []struct {
		name string
		run  func(*testing.T, SQLStore)
	}{
		{"FollowWrites", aggregatesFollowWrites},
		{"CountPathsAgree", countPathsAgree},
		{"ClusterPathsAgree", clusterPathsAgree},
		{"CountsMatchTheList", countsMatchTheList},
		{"StackWritesKeepAggregates", stackWritesKeepAggregates},
	} {
		t.Run(c.name, func(t *testing.T) { c.run(t, h) })
	}
}

// freshAggregates pairs each maintained table with the same aggregates
// computed from scratch, in the dialect's SQL.
func freshAggregates(d *sqlstore.Dialect) []struct{ maintained, fresh string } {
	return []struct{ maintained, fresh string }{
		{`SELECT library_id, live, day, media_type, rating, count FROM asset_day_counts`,
			`SELECT library_id, live, ` + d.AssetDay + `, media_type, coalesce(rating, -1), count(*)
			FROM assets a WHERE stack_cover = 1 GROUP BY 1, 2, 3, 4, 5`},
		{`SELECT library_id, live, units, cx, cy, count, sum_x, sum_y, rep_id FROM geo_cells`,
			`SELECT library_id, live, units, x / units, y / units, count(*), ` + d.SumInt("x") + `, ` + d.SumInt("y") + `, max(id)
			FROM (SELECT a.library_id, a.live, a.id, l.units, ` + d.GeoX + ` AS x, ` + d.GeoY + ` AS y
			FROM assets a, geo_levels l WHERE a.stack_cover = 1 AND a.latitude IS NOT NULL)` + d.SubqueryAlias("p") + `
			GROUP BY 1, 2, 3, 4, 5`},
	}
}

// aggregatesFollowWrites compares the maintained tables with the same
// aggregates computed from scratch after random writes of every kind.
func aggregatesFollowWrites(t *testing.T, h SQLStore) {
	f := NewAggFixture(t, h)
	SeedRandom(t, f, rand.New(rand.NewPCG(1, 2)), 2000)
	for _, c := range freshAggregates(h.Q(f.S).Dialect()) {
		got, want := h.Rows(t, f.S, c.maintained), h.Rows(t, f.S, c.fresh)
		require.NotEmpty(t, want)
		require.ElementsMatch(t, want, got)
	}
	var levels []string
	for _, u := range geogrid.Levels {
		levels = append(levels, fmt.Sprint(u))
	}
	require.Equal(t, levels, h.Rows(t, f.S, `SELECT units FROM geo_levels ORDER BY units DESC`),
		"geogrid.Levels must list the table geo_levels")
}

// countPathsAgree asks random countable queries of both paths.
func countPathsAgree(t *testing.T, h SQLStore) {
	f := NewAggFixture(t, h)
	rng := rand.New(rand.NewPCG(3, 4))
	SeedRandom(t, f, rng, 2000)
	ctx := context.Background()
	nonEmpty := 0
	for i := range 300 {
		q := query.CountsQuery{Filter: randomCountFilter(f, rng), Bucket: []query.CountBucket{query.BucketDay,
			query.BucketMonth, query.BucketYear}[rng.IntN(3)], Limit: 1 + rng.IntN(60)}
		if rng.IntN(3) == 0 {
			day := time.Date(2018+rng.IntN(7), time.Month(1+rng.IntN(12)), 1+rng.IntN(28), 0, 0, 0, 0, time.UTC)
			after := q.Bucket.Start(day)
			q.After = &after
		}
		require.True(t, sqlstore.DayCountable(q.Filter))
		want, wantMore, err := h.via(f.S, sqlstore.PathAssets).Counts(ctx, q)
		require.NoError(t, err)
		got, gotMore, err := h.via(f.S, sqlstore.PathTable).Counts(ctx, q)
		require.NoError(t, err)
		require.Equal(t, want, got, "query %d: %+v", i, q)
		require.Equal(t, wantMore, gotMore)
		if len(want) > 0 {
			nonEmpty++
		}
		auto, _, err := h.via(f.S, sqlstore.PathAuto).Counts(ctx, q)
		require.NoError(t, err)
		require.Equal(t, want, auto)
	}
	require.Greater(t, nonEmpty, 200)
}

// randomCountFilter is a filter both paths of counts can answer.
func randomCountFilter(f *AggFixture, rng *rand.Rand) query.AssetFilter {
	flt := query.AssetFilter{LibraryID: f.Lib, State: []query.AssetState{"", query.StateLive, query.StateTrashed,
		query.StateAll}[rng.IntN(4)], Asc: rng.IntN(2) == 0}
	if rng.IntN(5) == 0 {
		flt.LibraryID = f.Lib2
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

// clusterPathsAgree asks random viewports and cell sizes of both paths,
// and checks both against the list.
func clusterPathsAgree(t *testing.T, h SQLStore) {
	f := NewAggFixture(t, h)
	rng := rand.New(rand.NewPCG(5, 6))
	SeedRandom(t, f, rng, 2000)
	ctx := context.Background()
	sizes := []float64{0.01, 0.02, 0.05, 0.1, 0.25, 0.3, 0.5, 1, 2, 3, 5, 10, 20, 45, 90, 180}
	nonEmpty := 0
	for i := range h.ClusterRounds {
		box := randomAggBox(rng)
		q := query.ClusterQuery{CellSize: sizes[rng.IntN(len(sizes))], MaxCells: 1 << 30,
			Filter: query.AssetFilter{LibraryID: f.Lib, State: []query.AssetState{"", query.StateTrashed,
				query.StateAll}[rng.IntN(3)], Location: &catalog.Location{Box: &box}}}
		if rng.IntN(5) == 0 {
			q.Filter.LibraryID = f.Lib2
		}
		require.NotZero(t, geogrid.Level(q.Filter, geogrid.New(box, q.CellSize)), "%v", q.CellSize)
		want, err := h.via(f.S, sqlstore.PathAssets).GeoClusters(ctx, q)
		require.NoError(t, err)
		got, err := h.via(f.S, sqlstore.PathTable).GeoClusters(ctx, q)
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
		listed, _, err := f.S.Read().Assets().List(ctx, q.Filter, query.Page{Limit: 5000})
		require.NoError(t, err)
		require.EqualValues(t, len(listed), total, "box %v", box)
		for _, c := range want {
			require.True(t, slices.ContainsFunc(listed, func(a catalog.Asset) bool { return a.ID == c.RepresentativeID }))
		}
	}
	require.Greater(t, nonEmpty, h.ClusterNonEmpty)
}

// randomAggBox is a viewport: the world, a crossing one, one on grid
// lines, or any.
func randomAggBox(rng *rand.Rand) catalog.BBox {
	switch rng.IntN(6) {
	case 0:
		return catalog.World
	case 1:
		return catalog.BBox{MinLon: float64(rng.IntN(36)*10 - 180), MinLat: -80, MaxLon: float64(rng.IntN(36)*10 - 170), MaxLat: 60}
	}
	p := AggPlaces[rng.IntN(len(AggPlaces))]
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

// countsMatchTheList checks both kinds of answer against the list: the
// buckets add up to the assets List returns for the same filter, whatever
// the filter (locations and offset-aware bounds take the fallback).
func countsMatchTheList(t *testing.T, h SQLStore) {
	f := NewAggFixture(t, h)
	rng := rand.New(rand.NewPCG(7, 8))
	SeedRandom(t, f, rng, 1500)
	ctx := context.Background()
	agg, list := h.via(f.S, sqlstore.PathAuto), f.S.Read().Assets()
	for i := range 150 {
		flt := randomCountFilter(f, rng)
		switch rng.IntN(4) {
		case 0:
			box := randomAggBox(rng)
			flt.Location = &catalog.Location{Box: &box}
		case 1:
			p := AggPlaces[rng.IntN(len(AggPlaces))]
			flt.Location = &catalog.Location{Circle: &catalog.Circle{Lon: p[0], Lat: p[1], RadiusM: rng.Float64() * 500_000}}
		case 2:
			if flt.Capture.After != nil {
				flt.Capture.After = &catalog.TimeBound{Time: flt.Capture.After.Time.Add(90 * time.Minute), HasOffset: true}
				flt.Capture.Before = nil
			}
		}
		counts, more, err := agg.Counts(ctx, query.CountsQuery{Filter: flt, Bucket: query.BucketDay, Limit: 1 << 20})
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
		listed, _, err := list.List(ctx, flt, query.Page{Limit: 5000})
		require.NoError(t, err)
		require.EqualValues(t, len(listed), total, "query %d: %+v", i, flt)
	}
}
