package faces

import (
	"context"
	"fmt"
	"image"
	"math"

	"github.com/photoctl/photoctl/ml"
	"github.com/photoctl/photoctl/ml/internal/raster"
	"github.com/photoctl/photoctl/ml/onnx"
)

// alignSize is the side of the aligned face the embedding model reads.
const alignSize = 112

// template is where the five points (eyes, nose tip, mouth corners) sit
// in a 112×112 aligned face: the ArcFace reference, given in OpenCV's
// pixel indices, so +0.5 in the continuous coordinates used here.
var template = [5][2]float64{
	{38.2946 + 0.5, 51.6963 + 0.5},
	{73.5318 + 0.5, 51.5014 + 0.5},
	{56.0252 + 0.5, 71.7366 + 0.5},
	{41.5493 + 0.5, 92.3655 + 0.5},
	{70.7299 + 0.5, 92.2041 + 0.5},
}

// alignment returns the map from the aligned face to the image: the
// similarity that takes the face's five points (image pixels) closest to
// the template, inverted.
func alignment(pts [5][2]float64) raster.Affine {
	return raster.Similarity(pts[:], template[:]).Invert()
}

// Align returns the 112×112 face the embedding model sees: the face
// rotated, scaled and moved so that its eyes, nose tip and mouth corners
// sit on the ArcFace template.
func (a *Analyzer) Align(img image.Image, face ml.Face) image.Image {
	src, toSrc := regionFor(img, face)
	return src.Warp(alignSize, alignSize, toSrc, false)
}

// Embed aligns the face (Align) and returns its embedding, of unit length.
func (a *Analyzer) Embed(ctx context.Context, img image.Image, face ml.Face) (ml.Embedding, error) {
	src, toSrc := regionFor(img, face)
	e, _, err := a.embedAligned(ctx, src.Warp(alignSize, alignSize, toSrc, false))
	return e, err
}

// embed returns the embedding of the face whose five points (pixels of
// src) are pts, and the length the model gave it before normalising: a
// measure of how face-like the aligned picture is (sanity.go).
func (a *Analyzer) embed(ctx context.Context, src *raster.Image, pts [5][2]float64) (ml.Embedding, float64, error) {
	return a.embedAligned(ctx, src.Warp(alignSize, alignSize, alignment(pts), false))
}

func (a *Analyzer) embedAligned(ctx context.Context, face *raster.Image) (ml.Embedding, float64, error) {
	a.runs.feature.Add(1)
	out, err := a.feature.Run(ctx, onnx.Tensor{
		Shape: []int64{1, 3, alignSize, alignSize},
		Data:  face.Planar(false, [3]float32{127, 127, 127}, [3]float32{128, 128, 128}),
	})
	if err != nil {
		return nil, 0, fmt.Errorf("faces: embed: %w", err)
	}
	v := out[0].Data
	if len(v) != ml.EmbeddingSize {
		return nil, 0, fmt.Errorf("faces: embedding model gave %d values, want %d", len(v), ml.EmbeddingSize)
	}
	var norm float64
	for _, x := range v {
		norm += float64(x) * float64(x)
	}
	if norm == 0 {
		return nil, 0, fmt.Errorf("faces: embedding model gave a zero vector")
	}
	inv := float32(1 / math.Sqrt(norm))
	e := make(ml.Embedding, len(v))
	for i, x := range v {
		e[i] = x * inv
	}
	return e, math.Sqrt(norm), nil
}

// regionFor converts only the part of img the aligned face is taken from
// and returns it with the map from the aligned face into it.
func regionFor(img image.Image, face ml.Face) (*raster.Image, raster.Affine) {
	b := img.Bounds()
	var pts [5][2]float64
	for i, p := range face.Points5() {
		x, y := p.Pixels(b)
		pts[i] = [2]float64{x, y}
	}
	toSrc := alignment(pts)
	x0, y0, x1, y1 := math.Inf(1), math.Inf(1), math.Inf(-1), math.Inf(-1)
	for _, c := range [4][2]float64{{0, 0}, {alignSize, 0}, {0, alignSize}, {alignSize, alignSize}} {
		x, y := toSrc.Apply(c[0], c[1])
		x0, y0, x1, y1 = math.Min(x0, x), math.Min(y0, y), math.Max(x1, x), math.Max(y1, y)
	}
	r := image.Rect(int(math.Floor(x0))-2, int(math.Floor(y0))-2, int(math.Ceil(x1))+2, int(math.Ceil(y1))+2).Intersect(b)
	sub, ok := img.(interface {
		SubImage(image.Rectangle) image.Image
	})
	if r.Empty() || !ok {
		r = b
	} else {
		img = sub.SubImage(r)
	}
	toSrc.C -= float64(r.Min.X)
	toSrc.F -= float64(r.Min.Y)
	return raster.FromImage(img), toSrc
}
