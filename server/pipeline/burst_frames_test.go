package pipeline_test

import (
	"bytes"
	"image"
	"image/draw"
	"image/jpeg"
	"os"
	"path/filepath"
	"sync"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/photoctl/photoctl/ingest/variant"
)

// Burst frames: the shots of a burst are one real photo seen through a
// slightly moved camera (a crop window shifted by a few per cent), a
// little brighter or darker, sometimes blurred by a shake. The helpers
// below make such frames from the real camera photos in the module cache.

// realPhotos are distinct real photos (and one illustration) from the test
// data of modules in the build list: a Canon portrait, an illustrated
// landscape, a product shot, a black-and-white macro, two Samsung phone
// snapshots and a Nikon street photo.
func realPhotos(t *testing.T) []string {
	return []string{
		govips(t, "jpg-24bit-rgb-no-icc.jpg"),
		govips(t, "jpg-24bit-icc-iec.jpg"),
		govips(t, "jpg-32bit-cmyk-icc-swop.jpg"),
		govips(t, "jpg-8bit-grey-icc-dot-gain.jpg"),
		govips(t, "jpg-orientation-6.jpg"),
		govips(t, "orientation-issue-1.jpg"),
		goexif(t, "exif/sample1.jpg"),
	}
}

// photoRenderer makes the previews burst frames are cut from, for the
// whole test binary (libvips is loaded once per process anyway).
var photoRenderer = sync.OnceValues(func() (*variant.Renderer, error) {
	return variant.NewRenderer(variant.Config{Concurrency: 2, Format: "jpeg", Quality: 95})
})

// loadPhoto returns the upright preview (1440 px on the long side) libvips
// makes of a photo, decoded: a burst test needs no 12 MP frames, and
// libvips shrinks on load where Go would decode every pixel.
func loadPhoto(t testing.TB, path string) *image.NRGBA {
	t.Helper()
	photos.Lock()
	defer photos.Unlock()
	if img, ok := photos.byPath[path]; ok {
		return img
	}
	img := decodePhoto(t, path)
	photos.byPath[path] = img
	return img
}

// photos are the photos loadPhoto decoded, read-only after: the burst
// tests make their frames from the same few (decoding is slow under -race).
var photos = struct {
	sync.Mutex
	byPath map[string]*image.NRGBA
}{byPath: map[string]*image.NRGBA{}}

// frameJPEG is frame fr of photo encoded as a JPEG, made once per photo
// and frame for every test (the burst tests' files differ in their tags).
func frameJPEG(t testing.TB, photo *image.NRGBA, fr frame) []byte {
	t.Helper()
	type key struct {
		photo *image.NRGBA
		fr    frame
	}
	v, _ := frameJPEGs.LoadOrStore(key{photo, fr}, sync.OnceValues(func() ([]byte, error) {
		var buf bytes.Buffer
		err := jpeg.Encode(&buf, opaqueRGBA(fr.of(photo)), &jpeg.Options{Quality: 90})
		return buf.Bytes(), err
	}))
	data, err := v.(func() ([]byte, error))()
	require.NoError(t, err)
	return data
}

var frameJPEGs sync.Map

// writeFrame writes frame fr of photo as dir/name and returns the path.
func writeFrame(t testing.TB, dir, name string, photo *image.NRGBA, fr frame) string {
	t.Helper()
	path := filepath.Join(dir, name)
	require.NoError(t, os.WriteFile(path, frameJPEG(t, photo, fr), 0o600))
	return path
}

func decodePhoto(t testing.TB, path string) *image.NRGBA {
	t.Helper()
	r, err := photoRenderer()
	require.NoError(t, err)
	res, err := r.Render(t.Context(), path, "image/jpeg")
	require.NoError(t, err, path)
	img, err := jpeg.Decode(bytes.NewReader(res.Preview))
	require.NoError(t, err, path)
	out := image.NewNRGBA(img.Bounds())
	draw.Draw(out, out.Bounds(), img, img.Bounds().Min, draw.Src)
	return out
}

// frame is one burst shot made from a photo: the window of 94% of the
// photo's width and height whose top-left corner lies dx, dy (fractions
// of the photo, 0..0.06) from the photo's, its brightness times gain, and
// blurred with a box of radius blur px (twice, near a Gaussian) when
// blur > 0.
type frame struct {
	dx, dy float64
	gain   float64
	blur   int
}

// steady is the frame in the middle: no shift, gain or blur.
var steady = frame{dx: 0.03, dy: 0.03, gain: 1}

func (fr frame) of(photo *image.NRGBA) *image.NRGBA {
	b := photo.Bounds()
	w, h := b.Dx()*94/100, b.Dy()*94/100
	x0, y0 := int(fr.dx*float64(b.Dx())), int(fr.dy*float64(b.Dy()))
	out := image.NewNRGBA(image.Rect(0, 0, w, h))
	for y := range h { // rows copied as they are: draw.Draw has no fast path for NRGBA
		copy(out.Pix[y*out.Stride:y*out.Stride+w*4], photo.Pix[photo.PixOffset(b.Min.X+x0, b.Min.Y+y0+y):])
	}
	if fr.gain != 1 {
		for i := 0; i < len(out.Pix); i += 4 {
			for c := range 3 {
				out.Pix[i+c] = uint8(min(255, float64(out.Pix[i+c])*fr.gain+0.5))
			}
		}
	}
	if fr.blur > 0 {
		boxBlur(out, fr.blur)
		boxBlur(out, fr.blur)
	}
	return out
}

// boxBlur blurs img in place with a (2r+1)² box, rows then columns, with
// running sums (the box's size does not change the cost).
func boxBlur(img *image.NRGBA, r int) {
	w, h := img.Bounds().Dx(), img.Bounds().Dy()
	pass := func(n, lines int, at func(line, i int) int) {
		src := make([]int, n*3)
		for l := range lines {
			for i := range n {
				p := at(l, i)
				src[i*3], src[i*3+1], src[i*3+2] = int(img.Pix[p]), int(img.Pix[p+1]), int(img.Pix[p+2])
			}
			var sum [3]int
			lo, hi := 0, -1 // the window src[lo..hi] of pixel i
			for i := range n {
				for hi < min(n-1, i+r) {
					hi++
					for c := range 3 {
						sum[c] += src[hi*3+c]
					}
				}
				for lo < i-r {
					for c := range 3 {
						sum[c] -= src[lo*3+c]
					}
					lo++
				}
				p := at(l, i)
				for c := range 3 {
					img.Pix[p+c] = uint8(sum[c] / (hi - lo + 1))
				}
			}
		}
	}
	pass(w, h, func(y, x int) int { return y*img.Stride + x*4 })
	pass(h, w, func(x, y int) int { return y*img.Stride + x*4 })
}

// writeJPEG encodes img at quality 90 into dir/name and returns the path.
func writeJPEG(t testing.TB, dir, name string, img image.Image) string {
	t.Helper()
	path := filepath.Join(dir, name)
	f, err := os.Create(path)
	require.NoError(t, err)
	require.NoError(t, jpeg.Encode(f, opaqueRGBA(img), &jpeg.Options{Quality: 90}))
	require.NoError(t, f.Close())
	return path
}

// opaqueRGBA passes an opaque NRGBA to the JPEG encoder as RGBA: the same
// pixels (nothing to premultiply) through its fast path, not At for every
// pixel.
func opaqueRGBA(img image.Image) image.Image {
	if n, ok := img.(*image.NRGBA); ok && n.Opaque() {
		return &image.RGBA{Pix: n.Pix, Stride: n.Stride, Rect: n.Rect}
	}
	return img
}
