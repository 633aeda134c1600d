package people

import (
	"encoding/binary"
	"fmt"
	"math"
	"slices"

	"github.com/photoctl/photoctl/ml"
)

// dim is the length of a face embedding: the clustering skips faces whose
// stored vector has another length.
const dim = ml.EmbeddingSize

// decodeVec reads a stored vector (float32 little-endian) into dst, which
// it returns grown to dim.
func decodeVec(dst []float32, b []byte) ([]float32, error) {
	if len(b) != 4*dim {
		return nil, fmt.Errorf("vector of %d bytes, want %d", len(b), 4*dim)
	}
	dst = slices.Grow(dst[:0], dim)[:dim]
	for i := range dst {
		dst[i] = math.Float32frombits(binary.LittleEndian.Uint32(b[4*i:]))
	}
	return dst, nil
}

// encodeVec writes v as it is stored.
func encodeVec(v []float32) []byte {
	b := make([]byte, 4*len(v))
	for i, x := range v {
		binary.LittleEndian.PutUint32(b[4*i:], math.Float32bits(x))
	}
	return b
}

// dot is the dot product of two vectors of equal length. Eight running
// sums over fixed-size chunks keep the loop free of dependencies and of
// bounds checks (about 5× a naive loop).
func dot(a, b []float32) float32 {
	b = b[:len(a)]
	var s0, s1, s2, s3, s4, s5, s6, s7 float32
	for len(a) >= 8 {
		x, y := (*[8]float32)(a), (*[8]float32)(b)
		s0 += x[0] * y[0]
		s1 += x[1] * y[1]
		s2 += x[2] * y[2]
		s3 += x[3] * y[3]
		s4 += x[4] * y[4]
		s5 += x[5] * y[5]
		s6 += x[6] * y[6]
		s7 += x[7] * y[7]
		a, b = a[8:], b[8:]
	}
	for i := range a {
		s0 += a[i] * b[i]
	}
	return (s0 + s1) + (s2 + s3) + (s4 + s5) + (s6 + s7)
}

// addVec adds sign·v to sum.
func addVec(sum, v []float32, sign float32) {
	v = v[:len(sum)]
	for i := range sum {
		sum[i] += sign * v[i]
	}
}

// invNorm is 1/|v|, or 0 for a vector too short to have a direction.
func invNorm(v []float32) float32 {
	n := math.Sqrt(float64(dot(v, v)))
	if n < 1e-6 {
		return 0
	}
	return float32(1 / n)
}
