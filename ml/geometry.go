package ml

import "image"

// Point is a position in an image as fractions (0..1) of the image's
// width (X) and height (Y), so it holds for any size of the same picture.
type Point struct {
	X, Y float64
}

// Box is an axis-aligned rectangle as fractions (0..1) of the image's
// width and height: the top-left corner (X, Y) and the size, as the API's
// bounding_box (decisions.md, "Assets").
type Box struct {
	X, Y, Width, Height float64
}

// Pixels returns b in the pixel coordinates of an image with bounds r.
func (b Box) Pixels(r image.Rectangle) (x0, y0, x1, y1 float64) {
	w, h := float64(r.Dx()), float64(r.Dy())
	x0 = float64(r.Min.X) + b.X*w
	y0 = float64(r.Min.Y) + b.Y*h
	return x0, y0, x0 + b.Width*w, y0 + b.Height*h
}

// BoxOf returns the pixel rectangle x0,y0–x1,y1 of an image with bounds r
// as fractions, clipped to the image.
func BoxOf(r image.Rectangle, x0, y0, x1, y1 float64) Box {
	w, h := float64(r.Dx()), float64(r.Dy())
	clip := func(v, lo, hi float64) float64 { return min(max(v, lo), hi) }
	x0 = clip(x0-float64(r.Min.X), 0, w)
	x1 = clip(x1-float64(r.Min.X), 0, w)
	y0 = clip(y0-float64(r.Min.Y), 0, h)
	y1 = clip(y1-float64(r.Min.Y), 0, h)
	return Box{X: x0 / w, Y: y0 / h, Width: (x1 - x0) / w, Height: (y1 - y0) / h}
}

// PointOf returns the pixel position x, y of an image with bounds r as
// fractions (not clipped: a landmark may lie outside the picture).
func PointOf(r image.Rectangle, x, y float64) Point {
	return Point{X: (x - float64(r.Min.X)) / float64(r.Dx()), Y: (y - float64(r.Min.Y)) / float64(r.Dy())}
}

// Pixels returns p in the pixel coordinates of an image with bounds r.
func (p Point) Pixels(r image.Rectangle) (x, y float64) {
	return float64(r.Min.X) + p.X*float64(r.Dx()), float64(r.Min.Y) + p.Y*float64(r.Dy())
}
