package geocode_test

import (
	"math"
	"math/rand/v2"
	"runtime"
	"syscall"
	"testing"

	"github.com/photoctl/photoctl/ingest/geocode"
)

// points are where photos are taken: cities, countryside and sea.
var points = [][2]float64{
	{48.8566, 2.3522}, {35.6762, 139.6503}, {35.0116, 135.7681}, {40.7128, -74.0060},
	{-33.8688, 151.2093}, {-17.7134, 178.065}, {0, 0}, {46.5, 10.5}, {64.1, -21.9}, {-3.1, -60.0},
}

// BenchmarkLookup is the full lookup (admin areas and town) of places
// photos are taken. Beside ns/op it reports cpu-ns/op, the process's CPU
// time per lookup, which other work on a shared machine inflates less.
func BenchmarkLookup(b *testing.B) {
	benchLookups(b, points)
}

// benchLookups looks up pts in turn, reporting cpu-ns/op too.
func benchLookups(b *testing.B, pts [][2]float64) {
	if err := world.Load(); err != nil {
		b.Fatal(err)
	}
	before := cpuTime()
	n := 0
	for i := 0; b.Loop(); i++ {
		p := pts[i%len(pts)]
		world.Lookup(p[0], p[1])
		n++
	}
	b.ReportMetric(float64(cpuTime()-before)/float64(n), "cpu-ns/op")
}

// cpuTime returns the CPU time the process used, user and system, in ns.
func cpuTime() int64 {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return ru.Utime.Nano() + ru.Stime.Nano()
}

// BenchmarkLookupUniform looks up positions uniform on the sphere: mostly
// sea, which costs least, and every kind of land.
func BenchmarkLookupUniform(b *testing.B) {
	if err := world.Load(); err != nil {
		b.Fatal(err)
	}
	rng := rand.New(rand.NewPCG(1, 2))
	uniform := make([][2]float64, 4096)
	for i := range uniform {
		uniform[i] = [2]float64{math.Asin(2*rng.Float64()-1) * 180 / math.Pi, rng.Float64()*360 - 180}
	}
	benchLookups(b, uniform)
}

func BenchmarkLookupParallel(b *testing.B) {
	if err := world.Load(); err != nil {
		b.Fatal(err)
	}
	b.RunParallel(func(pb *testing.PB) {
		for i := 0; pb.Next(); i++ {
			p := points[i%len(points)]
			world.Lookup(p[0], p[1])
		}
	})
}

// BenchmarkLoad measures a Geocoder's load: ms/op, MB allocated while
// loading, MB the loaded index keeps.
func BenchmarkLoad(b *testing.B) {
	var before, after runtime.MemStats
	var kept *geocode.Geocoder
	var allocated, retained uint64
	for b.Loop() {
		kept = nil
		runtime.GC()
		runtime.ReadMemStats(&before)
		g := geocode.New()
		if err := g.Load(); err != nil {
			b.Fatal(err)
		}
		runtime.ReadMemStats(&after)
		allocated += after.TotalAlloc - before.TotalAlloc
		runtime.GC()
		runtime.ReadMemStats(&after)
		retained += after.HeapAlloc - before.HeapAlloc
		kept = g
	}
	runtime.KeepAlive(kept)
	b.ReportMetric(float64(allocated)/float64(b.N)/(1<<20), "MB-alloc/op")
	b.ReportMetric(float64(retained)/float64(b.N)/(1<<20), "MB-kept/op")
}

// dense are positions where towns are densest: the search reads every
// town within 50 km (Java, the Ruhr, Lombardy, Dhaka, Puerto Rico, the
// Netherlands).
var dense = [][2]float64{
	{-6.9, 107.6}, {51.45, 7.0}, {45.6, 9.3}, {23.8, 90.4}, {18.3, -66.2}, {52.1, 5.1},
}

func BenchmarkLookupDense(b *testing.B) {
	benchLookups(b, dense)
}
