package ocr

import (
	"context"
	"fmt"
	"math"
	"strings"

	"github.com/photoctl/photoctl/ml/internal/raster"
	"github.com/photoctl/photoctl/ml/onnx"
)

const (
	// recHeight is the recogniser's input height; recMinWidth the width
	// PaddleOCR pads short lines to (its rec_image_shape 3×48×320).
	recHeight   = 48
	recMinWidth = 320
	// recMaxWidth bounds one line's input; longer lines are squeezed.
	recMaxWidth = 3200
	// vertical: a crop this much taller than wide is a vertical line and
	// is turned to read left to right, as PaddleOCR does.
	vertical = 1.5
)

// recognize crops the line q out of src, upright, and reads it: the text
// and the mean confidence of its characters.
func (r *Reader) recognize(ctx context.Context, src *raster.Image, q quad) (string, float64, error) {
	w, h := q.size()
	if w < 1 || h < 1 {
		return "", 0, nil
	}
	// Map the output's corners to the quad's: (0,0) → top-left,
	// (ow,0) → top-right, (0,oh) → bottom-left; a vertical line is turned
	// a quarter counter-clockwise so it reads left to right.
	tl, tr, bl := q[0], q[1], q[3]
	if h/w >= vertical {
		w, h = h, w
		tl, tr, bl = q[1], q[2], q[0]
	}
	ow := min(recMaxWidth, max(1, int(math.Ceil(recHeight*w/h))))
	toSrc := raster.Affine{
		A: (tr[0] - tl[0]) / float64(ow), B: (bl[0] - tl[0]) / recHeight, C: tl[0],
		D: (tr[1] - tl[1]) / float64(ow), E: (bl[1] - tl[1]) / recHeight, F: tl[1],
	}
	crop := src.Warp(ow, recHeight, toSrc, true)
	width := max(ow, recMinWidth)
	data := make([]float32, 3*recHeight*width) // zero: mid-gray once normalised
	planar := crop.Planar(true, [3]float32{127.5, 127.5, 127.5}, [3]float32{127.5, 127.5, 127.5})
	for c := 0; c < 3; c++ {
		for y := 0; y < recHeight; y++ {
			copy(data[(c*recHeight+y)*width:], planar[(c*recHeight+y)*ow:(c*recHeight+y+1)*ow])
		}
	}
	out, err := r.rec.Run(ctx, onnx.Tensor{Shape: []int64{1, 3, recHeight, int64(width)}, Data: data})
	if err != nil {
		return "", 0, fmt.Errorf("ocr: recognize: %w", err)
	}
	s := out[0].Shape
	if len(s) != 3 || s[2] != int64(len(r.dict)+1) {
		return "", 0, fmt.Errorf("ocr: recogniser gave shape %v", s)
	}
	text, score := r.decode(out[0].Data, int(s[1]), int(s[2]))
	return text, score, nil
}

// decode is CTC's greedy decoding: the likeliest class at each step,
// repeats merged, blanks (class 0) dropped. The score is the mean
// probability of the characters kept.
func (r *Reader) decode(probs []float32, steps, classes int) (string, float64) {
	var b strings.Builder
	var sum float64
	var n int
	prev := 0
	for t := 0; t < steps; t++ {
		row := probs[t*classes : (t+1)*classes]
		best, p := 0, row[0]
		for k, v := range row {
			if v > p {
				best, p = k, v
			}
		}
		if best != 0 && best != prev {
			b.WriteString(r.dict[best-1])
			sum += float64(p)
			n++
		}
		prev = best
	}
	if n == 0 {
		return "", 0
	}
	return strings.TrimSpace(b.String()), sum / float64(n)
}
