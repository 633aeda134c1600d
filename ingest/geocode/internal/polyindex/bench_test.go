package polyindex

import (
	"bytes"
	"compress/gzip"
	"io"
	"math"
	"math/rand/v2"
	"os"
	"testing"
)

// openPlaces opens ingest/geocode's place index, the real data.
func openPlaces(b *testing.B) *Index {
	b.Helper()
	gz, err := os.ReadFile("../../places.idx.gz")
	if err != nil {
		b.Fatal(err)
	}
	zr, err := gzip.NewReader(bytes.NewReader(gz))
	if err != nil {
		b.Fatal(err)
	}
	raw, err := io.ReadAll(zr)
	if err != nil {
		b.Fatal(err)
	}
	ix, err := Open(raw)
	if err != nil {
		b.Fatal(err)
	}
	return ix
}

// BenchmarkContains looks up places where photos are taken (cities: the
// densest leaves) and positions uniform on the sphere (mostly sea).
func BenchmarkContains(b *testing.B) {
	ix := openPlaces(b)
	cities := []Point{
		FromDegrees(2.3522, 48.8566), FromDegrees(139.6503, 35.6762), FromDegrees(135.7681, 35.0116),
		FromDegrees(-74.0060, 40.7128), FromDegrees(151.2093, -33.8688), FromDegrees(-21.9426, 64.1466),
	}
	rng := rand.New(rand.NewPCG(1, 2))
	uniform := make([]Point, 4096)
	for i := range uniform {
		uniform[i] = FromDegrees(rng.Float64()*360-180, math.Asin(2*rng.Float64()-1)*180/math.Pi)
	}
	for _, set := range []struct {
		name   string
		points []Point
	}{{"cities", cities}, {"uniform", uniform}} {
		b.Run(set.name, func(b *testing.B) {
			var buf [8]int32
			for i := 0; b.Loop(); i++ {
				ix.Contains(set.points[i%len(set.points)], buf[:0])
			}
		})
	}
}

// BenchmarkOpen measures opening (and so checking) the unzipped index.
func BenchmarkOpen(b *testing.B) {
	gz, err := os.ReadFile("../../places.idx.gz")
	if err != nil {
		b.Fatal(err)
	}
	zr, _ := gzip.NewReader(bytes.NewReader(gz))
	raw, _ := io.ReadAll(zr)
	for b.Loop() {
		if _, err := Open(raw); err != nil {
			b.Fatal(err)
		}
	}
}
