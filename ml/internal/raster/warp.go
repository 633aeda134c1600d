package raster

import "math"

// Affine maps a point (x, y) to (A*x + B*y + C, D*x + E*y + F).
type Affine struct {
	A, B, C, D, E, F float64
}

// Apply maps (x, y).
func (t Affine) Apply(x, y float64) (float64, float64) {
	return t.A*x + t.B*y + t.C, t.D*x + t.E*y + t.F
}

// Invert returns the inverse map; a singular map gives the zero Affine.
func (t Affine) Invert() Affine {
	det := t.A*t.E - t.B*t.D
	if det == 0 {
		return Affine{}
	}
	a, b, d, e := t.E/det, -t.B/det, -t.D/det, t.A/det
	return Affine{A: a, B: b, C: -(a*t.C + b*t.F), D: d, E: e, F: -(d*t.C + e*t.F)}
}

// Scale is the map's mean linear scale factor, sqrt(|det|).
func (t Affine) Scale() float64 { return math.Sqrt(math.Abs(t.A*t.E - t.B*t.D)) }

// Similarity returns the rotation, uniform scale and translation that
// maps the points src onto dst with the least squared error (Umeyama's
// method without reflection).
func Similarity(src, dst [][2]float64) Affine {
	n := float64(len(src))
	var msx, msy, mdx, mdy float64
	for i := range src {
		msx += src[i][0]
		msy += src[i][1]
		mdx += dst[i][0]
		mdy += dst[i][1]
	}
	msx, msy, mdx, mdy = msx/n, msy/n, mdx/n, mdy/n
	// For a similarity in 2D the optimum has a closed form: with centred
	// points, scale·cosθ = Σ(s·d)/Σ|s|², scale·sinθ = Σ(s×d)/Σ|s|².
	var dot, cross, norm float64
	for i := range src {
		sx, sy := src[i][0]-msx, src[i][1]-msy
		dx, dy := dst[i][0]-mdx, dst[i][1]-mdy
		dot += sx*dx + sy*dy
		cross += sx*dy - sy*dx
		norm += sx*sx + sy*sy
	}
	if norm == 0 {
		return Affine{A: 1, E: 1, C: mdx - msx, F: mdy - msy}
	}
	a, b := dot/norm, cross/norm
	return Affine{A: a, B: -b, C: mdx - a*msx + b*msy, D: b, E: a, F: mdy - b*msx - a*msy}
}

// Warp returns a w×h image whose pixel at (x, y) is m's colour at
// toSrc(x, y), sampled bilinearly; when toSrc shrinks (each output pixel
// spans several source pixels) it averages a grid of up to 4×4 samples per
// pixel instead of aliasing. Outside m the colour is black, or the nearest
// edge pixel when replicate is set.
func (m *Image) Warp(w, h int, toSrc Affine, replicate bool) *Image {
	n := int(math.Ceil(toSrc.Scale()))
	n = min(max(n, 1), 4)
	inv := 1 / float32(n*n)
	dst := New(w, h)
	for y := 0; y < h; y++ {
		for x := 0; x < w; x++ {
			var r, g, b float32
			for sy := 0; sy < n; sy++ {
				for sx := 0; sx < n; sx++ {
					px := float64(x) + (float64(sx)+0.5)/float64(n)
					py := float64(y) + (float64(sy)+0.5)/float64(n)
					u, v := toSrc.Apply(px, py)
					cr, cg, cb := m.bilinear(u-0.5, v-0.5, replicate)
					r, g, b = r+cr, g+cg, b+cb
				}
			}
			i := (y*w + x) * 3
			dst.Pix[i], dst.Pix[i+1], dst.Pix[i+2] = clamp8(r*inv), clamp8(g*inv), clamp8(b*inv)
		}
	}
	return dst
}

// bilinear samples at index-space position (u, v): pixel (i, j) sits at
// (i, j).
func (m *Image) bilinear(u, v float64, replicate bool) (r, g, b float32) {
	x0, y0 := int(math.Floor(u)), int(math.Floor(v))
	fx, fy := float32(u-float64(x0)), float32(v-float64(y0))
	var c [4][3]float32
	for k, p := range [4][2]int{{x0, y0}, {x0 + 1, y0}, {x0, y0 + 1}, {x0 + 1, y0 + 1}} {
		px, py := p[0], p[1]
		if px < 0 || py < 0 || px >= m.W || py >= m.H {
			if !replicate {
				continue
			}
			px, py = min(max(px, 0), m.W-1), min(max(py, 0), m.H-1)
		}
		i := (py*m.W + px) * 3
		c[k] = [3]float32{float32(m.Pix[i]), float32(m.Pix[i+1]), float32(m.Pix[i+2])}
	}
	w00, w10, w01, w11 := (1-fx)*(1-fy), fx*(1-fy), (1-fx)*fy, fx*fy
	r = c[0][0]*w00 + c[1][0]*w10 + c[2][0]*w01 + c[3][0]*w11
	g = c[0][1]*w00 + c[1][1]*w10 + c[2][1]*w01 + c[3][1]*w11
	b = c[0][2]*w00 + c[1][2]*w10 + c[2][2]*w01 + c[3][2]*w11
	return r, g, b
}
