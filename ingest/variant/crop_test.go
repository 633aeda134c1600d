package variant_test

import (
	"bytes"
	"image"
	"image/color"
	"image/png"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/photoctl/photoctl/ingest/variant"
)

// encodePNG encodes img losslessly, so crops can be checked by colour.
func encodePNG(t *testing.T, img image.Image) []byte {
	t.Helper()
	var buf bytes.Buffer
	require.NoError(t, png.Encode(&buf, img))
	return buf.Bytes()
}

func TestCropFaceCutsAroundTheBox(t *testing.T) {
	// A grey 1000×500 image with a red 100×100 "face" at (600, 200).
	img := image.NewRGBA(image.Rect(0, 0, 1000, 500))
	fill(img, img.Bounds(), color.RGBA{128, 128, 128, 255})
	fill(img, image.Rect(600, 200, 700, 300), color.RGBA{255, 0, 0, 255})
	src := encodePNG(t, img)

	out, mime, err := variant.CropFace(src, 0.6, 0.4, 0.1, 0.2)
	require.NoError(t, err)
	require.Equal(t, "image/webp", mime)
	crop := decode(t, out)
	b := crop.Bounds()
	require.Equal(t, 140, b.Dx(), "the box's longer side (100 px) plus 20% margins")
	require.Equal(t, b.Dx(), b.Dy(), "square")
	r, g, _, _ := crop.At(b.Dx()/2, b.Dy()/2).RGBA()
	require.Greater(t, r>>8, uint32(200), "the face is in the middle")
	require.Less(t, g>>8, uint32(60))
	r, g, _, _ = crop.At(2, 2).RGBA()
	require.InDelta(t, 128, int(r>>8), 20, "the margin shows the surroundings")
	require.InDelta(t, 128, int(g>>8), 20)
}

func TestCropFaceStaysInsideTheImageAndScalesDown(t *testing.T) {
	img := image.NewRGBA(image.Rect(0, 0, 1440, 960))
	fill(img, img.Bounds(), color.RGBA{0, 0, 255, 255})
	src := encodePNG(t, img)

	t.Run("a box in a corner is moved inside", func(t *testing.T) {
		out, _, err := variant.CropFace(src, 0, 0.9, 0.05, 0.1)
		require.NoError(t, err)
		b := decode(t, out).Bounds()
		require.Equal(t, b.Dx(), b.Dy())
		require.LessOrEqual(t, b.Dx(), variant.FaceSize)
	})
	t.Run("a box larger than FaceSize is scaled down to it", func(t *testing.T) {
		out, _, err := variant.CropFace(src, 0.1, 0.1, 0.8, 0.8)
		require.NoError(t, err)
		b := decode(t, out).Bounds()
		require.Equal(t, variant.FaceSize, b.Dx())
		require.Equal(t, variant.FaceSize, b.Dy())
	})
	t.Run("an empty or outside box is refused", func(t *testing.T) {
		for _, box := range [][4]float64{{0.1, 0.1, 0, 0.2}, {-0.1, 0, 0.2, 0.2}, {0.5, 0.5, 1.5, 0.2}} {
			_, _, err := variant.CropFace(src, box[0], box[1], box[2], box[3])
			require.Error(t, err, "%v", box)
		}
	})
	t.Run("bytes that are no image are refused", func(t *testing.T) {
		_, _, err := variant.CropFace([]byte("not an image"), 0.1, 0.1, 0.2, 0.2)
		require.ErrorIs(t, err, variant.ErrUnsupported)
	})
}
