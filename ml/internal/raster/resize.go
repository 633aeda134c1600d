package raster

import "math"

// Rect is a region in continuous pixel coordinates; it may reach past the
// image, whose edge pixels then repeat.
type Rect struct {
	X0, Y0, X1, Y1 float64
}

// Resize returns the region r of m scaled to w×h with a triangle filter
// widened by the scale factor, so shrinking averages every source pixel
// (no aliasing) and enlarging is bilinear. The axes scale independently.
func (m *Image) Resize(r Rect, w, h int) *Image {
	xs := weights(r.X0, r.X1, w, m.W)
	ys := weights(r.Y0, r.Y1, h, m.H)
	// Horizontal pass over the source rows the vertical pass reads.
	lo, hi := ys.span()
	tmp := make([]float32, (hi-lo)*w*3)
	for sy := lo; sy < hi; sy++ {
		row := m.Pix[sy*m.W*3:]
		out := tmp[(sy-lo)*w*3:]
		for x := 0; x < w; x++ {
			var r, g, b float32
			first := xs.first[x]
			for k, wt := range xs.w[x] {
				i := (first + k) * 3
				r += wt * float32(row[i])
				g += wt * float32(row[i+1])
				b += wt * float32(row[i+2])
			}
			out[3*x], out[3*x+1], out[3*x+2] = r, g, b
		}
	}
	dst := New(w, h)
	for y := 0; y < h; y++ {
		first := ys.first[y] - lo
		o := dst.Pix[y*w*3 : (y+1)*w*3]
		for i := range o {
			var v float32
			for k, wt := range ys.w[y] {
				v += wt * tmp[(first+k)*w*3+i]
			}
			o[i] = clamp8(v)
		}
	}
	return dst
}

// filter holds, for each output index, the first source index and the
// normalised weights of the consecutive source pixels it averages.
type filter struct {
	first []int
	w     [][]float32
}

func (f filter) span() (lo, hi int) {
	lo, hi = math.MaxInt, 0
	for i, first := range f.first {
		lo = min(lo, first)
		hi = max(hi, first+len(f.w[i]))
	}
	return lo, hi
}

// weights maps n outputs onto the source interval [a, b) of an axis of
// size size, clamping reads at its ends.
func weights(a, b float64, n, size int) filter {
	scale := (b - a) / float64(n)
	support := math.Max(scale, 1) // triangle radius in source pixels
	f := filter{first: make([]int, n), w: make([][]float32, n)}
	for i := 0; i < n; i++ {
		c := a + (float64(i)+0.5)*scale // output centre in source space
		j0 := int(math.Floor(c - support - 0.5))
		j1 := int(math.Ceil(c + support - 0.5))
		// Reads past an end land on the edge pixel.
		lo, hi := min(max(j0, 0), size-1), min(max(j1, 0), size-1)
		acc := make([]float64, hi-lo+1)
		var sum float64
		for j := j0; j <= j1; j++ {
			d := math.Abs(float64(j)+0.5-c) / support
			if d >= 1 {
				continue
			}
			acc[min(max(j, 0), size-1)-lo] += 1 - d
			sum += 1 - d
		}
		if sum == 0 { // cannot happen with support >= 1; kept for safety
			acc[0], sum = 1, 1
		}
		ws := make([]float32, len(acc))
		for j, wt := range acc {
			ws[j] = float32(wt / sum)
		}
		f.first[i], f.w[i] = lo, ws
	}
	return f
}

func clamp8(v float32) uint8 {
	switch {
	case v <= 0:
		return 0
	case v >= 255:
		return 255
	}
	return uint8(v + 0.5)
}

// Half returns m shrunk by two each way (odd edges dropped), each pixel
// the mean of a 2×2 block: the exact antialiasing filter for that factor,
// and several times cheaper than Resize.
func (m *Image) Half() *Image {
	w, h := m.W/2, m.H/2
	dst := New(w, h)
	for y := 0; y < h; y++ {
		r0 := m.Pix[2*y*m.W*3 : (2*y+1)*m.W*3]
		r1 := m.Pix[(2*y+1)*m.W*3 : (2*y+2)*m.W*3]
		o := dst.Pix[y*w*3 : (y+1)*w*3]
		for x := 0; x < w; x++ {
			i, j := 6*x, 3*x
			o[j] = uint8((uint16(r0[i]) + uint16(r0[i+3]) + uint16(r1[i]) + uint16(r1[i+3]) + 2) >> 2)
			o[j+1] = uint8((uint16(r0[i+1]) + uint16(r0[i+4]) + uint16(r1[i+1]) + uint16(r1[i+4]) + 2) >> 2)
			o[j+2] = uint8((uint16(r0[i+2]) + uint16(r0[i+5]) + uint16(r1[i+2]) + uint16(r1[i+5]) + 2) >> 2)
		}
	}
	return dst
}

// Scaled returns the whole of m at w×h: halved while it stays at least
// twice as big, then resized the rest of the way.
func (m *Image) Scaled(w, h int) *Image {
	for m.W >= 2*w && m.H >= 2*h {
		m = m.Half()
	}
	if m.W == w && m.H == h {
		return m
	}
	return m.Resize(Rect{X1: float64(m.W), Y1: float64(m.H)}, w, h)
}
