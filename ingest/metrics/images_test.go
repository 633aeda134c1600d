package metrics_test

import (
	"bytes"
	"image"
	"image/color"
	"image/jpeg"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/require"
	"golang.org/x/image/draw"
)

// picture is a function from normalised coordinates (0..1) to a colour.
type picture func(x, y float64) color.RGBA

// render draws p at w×h.
func render(w, h int, p picture) *image.RGBA {
	img := image.NewRGBA(image.Rect(0, 0, w, h))
	for y := range h {
		for x := range w {
			img.SetRGBA(x, y, p((float64(x)+0.5)/float64(w), (float64(y)+0.5)/float64(h)))
		}
	}
	return img
}

func rgb(r, g, b float64) color.RGBA {
	c := func(v float64) uint8 { return uint8(math.Round(min(max(v, 0), 255))) }
	return color.RGBA{c(r), c(g), c(b), 255}
}

// Distinct pictures for the perceptual hash: each has its own large-scale
// layout, as different photos do.
var (
	landscape picture = func(x, y float64) color.RGBA { // sky, sun, hills
		switch {
		case (x-0.7)*(x-0.7)+(y-0.25)*(y-0.25) < 0.01:
			return rgb(250, 220, 90)
		case y > 0.6+0.1*math.Sin(7*x):
			return rgb(40, 120+60*y, 50)
		}
		return rgb(90+80*y, 150+60*y, 230)
	}
	rings picture = func(x, y float64) color.RGBA {
		d := math.Hypot(x-0.4, y-0.55)
		v := 128 + 110*math.Cos(18*d)
		return rgb(v, v*0.8, 255-v)
	}
	diagonal picture = func(x, y float64) color.RGBA {
		v := 128 + 120*math.Sin(9*(x+2*y))
		return rgb(v, 255-v, 128)
	}
	// portrait is a face-like blob on a dark wall, off-centre: a mirror-
	// symmetric picture has half its DCT coefficients near zero, around
	// the median, where bits flip easily (real photos rarely are).
	portrait picture = func(x, y float64) color.RGBA {
		if (x-0.4)*(x-0.4)/0.04+(y-0.4)*(y-0.4)/0.08 < 1 {
			return rgb(230, 180, 150)
		}
		if y > 0.75 {
			return rgb(30, 30, 90)
		}
		return rgb(60+40*x, 50, 45)
	}
	mosaic picture = func() picture {
		rng := rand.New(rand.NewPCG(3, 5))
		var cells [6][6]color.RGBA
		for i := range cells {
			for j := range cells[i] {
				cells[i][j] = rgb(float64(rng.IntN(256)), float64(rng.IntN(256)), float64(rng.IntN(256)))
			}
		}
		return func(x, y float64) color.RGBA { return cells[int(y*6)][int(x*6)] }
	}()
)

// checkerboard is black and white squares of side px.
func checkerboard(w, h, side int) *image.RGBA {
	return render(w, h, func(x, y float64) color.RGBA {
		if (int(x*float64(w))/side+int(y*float64(h))/side)%2 == 0 {
			return rgb(20, 20, 20)
		}
		return rgb(235, 235, 235)
	})
}

// blur is a box blur of the given radius, applied three times (close to a
// Gaussian of σ ≈ radius).
func blur(src *image.RGBA, radius int) *image.RGBA {
	img := src
	for range 3 {
		img = boxPass(boxPass(img, radius, 1, 0), radius, 0, 1)
	}
	return img
}

func boxPass(src *image.RGBA, r, dx, dy int) *image.RGBA {
	b := src.Bounds()
	dst := image.NewRGBA(b)
	for y := b.Min.Y; y < b.Max.Y; y++ {
		for x := b.Min.X; x < b.Max.X; x++ {
			var sum [3]int
			n := 0
			for k := -r; k <= r; k++ {
				p := image.Pt(x+k*dx, y+k*dy)
				if !p.In(b) {
					continue
				}
				o := src.PixOffset(p.X, p.Y)
				sum[0], sum[1], sum[2] = sum[0]+int(src.Pix[o]), sum[1]+int(src.Pix[o+1]), sum[2]+int(src.Pix[o+2])
				n++
			}
			o := dst.PixOffset(x, y)
			dst.Pix[o], dst.Pix[o+1], dst.Pix[o+2], dst.Pix[o+3] = uint8(sum[0]/n), uint8(sum[1]/n), uint8(sum[2]/n), 255
		}
	}
	return dst
}

// noisy adds Gaussian noise of standard deviation sigma, the same to the
// three channels, so the luma's noise has that σ too (independent noise
// per channel would give 0.75σ in Rec. 709 luma).
func noisy(src *image.RGBA, sigma float64, seed uint64) *image.RGBA {
	rng := rand.New(rand.NewPCG(seed, seed))
	dst := image.NewRGBA(src.Bounds())
	copy(dst.Pix, src.Pix)
	for i := 0; i < len(dst.Pix); i += 4 {
		n := rng.NormFloat64() * sigma
		for c := i; c < i+3; c++ {
			dst.Pix[c] = uint8(math.Round(min(max(float64(dst.Pix[c])+n, 0), 255)))
		}
	}
	return dst
}

// scale resizes img to w×h with Catmull-Rom, another resampler than the
// area averaging the package uses.
func scale(img image.Image, w, h int) *image.RGBA {
	dst := image.NewRGBA(image.Rect(0, 0, w, h))
	draw.CatmullRom.Scale(dst, dst.Bounds(), img, img.Bounds(), draw.Src, nil)
	return dst
}

// recompress round-trips img through JPEG at quality q.
func recompress(t testing.TB, img image.Image, q int) image.Image {
	t.Helper()
	var buf bytes.Buffer
	require.NoError(t, jpeg.Encode(&buf, img, &jpeg.Options{Quality: q}))
	out, err := jpeg.Decode(&buf)
	require.NoError(t, err)
	return out
}
