package metrics_test

import (
	"bytes"
	"image"
	"image/jpeg"
	_ "image/png"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/require"
	"golang.org/x/image/draw"

	"github.com/photoctl/photoctl/ingest/metrics"
)

// realPhotos decodes the test photos `make models` fetches
// ($PHOTOCTL_ML_DIR/photos, else .cache/ml/photos at the module root);
// without them the test is skipped.
func realPhotos(t testing.TB) map[string]image.Image {
	t.Helper()
	dir := os.Getenv("PHOTOCTL_ML_DIR")
	if dir == "" {
		dir = filepath.Join("..", "..", ".cache", "ml")
	}
	names := []string{"skimage-astronaut.png", "skimage-chelsea.png", "pigo-sample.jpg",
		"face-api-sample1.jpg", "face-api-sample2.jpg", "face-api-sample3.jpg",
		"face-api-sample4.jpg", "face-api-sample5.jpg", "face-api-sample6.jpg"}
	out := map[string]image.Image{}
	for _, n := range names {
		f, err := os.Open(filepath.Join(dir, "photos", n))
		if os.IsNotExist(err) {
			t.Skipf("no test photos in %s; run `make models`", dir)
		}
		require.NoError(t, err)
		img, _, err := image.Decode(f)
		f.Close()
		require.NoError(t, err, n)
		out[n] = img
	}
	return out
}

// crop returns the part of img at fractions x, y of its size, side of
// each side, as a new image.
func crop(img image.Image, x, y, side float64) *image.RGBA {
	b := img.Bounds()
	r := image.Rect(b.Min.X+int(x*float64(b.Dx())), b.Min.Y+int(y*float64(b.Dy())),
		b.Min.X+int((x+side)*float64(b.Dx())), b.Min.Y+int((y+side)*float64(b.Dy())))
	out := image.NewRGBA(image.Rect(0, 0, r.Dx(), r.Dy()))
	draw.Draw(out, out.Bounds(), img, r.Min, draw.Src)
	return out
}

// scaledJPEG scales img by f and recompresses it at quality 70.
func scaledJPEG(t testing.TB, img image.Image, f float64) image.Image {
	b := img.Bounds()
	dst := image.NewRGBA(image.Rect(0, 0, int(float64(b.Dx())*f), int(float64(b.Dy())*f)))
	draw.CatmullRom.Scale(dst, dst.Bounds(), img, b, draw.Src, nil)
	var buf bytes.Buffer
	require.NoError(t, jpeg.Encode(&buf, dst, &jpeg.Options{Quality: 70}))
	out, err := jpeg.Decode(&buf)
	require.NoError(t, err)
	return out
}

// indexed returns what image search indexes of a photo: its hash and its
// crops' hashes.
func indexed(m metrics.Metrics) []string {
	out := []string{m.PHash}
	for _, c := range m.Crops {
		out = append(out, c.PHash)
	}
	return out
}

// nearest is the least distance between a search image's hashes (its own
// and its mirror's) and a photo's indexed hashes.
func nearest(q metrics.Metrics, photo []string) int {
	best := 64
	for _, a := range []string{q.PHash, q.MirrorPHash} {
		for _, b := range photo {
			best = min(best, metrics.HammingDistance(a, b))
		}
	}
	return best
}

// searchDistance is image search's largest distance (server/search).
const searchDistance = 12

// TestCropHashesFindCrops: a mirror image, a crop down to 80% at the
// centre or a corner and a scaled copy of a real photo lie within a few
// bits of one of the photo's indexed hashes (its own or a crop's), and
// every other photo's are beyond image search's distance. Crops the index
// does not hold (along an edge, a corner at 85–90%) are logged, not
// required.
func TestCropHashesFindCrops(t *testing.T) {
	photos := realPhotos(t)
	index := map[string][]string{}
	for n, img := range photos {
		index[n] = indexed(metrics.Compute(img))
	}
	type query struct {
		name  string
		make  func(image.Image) image.Image
		found bool
	}
	at := func(x, y, side float64) func(image.Image) image.Image {
		return func(img image.Image) image.Image { return crop(img, x, y, side) }
	}
	queries := []query{
		{"mirror", func(img image.Image) image.Image { return mirror(crop(img, 0, 0, 1)) }, true},
		{"scaled", func(img image.Image) image.Image { return scaledJPEG(t, img, 0.6) }, true},
		{"centre-95", at(0.025, 0.025, 0.95), true},
		{"centre-90", at(0.05, 0.05, 0.9), true},
		{"centre-85", at(0.075, 0.075, 0.85), true},
		{"centre-82", at(0.09, 0.09, 0.82), true},
		{"centre-80", at(0.1, 0.1, 0.8), true},
		{"tl-80", at(0, 0, 0.8), true},
		{"tr-80", at(0.2, 0, 0.8), true},
		{"bl-80", at(0, 0.2, 0.8), true},
		{"br-80", at(0.2, 0.2, 0.8), true},
		{"mirror-tl-80", func(img image.Image) image.Image { return mirror(crop(img, 0, 0, 0.8)) }, true},
		{"top-80", at(0.1, 0, 0.8), false},
		{"tl-90", at(0, 0, 0.9), false},
	}
	for _, q := range queries {
		worst, closest := 0, 64
		for n, img := range photos {
			h := metrics.Compute(q.make(img))
			own := nearest(h, index[n])
			worst = max(worst, own)
			for m, hashes := range index {
				if m != n {
					closest = min(closest, nearest(h, hashes))
				}
			}
		}
		t.Logf("%-12s own photo at most %2d bits, other photos at least %2d", q.name, worst, closest)
		require.Greater(t, closest, searchDistance, "%s: another photo comes as close as image search looks", q.name)
		if q.found {
			require.LessOrEqual(t, worst, searchDistance, "%s: not within image search's distance", q.name)
		}
	}
}
