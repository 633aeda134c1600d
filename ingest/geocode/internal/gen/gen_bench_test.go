package main

import (
	"runtime"
	"testing"

	"github.com/sams96/rgeo"
)

// BenchmarkRgeoLoad measures what ingest/geocode paid before it had its own
// index: each dataset rgeo ships, loaded by rgeo on its own. ms/op, MB
// allocated while loading and MB the loaded index keeps. Run it with
// -benchtime=1x; one load is seconds, and minutes under -race.
func BenchmarkRgeoLoad(b *testing.B) {
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
		})
	}
}
