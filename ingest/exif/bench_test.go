package exif_test

import (
	"path/filepath"
	"testing"

	"github.com/photoctl/photoctl/ingest/exif"
)

// BenchmarkRead reads a tagged 12 MP (4000×3000) JPEG with the default
// pool of two processes: one caller at a time, and as many callers as
// GOMAXPROCS (at least two, so both processes work).
func BenchmarkRead(b *testing.B) {
	needTool(b, "exiftool")
	path := filepath.Join(b.TempDir(), "12mp.jpg")
	writeJPEG(b, path, 4000, 3000)
	run(b, exiftoolWrite(b, path, eiffel...))
	p := newPool(b, exif.Config{})

	b.Run("sequential", func(b *testing.B) {
		for b.Loop() {
			if _, err := p.Read(b.Context(), path, ""); err != nil {
				b.Fatal(err)
			}
		}
		b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "files/s")
	})
	b.Run("parallel", func(b *testing.B) {
		b.SetParallelism(2)
		b.RunParallel(func(pb *testing.PB) {
			for pb.Next() {
				if _, err := p.Read(b.Context(), path, ""); err != nil {
					b.Error(err)
					return
				}
			}
		})
		b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "files/s")
	})
}
