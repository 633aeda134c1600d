// Package raster is the pure-Go image arithmetic the models need: an
// 8-bit RGB buffer, antialiased resizing of a region, affine warps, and
// packing into planar float tensors.
//
// Coordinates are continuous: pixel (i, j) covers [i, i+1) × [j, j+1) and
// its centre is (i+0.5, j+0.5). Points from the models and the boxes of the
// ml package use the same convention.
package raster

import (
	"image"
	"image/color"
)

// Image is an 8-bit RGB image: W×H pixels, row by row, 3 bytes each.
type Image struct {
	W, H int
	Pix  []uint8
}

// New returns a black w×h image.
func New(w, h int) *Image {
	return &Image{W: w, H: h, Pix: make([]uint8, w*h*3)}
}

// FromImage copies img into an RGB Image, ignoring alpha (photos are
// opaque). The common decoded types take a fast path.
func FromImage(img image.Image) *Image {
	b := img.Bounds()
	m := New(b.Dx(), b.Dy())
	switch src := img.(type) {
	case *Image:
		copy(m.Pix, src.Pix)
	case *image.NRGBA:
		copyRGBA(m, src.Pix, src.Stride, src.PixOffset(b.Min.X, b.Min.Y))
	case *image.RGBA:
		copyRGBA(m, src.Pix, src.Stride, src.PixOffset(b.Min.X, b.Min.Y))
	case *image.YCbCr:
		i := 0
		for y := b.Min.Y; y < b.Max.Y; y++ {
			for x := b.Min.X; x < b.Max.X; x++ {
				yi, ci := src.YOffset(x, y), src.COffset(x, y)
				m.Pix[i], m.Pix[i+1], m.Pix[i+2] = color.YCbCrToRGB(src.Y[yi], src.Cb[ci], src.Cr[ci])
				i += 3
			}
		}
	case *image.Gray:
		i := 0
		for y := b.Min.Y; y < b.Max.Y; y++ {
			row := src.Pix[src.PixOffset(b.Min.X, y):]
			for x := 0; x < m.W; x++ {
				m.Pix[i], m.Pix[i+1], m.Pix[i+2] = row[x], row[x], row[x]
				i += 3
			}
		}
	default:
		i := 0
		for y := b.Min.Y; y < b.Max.Y; y++ {
			for x := b.Min.X; x < b.Max.X; x++ {
				c := color.NRGBAModel.Convert(img.At(x, y)).(color.NRGBA)
				m.Pix[i], m.Pix[i+1], m.Pix[i+2] = c.R, c.G, c.B
				i += 3
			}
		}
	}
	return m
}

func copyRGBA(m *Image, pix []uint8, stride, off int) {
	i := 0
	for y := 0; y < m.H; y++ {
		row := pix[off+y*stride:]
		for x := 0; x < m.W; x++ {
			m.Pix[i], m.Pix[i+1], m.Pix[i+2] = row[4*x], row[4*x+1], row[4*x+2]
			i += 3
		}
	}
}

// ColorModel, Bounds and At make an Image an image.Image (for tests and
// debugging output).
func (m *Image) ColorModel() color.Model { return color.RGBAModel }

// Bounds is (0,0)–(W,H).
func (m *Image) Bounds() image.Rectangle { return image.Rect(0, 0, m.W, m.H) }

// At returns the pixel at x, y; black outside the image.
func (m *Image) At(x, y int) color.Color {
	if x < 0 || y < 0 || x >= m.W || y >= m.H {
		return color.RGBA{A: 255}
	}
	i := (y*m.W + x) * 3
	return color.RGBA{R: m.Pix[i], G: m.Pix[i+1], B: m.Pix[i+2], A: 255}
}

// Mirror returns m flipped left to right.
func (m *Image) Mirror() *Image {
	out := New(m.W, m.H)
	for y := 0; y < m.H; y++ {
		for x := 0; x < m.W; x++ {
			s, d := (y*m.W+x)*3, (y*m.W+m.W-1-x)*3
			copy(out.Pix[d:d+3], m.Pix[s:s+3])
		}
	}
	return out
}

// Planar packs m into a 3×H×W tensor, channel order R, G, B (or B, G, R
// when bgr), each value v becoming (v-mean[c])/std[c].
func (m *Image) Planar(bgr bool, mean, std [3]float32) []float32 {
	n := m.W * m.H
	out := make([]float32, 3*n)
	var inv [3]float32
	for c := range inv {
		inv[c] = 1 / std[c]
	}
	for i := 0; i < n; i++ {
		for c := 0; c < 3; c++ {
			d := c
			if bgr {
				d = 2 - c
			}
			out[d*n+i] = (float32(m.Pix[3*i+c]) - mean[d]) * inv[d]
		}
	}
	return out
}

// Gray returns the luma (BT.601) of every pixel, row by row, scaled by
// scale.
func (m *Image) Gray(scale float32) []float32 {
	out := make([]float32, m.W*m.H)
	for i := range out {
		r, g, b := float32(m.Pix[3*i]), float32(m.Pix[3*i+1]), float32(m.Pix[3*i+2])
		out[i] = (0.299*r + 0.587*g + 0.114*b) * scale
	}
	return out
}
