package variant

import (
	"fmt"
	"math"
	"runtime"

	"github.com/davidbyttow/govips/v2/vips"
)

// FaceSize is the largest side, in pixels, of a face thumbnail. Smaller
// crops are not enlarged.
const FaceSize = 250

// faceMargin widens a face's box on each side (as a fraction of its longer
// side), so the thumbnail shows the head, not just the detector's box.
const faceMargin = 0.2

// maxCropPixels bounds the images CropFace decodes. It is given renderings
// (previews of at most PreviewSize px), so anything far larger is refused
// rather than decoded.
const maxCropPixels = 100_000_000

// cropSlots bounds how many crops decode at once.
var cropSlots = make(chan struct{}, runtime.NumCPU())

// CropFace cuts a face out of an encoded, upright image (a preview): the
// box is given as fractions of the image's width and height (top-left
// corner and size). The crop is the box widened by a margin and made
// square, kept inside the image, scaled down to at most FaceSize px and
// encoded as WebP without metadata. It returns the bytes and their MIME
// type. An empty or out-of-range box is an error.
func CropFace(img []byte, x, y, width, height float64) ([]byte, string, error) {
	for _, v := range []float64{x, y, width, height} {
		if math.IsNaN(v) || v < 0 || v > 1 {
			return nil, "", fmt.Errorf("crop face: box %v,%v %vx%v is not within 0..1", x, y, width, height)
		}
	}
	if width <= 0 || height <= 0 {
		return nil, "", fmt.Errorf("crop face: box %vx%v is empty", width, height)
	}
	startVips()
	cropSlots <- struct{}{}
	defer func() { <-cropSlots }()
	ref, err := vips.NewImageFromBuffer(img)
	if err != nil {
		return nil, "", fmt.Errorf("crop face: decode: %v: %w", err, ErrUnsupported)
	}
	defer ref.Close()
	w, h := ref.Width(), ref.Height()
	if int64(w)*int64(h) > maxCropPixels {
		return nil, "", fmt.Errorf("crop face: %dx%d: %w", w, h, ErrTooLarge)
	}
	left, top, side := faceSquare(w, h, x, y, width, height)
	if err := ref.ExtractArea(left, top, side, side); err != nil {
		return nil, "", fmt.Errorf("crop face: extract: %w", err)
	}
	if side > FaceSize {
		if err := ref.Resize(float64(FaceSize)/float64(side), vips.KernelLanczos3); err != nil {
			return nil, "", fmt.Errorf("crop face: scale: %w", err)
		}
	}
	if err := toSRGB(ref, false); err != nil {
		return nil, "", fmt.Errorf("crop face: %w", err)
	}
	out, err := encode(ref, FormatWebP, 82)
	if err != nil {
		return nil, "", fmt.Errorf("crop face: %w", err)
	}
	return out, "image/webp", nil
}

// faceSquare is the pixel square CropFace cuts from a w×h image for a box
// in fractions: centred on the box, its longer side plus the margins,
// shrunk to fit the image and moved inside it. The side is at least 1.
func faceSquare(w, h int, x, y, width, height float64) (left, top, side int) {
	bw, bh := width*float64(w), height*float64(h)
	s := max(bw, bh) * (1 + 2*faceMargin)
	side = max(1, min(int(math.Round(s)), w, h))
	cx, cy := (x+width/2)*float64(w), (y+height/2)*float64(h)
	left = min(max(0, int(math.Round(cx-float64(side)/2))), w-side)
	top = min(max(0, int(math.Round(cy-float64(side)/2))), h-side)
	return left, top, side
}
