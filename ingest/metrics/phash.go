package metrics

import (
	"fmt"
	"math"
	"math/bits"
	"slices"
	"strconv"
)

// The DCT perceptual hash (Zauner 2010, pHash.org): the luma reduced to
// hashSide² by area averaging, its 2-D DCT-II, and the 8×8 lowest
// frequencies after the first row and column (which hold the mean and the
// purely horizontal or vertical ramps), one bit each: set when the
// coefficient is above their median. Scaling, recompression, mild colour
// and brightness changes flip few bits; different pictures about half.
const (
	hashSide  = 32
	hashFreqs = 8
)

// dctCos[u][x] = cos((2x+1)uπ / 2N) for the frequencies the hash keeps.
var dctCos = func() (c [hashFreqs + 1][hashSide]float64) {
	for u := range c {
		for x := range c[u] {
			c[u][x] = math.Cos(float64(2*x+1) * float64(u) * math.Pi / (2 * hashSide))
		}
	}
	return c
}()

// phash returns the perceptual hash of s as 16 hex digits, and that of s
// flipped horizontally. Area averaging is symmetric, so the flipped
// image's cells are s's in reverse column order: one reduction serves both.
func phash(s *sample) (hash, mirror string) {
	px := reduce(s.luma, s.w, s.h, rect{0, 0, float64(s.w), float64(s.h)})
	hash = dctHash(&px)
	for y := range px {
		slices.Reverse(px[y][:])
	}
	return hash, dctHash(&px)
}

// dctHash hashes a reduced luma plane: its DCT's 8×8 kept frequencies,
// one bit each, set when above their median.
func dctHash(px *[hashSide][hashSide]float64) string {
	// Rows first, then columns, only for the kept frequencies.
	var rows [hashSide][hashFreqs + 1]float64
	for y := range hashSide {
		for u := 1; u <= hashFreqs; u++ {
			for x := range hashSide {
				rows[y][u] += px[y][x] * dctCos[u][x]
			}
		}
	}
	coeffs := make([]float64, 0, hashFreqs*hashFreqs)
	for v := 1; v <= hashFreqs; v++ {
		for u := 1; u <= hashFreqs; u++ {
			var c float64
			for y := range hashSide {
				c += rows[y][u] * dctCos[v][y]
			}
			coeffs = append(coeffs, c)
		}
	}
	sorted := slices.Clone(coeffs)
	slices.Sort(sorted)
	median := (sorted[len(sorted)/2-1] + sorted[len(sorted)/2]) / 2
	var hash uint64
	for _, c := range coeffs {
		hash <<= 1
		if c > median {
			hash |= 1
		}
	}
	return fmt.Sprintf("%016x", hash)
}

// rect is an area of a plane in pixels, fractions included.
type rect struct{ x, y, w, h float64 }

// reduce resizes the area r of a w×h plane to hashSide² by exact area
// averaging: each output cell is the mean of the input area it covers,
// fractions of pixels included, so the result hardly depends on the
// input's size. Rows first, then columns; only the rows r covers are read.
func reduce(plane []float32, w, h int, r rect) (out [hashSide][hashSide]float64) {
	wx, wy := areaWeights(r.x, r.w, w), areaWeights(r.y, r.h, h)
	y0, y1 := wy[0][0].i, wy[hashSide-1][len(wy[hashSide-1])-1].i+1
	rows := make([][hashSide]float64, y1-y0)
	for y := y0; y < y1; y++ {
		line := plane[y*w : (y+1)*w]
		for x, ws := range wx {
			for _, c := range ws {
				rows[y-y0][x] += c.w * float64(line[c.i])
			}
		}
	}
	for y, ws := range wy {
		for x := range hashSide {
			for _, c := range ws {
				out[y][x] += c.w * rows[c.i-y0][x]
			}
		}
	}
	return out
}

// weight is input pixel i's share of an output cell.
type weight struct {
	i int
	w float64
}

// areaWeights returns, for each of hashSide output cells dividing the
// span [from, from+length) of an axis of n input pixels, the pixels it
// overlaps and their shares (summing to 1).
func areaWeights(from, length float64, n int) [hashSide][]weight {
	var cells [hashSide][]weight
	step := length / hashSide
	for k := range cells {
		lo, hi := from+float64(k)*step, from+float64(k+1)*step
		for i := max(0, int(lo)); i < n && float64(i) < hi; i++ {
			overlap := min(hi, float64(i+1)) - max(lo, float64(i))
			if overlap > 0 {
				cells[k] = append(cells[k], weight{i, overlap / step})
			}
		}
	}
	return cells
}

// HammingDistance returns the number of bits in which two PHash values
// differ: 0 for the same picture, up to about 6 for the same picture
// scaled or recompressed, around 32 for unrelated pictures. A value that
// is not 16 hex digits counts as maximally different (64).
func HammingDistance(a, b string) int {
	ha, errA := parseHash(a)
	hb, errB := parseHash(b)
	if errA != nil || errB != nil {
		return 64
	}
	return bits.OnesCount64(ha ^ hb)
}

func parseHash(s string) (uint64, error) {
	if len(s) != 16 {
		return 0, fmt.Errorf("phash %q: want 16 hex digits", s)
	}
	return strconv.ParseUint(s, 16, 64)
}
