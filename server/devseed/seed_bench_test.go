package devseed_test

import (
	"context"
	"math/rand/v2"
	"os"
	"strconv"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/photoctl/photoctl/server/catalog"
	"github.com/photoctl/photoctl/server/devseed"
	"github.com/photoctl/photoctl/server/query"
)

// BenchmarkDevSeed measures seeding through the store, one transaction of
// devseed.DefaultBatch assets per iteration, into a library that grows.
// Profile it with -cpuprofile to see where a seed's time goes.
func BenchmarkDevSeed(b *testing.B) {
	db, lib := newLibrary(b)
	n := 0
	for b.Loop() {
		if _, err := devseed.Seed(context.Background(), db, devseed.Options{LibraryID: lib.ID, Assets: devseed.DefaultBatch}); err != nil {
			b.Fatal(err)
		}
		n += devseed.DefaultBatch
	}
	b.ReportMetric(float64(n)/b.Elapsed().Seconds(), "assets/s")
}

// BenchmarkDevSeededQueries runs the asset lists of scripts/bench against
// the store directly, over a seeded library of $DEVSEED_BENCH_ASSETS
// assets (default 100,000; seeding takes about a minute per 200,000), so
// `go test -cpuprofile` shows where a slow page spends its time without
// HTTP in the way.
func BenchmarkDevSeededQueries(b *testing.B) {
	n := 100_000
	if v, err := strconv.Atoi(os.Getenv("DEVSEED_BENCH_ASSETS")); err == nil && v > 0 {
		n = v
	}
	ctx := context.Background()
	db, lib := newLibrary(b)
	_, err := devseed.Seed(ctx, db, devseed.Options{LibraryID: lib.ID, Assets: n, Seed: 1})
	require.NoError(b, err)
	live := query.AssetFilter{LibraryID: lib.ID}
	var cursors []string
	for p := (query.Page{Limit: 200}); ; {
		page, more, err := db.Read().Assets().List(ctx, live, p)
		require.NoError(b, err)
		for i := 0; i < len(page); i += 50 {
			cursors = append(cursors, page[i].ID)
		}
		if !more {
			break
		}
		p.AfterID = page[len(page)-1].ID
	}
	r := rand.New(rand.NewPCG(1, 2))
	month := func(aware bool) catalog.CaptureRange {
		from := time.Date(2017+r.IntN(9), time.Month(1+r.IntN(12)), 1, 0, 0, 0, 0, time.UTC)
		return catalog.CaptureRange{After: &catalog.TimeBound{Time: from, HasOffset: aware},
			Before: &catalog.TimeBound{Time: from.AddDate(0, 1, 0), HasOffset: aware}, Absolute: aware}
	}
	cases := []struct {
		name string
		next func() (query.AssetFilter, query.Page)
	}{
		{"first page of 100", func() (query.AssetFilter, query.Page) { return live, query.Page{Limit: 100} }},
		{"page of 100 at a random cursor", func() (query.AssetFilter, query.Page) {
			return live, query.Page{Limit: 100, AfterID: cursors[r.IntN(len(cursors))]}
		}},
		{"bbox of 1°×1° around Paris", func() (query.AssetFilter, query.Page) {
			f := live
			f.Location = &catalog.Location{Box: &catalog.BBox{MinLon: 1.85, MinLat: 48.36, MaxLon: 2.85, MaxLat: 49.36}}
			return f, query.Page{Limit: 100}
		}},
		{"month window, offsetless", func() (query.AssetFilter, query.Page) {
			f := live
			f.Capture = month(false)
			return f, query.Page{Limit: 100}
		}},
		{"month window, with offset", func() (query.AssetFilter, query.Page) {
			f := live
			f.Capture = month(true)
			return f, query.Page{Limit: 100}
		}},
	}
	for _, c := range cases {
		b.Run(c.name, func(b *testing.B) {
			for b.Loop() {
				f, p := c.next()
				if _, _, err := db.Read().Assets().List(ctx, f, p); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
