package metrics

// A crop of a photo hashes far from the photo: the pHash keeps the low
// frequencies of the whole frame, and moving the frame's edges moves them.
// On the test photos, from the photo's own hash: a centred crop keeping
// 95% of each side is 0–14 bits, 90% 10–18, 85% 16–34, 80% 18–40, an 80%
// corner 28–34, where unrelated photos are 18 and more apart
// (TestCropHashesFindCrops logs the nearest). The hash tolerates a centred
// scaling of about 5%, not a shift. So the photo's likeliest crops are
// hashed too and indexed beside its hash (migration 0019), and a search
// image that is one of them, give or take 5% of its size, lies within a
// few bits of its hash: a crop at a stored place is 0–2 bits away. Its
// place matters more than its size: an 80% crop 1% of the frame off a
// corner is up to 12 bits from that corner's hash, 2% off up to 18.
//
// The set, seven hashes: the centre at 90%, 85% and 80% of each side (a
// centred crop of 80–95% is within 5% of one of them, or of the photo)
// and the four corners at 80% (a crop keeping one corner, as trimming two
// edges does). Crops elsewhere (an 80% crop along an edge, between two
// corners; a corner crop of 85–90%) are not found: each more place costs
// an indexed row per asset. Each crop is hashed from the sample the
// photo's hash reads, reduced through one summed-area table: 33² lookups a
// crop, not a pass over its pixels.
var cropAreas = []struct {
	kind       string
	x, y, side float64 // left, top and size, as fractions of the frame
}{
	{"c90", 0.05, 0.05, 0.9},
	{"c85", 0.075, 0.075, 0.85},
	{"c80", 0.1, 0.1, 0.8},
	{"tl80", 0, 0, 0.8},
	{"tr80", 0.2, 0, 0.8},
	{"bl80", 0, 0.2, 0.8},
	{"br80", 0.2, 0.2, 0.8},
}

// CropHash is the perceptual hash of a part of an image: Kind names the
// part (c90, c85, c80: the centre at 90%, 85% and 80% of each side; tl80, tr80,
// bl80, br80: a corner at 80%).
type CropHash struct {
	Kind  string
	PHash string
}

// CropKinds are the kinds of the crops Compute hashes, in its order.
func CropKinds() []string {
	out := make([]string, len(cropAreas))
	for i, c := range cropAreas {
		out[i] = c.kind
	}
	return out
}

// cropHashes hashes the crops of s, its summed-area table kept in sc.
func cropHashes(s *sample, sc *scratch) []CropHash {
	sc.sat = integral(s.luma, s.w, s.h, sc.sat)
	t := sat{sc.sat, s.w, s.h}
	out := make([]CropHash, len(cropAreas))
	w, h := float64(s.w), float64(s.h)
	for i, c := range cropAreas {
		px := t.reduce(rect{c.x * w, c.y * h, c.side * w, c.side * h})
		out[i] = CropHash{c.kind, dctHash(&px)}
	}
	return out
}

// integral returns the summed-area table of a w×h plane in buf: (w+1)×(h+1)
// values, at (x, y) the sum of the pixels left of x and above y.
func integral(plane []float32, w, h int, buf []float64) []float64 {
	stride := w + 1
	buf = grow(buf, stride*(h+1))
	clear(buf[:stride])
	for y := range h {
		line, above, out := plane[y*w:(y+1)*w], buf[y*stride:], buf[(y+1)*stride:]
		out[0] = 0
		var run float64
		for x, v := range line {
			run += float64(v)
			out[x+1] = above[x+1] + run
		}
	}
	return buf
}

// sat is a summed-area table of a w×h plane.
type sat struct {
	t    []float64
	w, h int
}

// at returns the sum of the plane over [0, x)×[0, y), fractions of pixels
// included: within a pixel the sum is bilinear in x and y (the pixel's
// value is constant over it), so the table's four corners give it exactly.
func (s sat) at(x, y float64) float64 {
	i, j := min(int(x), s.w-1), min(int(y), s.h-1)
	fx, fy := x-float64(i), y-float64(j)
	stride := s.w + 1
	s00, s10 := s.t[j*stride+i], s.t[j*stride+i+1]
	s01, s11 := s.t[(j+1)*stride+i], s.t[(j+1)*stride+i+1]
	return s00 + fx*(s10-s00) + fy*(s01-s00) + fx*fy*(s11-s10-s01+s00)
}

// reduce averages the area r of the plane into hashSide² cells, as the
// plane's reduce does, from the table.
func (s sat) reduce(r rect) (out [hashSide][hashSide]float64) {
	var grid [hashSide + 1][hashSide + 1]float64
	for gy := range grid {
		y := min(r.y+float64(gy)*r.h/hashSide, float64(s.h))
		for gx := range grid[gy] {
			grid[gy][gx] = s.at(min(r.x+float64(gx)*r.w/hashSide, float64(s.w)), y)
		}
	}
	area := (r.w / hashSide) * (r.h / hashSide)
	for y := range hashSide {
		for x := range hashSide {
			out[y][x] = (grid[y+1][x+1] - grid[y+1][x] - grid[y][x+1] + grid[y][x]) / area
		}
	}
	return out
}
