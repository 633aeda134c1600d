package metrics

import (
	"image"
	"image/draw"
	"math"
)

// sample is an image reduced for measuring: its luma, and the statistics
// of the two opponent colour axes Hasler and Süsstrunk use.
type sample struct {
	w, h int
	// luma is Rec. 709 luma of the sRGB values, 0..255, row by row.
	luma []float32
	opponent
}

// opponent holds the sums over pixels of rg = R−G and yb = (R+G)/2 − B,
// and of their squares.
type opponent struct{ rg, rg2, yb, yb2 float64 }

// plus returns the sums with a pixel of colour r, g, b (0..255) added, and
// the pixel's luma. By value, so that a loop keeps the sums in registers.
func (o opponent) plus(r, g, b float64) (opponent, float32) {
	rg, yb := r-g, 0.5*(r+g)-b
	return opponent{o.rg + rg, o.rg2 + rg*rg, o.yb + yb, o.yb2 + yb*yb}, float32(0.2126*r + 0.7152*g + 0.0722*b)
}

// newSample reduces img to at most maxSide px on the long side by
// averaging each output pixel's rectangle of input pixels. Transparent
// pixels are composed onto white, as a viewer shows them. The sample's
// luma lives in sc until sc is used again.
func newSample(img image.Image, maxSide int, sc *scratch) *sample {
	b := img.Bounds()
	w, h := b.Dx(), b.Dy()
	if w <= 0 || h <= 0 {
		return &sample{}
	}
	ow, oh := w, h
	if long := max(w, h); long > maxSide {
		ow = max(1, int(math.Round(float64(w)*float64(maxSide)/float64(long))))
		oh = max(1, int(math.Round(float64(h)*float64(maxSide)/float64(long))))
	}
	pix, stride, premultiplied := rgbaPixels(img)
	sc.luma = grow(sc.luma, ow*oh)
	s := &sample{w: ow, h: oh, luma: sc.luma} // every pixel is set below
	if ow == w && oh == h {
		// Already small enough, as the pipeline's sample is: no averaging.
		var sums opponent
		for y := range h {
			row, luma := pix[y*stride:y*stride+4*w], s.luma[y*w:(y+1)*w]
			for x := range luma {
				p := row[4*x : 4*x+4 : 4*x+4]
				r, g, b := onWhite(p[0], p[1], p[2], p[3], premultiplied)
				sums, luma[x] = sums.plus(float64(r), float64(g), float64(b))
			}
		}
		s.opponent = sums
		return s
	}
	// Output column ox averages input columns xs[ox] to xs[ox+1]-1.
	sc.acc, sc.xs = grow(sc.acc, 3*ow), grow(sc.xs, ow+1)
	acc, xs := sc.acc, sc.xs
	for ox := range xs {
		xs[ox] = ox * w / ow
	}
	for oy := range oh {
		y0, y1 := oy*h/oh, (oy+1)*h/oh
		clear(acc)
		for y := y0; y < y1; y++ {
			row := pix[y*stride:]
			for ox := range ow {
				var r, g, b uint32
				for x := xs[ox]; x < xs[ox+1]; x++ {
					p := row[4*x : 4*x+4 : 4*x+4]
					pr, pg, pb := onWhite(p[0], p[1], p[2], p[3], premultiplied)
					r, g, b = r+pr, g+pg, b+pb
				}
				acc[3*ox] += r
				acc[3*ox+1] += g
				acc[3*ox+2] += b
			}
		}
		for ox := range ow {
			n := float64((y1 - y0) * (xs[ox+1] - xs[ox]))
			s.opponent, s.luma[oy*ow+ox] = s.plus(float64(acc[3*ox])/n, float64(acc[3*ox+1])/n, float64(acc[3*ox+2])/n)
		}
	}
	return s
}

// colorfulness is Hasler and Süsstrunk's M: σ_rgyb + 0.3·μ_rgyb, where
// σ_rgyb = √(σ_rg² + σ_yb²) and μ_rgyb = √(μ_rg² + μ_yb²).
func (s *sample) colorfulness() float64 {
	n := float64(s.w * s.h)
	mrg, myb := s.rg/n, s.yb/n
	vrg := max(0, s.rg2/n-mrg*mrg)
	vyb := max(0, s.yb2/n-myb*myb)
	return math.Sqrt(vrg+vyb) + 0.3*math.Sqrt(mrg*mrg+myb*myb)
}

// onWhite returns a pixel's colour composed onto a white background.
func onWhite(r, g, b, a uint8, premultiplied bool) (uint32, uint32, uint32) {
	if a == 255 {
		return uint32(r), uint32(g), uint32(b)
	}
	bg := 255 - uint32(a)
	if premultiplied {
		return uint32(r) + bg, uint32(g) + bg, uint32(b) + bg
	}
	al := uint32(a)
	return (uint32(r)*al+127)/255 + bg, (uint32(g)*al+127)/255 + bg, (uint32(b)*al+127)/255 + bg
}

// rgbaPixels returns img's pixels as 8-bit RGBA rows starting at its
// bounds' minimum, and whether they are alpha-premultiplied. NRGBA and RGBA
// images are read in place; others are converted once by image/draw, which
// has fast paths for the decoders' YCbCr and Gray.
func rgbaPixels(img image.Image) (pix []byte, stride int, premultiplied bool) {
	b := img.Bounds()
	switch m := img.(type) {
	case *image.NRGBA:
		return m.Pix[m.PixOffset(b.Min.X, b.Min.Y):], m.Stride, false
	case *image.RGBA:
		return m.Pix[m.PixOffset(b.Min.X, b.Min.Y):], m.Stride, true
	}
	rgba := image.NewRGBA(image.Rect(0, 0, b.Dx(), b.Dy()))
	draw.Draw(rgba, rgba.Bounds(), img, b.Min, draw.Src)
	return rgba.Pix, rgba.Stride, true
}
