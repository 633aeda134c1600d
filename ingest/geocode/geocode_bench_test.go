package geocode_test

import (
	"runtime"
	"testing"

	"github.com/sams96/rgeo"
)

// points are where photos are taken: cities, countryside and sea.
var points = [][2]float64{
	{48.8566, 2.3522}, {35.6762, 139.6503}, {35.0116, 135.7681}, {40.7128, -74.0060},
	{-33.8688, 151.2093}, {-17.7134, 178.065}, {0, 0}, {46.5, 10.5}, {64.1, -21.9}, {-3.1, -60.0},
}

func BenchmarkLookup(b *testing.B) {
	skipUnderRace(b)
	if err := world.Load(); err != nil {
		b.Fatal(err)
	}
	b.ResetTimer()
	for i := 0; b.Loop(); i++ {
		p := points[i%len(points)]
		world.Lookup(p[0], p[1])
	}
}

func BenchmarkLookupParallel(b *testing.B) {
	skipUnderRace(b)
	if err := world.Load(); err != nil {
		b.Fatal(err)
	}
	b.ResetTimer()
	b.RunParallel(func(pb *testing.PB) {
		for i := 0; pb.Next(); i++ {
			p := points[i%len(points)]
			world.Lookup(p[0], p[1])
		}
	})
}

// BenchmarkLoadDataset measures each dataset rgeo ships on its own:
// ms/op, MB allocated while loading and MB the loaded index keeps. Run it
// with -benchtime=1x; one load is seconds.
func BenchmarkLoadDataset(b *testing.B) {
	skipUnderRace(b)
	datasets := []struct {
		name string
		data func() []byte
	}{
		{"Countries110", rgeo.Countries110},
		{"Countries10", rgeo.Countries10},
		{"Provinces10", rgeo.Provinces10},
		{"Cities10", rgeo.Cities10},
	}
	for _, d := range datasets {
		b.Run(d.name, func(b *testing.B) {
			var before, after runtime.MemStats
			var kept *rgeo.Rgeo
			var allocated, retained uint64
			for b.Loop() {
				kept = nil
				runtime.GC()
				runtime.ReadMemStats(&before)
				r, err := rgeo.New(d.data)
				if err != nil {
					b.Fatal(err)
				}
				runtime.ReadMemStats(&after)
				allocated += after.TotalAlloc - before.TotalAlloc
				runtime.GC()
				runtime.ReadMemStats(&after)
				retained += after.HeapAlloc - before.HeapAlloc
				kept = r
			}
			runtime.KeepAlive(kept)
			b.ReportMetric(float64(allocated)/float64(b.N)/(1<<20), "MB-alloc/op")
			b.ReportMetric(float64(retained)/float64(b.N)/(1<<20), "MB-kept/op")
			b.ReportMetric(float64(b.Elapsed().Milliseconds())/float64(b.N), "ms/op")
		})
	}
}
