package pipeline_test

import (
	"testing"
	"time"

	"github.com/photoctl/photoctl/server/devseed"
	"github.com/photoctl/photoctl/server/query"
)

// BenchmarkRegeocodeLibrary re-geocodes a seeded library of 3,000 assets
// (about 87% with a position; their synthetic places differ from the
// geocoder's): the first pass, reported as ms/rewritten (per asset it
// wrote), then each op a pass that finds every place current, as a task's
// retry after a timeout does (us/asset-current).
func BenchmarkRegeocodeLibrary(b *testing.B) {
	const n = 3000
	e, lib := seededEnv(b, n)
	events := func() int {
		list, _, err := e.st.Read().Events().List(e.ctx, lib, query.Page{Limit: 10 * n})
		if err != nil {
			b.Fatal(err)
		}
		return len(list)
	}
	before := events()
	start := time.Now()
	if err := e.p.RegeocodeLibrary(e.ctx, lib); err != nil {
		b.Fatal(err)
	}
	first := time.Since(start)
	rewritten := events() - before
	if rewritten == 0 {
		b.Fatal("the first pass rewrote nothing")
	}
	for b.Loop() {
		if err := e.p.RegeocodeLibrary(e.ctx, lib); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(b.Elapsed().Microseconds())/float64(b.N)/n, "us/asset-current")
	// After the loop: ResetTimer, which b.Loop calls, drops reported metrics.
	b.ReportMetric(float64(first.Microseconds())/1000/float64(rewritten), "ms/rewritten")
	b.ReportMetric(float64(rewritten), "rewritten")
}

// seededEnv is a test environment whose user's library (its id) holds n
// assets of the dev seed.
func seededEnv(b *testing.B, n int) (*env, string) {
	b.Helper()
	e := newEnv(b)
	libs, err := e.st.Read().Libraries().LiveMemberships(e.ctx, e.user.User.ID)
	if err != nil {
		b.Fatal(err)
	}
	lib := libs[0].Library.ID
	if _, err := devseed.Seed(e.ctx, e.st, devseed.Options{LibraryID: lib, Assets: n, Seed: 1}); err != nil {
		b.Fatal(err)
	}
	return e, lib
}
