package metrics

import (
	"math"
	"math/rand/v2"
	"testing"
)

// The summed-area table averages an area as the direct reduction does.
func TestSATReduceMatchesReduce(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	w, h := 203, 151
	plane := make([]float32, w*h)
	for i := range plane {
		plane[i] = float32(rng.IntN(256))
	}
	table := sat{integral(plane, w, h, nil), w, h}
	for _, r := range []rect{{0, 0, float64(w), float64(h)}, {0.1 * float64(w), 0.1 * float64(h), 0.8 * float64(w), 0.8 * float64(h)},
		{0.2 * float64(w), 0.2 * float64(h), 0.8 * float64(w), 0.8 * float64(h)}, {3.3, 7.7, 50.5, 40.25}} {
		want, got := reduce(plane, w, h, r), table.reduce(r)
		for y := range want {
			for x := range want[y] {
				if math.Abs(want[y][x]-got[y][x]) > 1e-6 {
					t.Fatalf("%v: cell %d,%d: %v, want %v", r, x, y, got[y][x], want[y][x])
				}
			}
		}
	}
}

// BenchmarkHashes times the hashes on a 512×384 sample, the pipeline's
// size: the picture's and its mirror's (one reduction), and what the
// crops add (the summed-area table and seven reductions and DCTs).
func BenchmarkHashes(b *testing.B) {
	rng := rand.New(rand.NewPCG(1, 2))
	s := &sample{w: 512, h: 384, luma: make([]float32, 512*384)}
	for i := range s.luma {
		s.luma[i] = float32(rng.IntN(256))
	}
	b.Run("phash+mirror", func(b *testing.B) {
		for b.Loop() {
			phash(s)
		}
	})
	b.Run("crops", func(b *testing.B) {
		sc := new(scratch)
		for b.Loop() {
			cropHashes(s, sc)
		}
	})
}
