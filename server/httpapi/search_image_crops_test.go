package httpapi_test

import (
	"bytes"
	"image"
	_ "image/png" // the test photos include PNGs
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
	"golang.org/x/image/draw"

	"github.com/photoctl/photoctl/ingest/racetest"
	"github.com/photoctl/photoctl/server/app"
	"github.com/photoctl/photoctl/server/servertest"
	"github.com/photoctl/photoctl/server/store"
)

// cropOf returns the part of img at fractions x, y of its size keeping
// side of each side.
func cropOf(img image.Image, x, y, side float64) *image.RGBA {
	b := img.Bounds()
	r := image.Rect(b.Min.X+int(x*float64(b.Dx())), b.Min.Y+int(y*float64(b.Dy())),
		b.Min.X+int((x+side)*float64(b.Dx())), b.Min.Y+int((y+side)*float64(b.Dy())))
	out := image.NewRGBA(image.Rect(0, 0, r.Dx(), r.Dy()))
	draw.Draw(out, out.Bounds(), img, r.Min, draw.Src)
	return out
}

// mirrored returns img flipped left to right.
func mirrored(img image.Image) *image.RGBA {
	b := img.Bounds()
	out := image.NewRGBA(image.Rect(0, 0, b.Dx(), b.Dy()))
	for y := range b.Dy() {
		for x := range b.Dx() {
			out.Set(b.Dx()-1-x, y, img.At(b.Min.X+x, b.Min.Y+y))
		}
	}
	return out
}

// TestSearchByImageFindsMirrorsAndCrops uploads real photos, then
// searches with each one's mirror image, a corner crop of 80%, a centre
// crop of 85% and a scaled, recompressed copy: the photo is the one hit,
// none of the others comes up.
func TestSearchByImageFindsMirrorsAndCrops(t *testing.T) {
	servertest.SkipStoreNeutralOnPostgres(t, "which hashes find a mirror or a crop")
	// 36 queries hashed in pure Go (decode, mirror, crop, DCT): 64 s under
	// -race on a loaded machine, 17 s without; the search path's
	// concurrency runs under -race in the other image-search tests.
	racetest.SkipPure(t)
	photos, _ := mlPhotos(t)
	s := servertest.Start(t, servertest.WithPipeline, func(c *app.Config) { c.ML.Enabled = false })
	_, session := s.Session()
	names := []string{"skimage-astronaut.png", "skimage-chelsea.png", "pigo-sample.jpg", "face-api-sample1.jpg",
		"face-api-sample2.jpg", "face-api-sample3.jpg", "face-api-sample4.jpg", "face-api-sample5.jpg", "face-api-sample6.jpg"}
	ids := map[string]string{}
	decoded := map[string]image.Image{}
	for _, n := range names {
		data, err := os.ReadFile(filepath.Join(photos, n))
		require.NoError(t, err)
		ids[n] = s.UploadAsset(session, n, data, nil).ID
		decoded[n], _, err = image.Decode(bytes.NewReader(data))
		require.NoError(t, err)
	}
	for _, id := range ids {
		s.WaitForTasks(session, id, 5*time.Minute)
	}

	corners := [][2]float64{{0, 0}, {0.2, 0}, {0, 0.2}, {0.2, 0.2}}
	for i, n := range names {
		img := decoded[n]
		b := img.Bounds()
		corner := corners[i%len(corners)]
		queries := []struct {
			what string
			img  image.Image
		}{
			{"the mirror image", mirrored(img)},
			{"a corner crop of 80%", cropOf(img, corner[0], corner[1], 0.8)},
			{"a centre crop of 85%", cropOf(img, 0.075, 0.075, 0.85)},
			{"a scaled, recompressed copy", scaled(img, b.Dx()*3/5, b.Dy()*3/5)},
		}
		for _, q := range queries {
			got := imageHits(t, postSearch(t, s, session, jpegOf(t, q.img, 80), nil))
			require.Equal(t, []string{ids[n]}, hitIDs(got), "%s of %s: the photo, and no other", q.what, n)
			t.Logf("%-28s of %-22s score %.3f", q.what, n, got.Data[0].Score)
		}
	}
}

// TestSearchByImageFindsCropsOnceRemeasured: an asset measured before
// crops were hashed (its crop hashes removed here) is found by a scaled
// copy but not by a corner crop; `photoctl admin remeasure`
// (app.RemeasureCrops) queues its metrics task, after which the crop finds
// it, and a second run queues nothing.
func TestSearchByImageFindsCropsOnceRemeasured(t *testing.T) {
	photos, _ := mlPhotos(t)
	s := servertest.Start(t, servertest.WithPipeline, func(c *app.Config) { c.ML.Enabled = false })
	_, session := s.Session()
	data, err := os.ReadFile(filepath.Join(photos, "skimage-astronaut.png"))
	require.NoError(t, err)
	id := s.UploadAsset(session, "astronaut.png", data, nil).ID
	s.WaitForTasks(session, id, 5*time.Minute)
	img, _, err := image.Decode(bytes.NewReader(data))
	require.NoError(t, err)
	corner := jpegOf(t, cropOf(img, 0.2, 0.2, 0.8), 80)
	require.Equal(t, []string{id}, hitIDs(imageHits(t, postSearch(t, s, session, corner, nil))))

	st := servertest.OpenStore(t, s.Config)
	require.NoError(t, st.InTx(t.Context(), func(r store.Repos) error { return r.Search().PutPHashes(t.Context(), id, nil) }))
	require.Empty(t, hitIDs(imageHits(t, postSearch(t, s, session, corner, nil))), "no crop hashes, no crop found")
	b := img.Bounds()
	require.Equal(t, []string{id}, hitIDs(imageHits(t, postSearch(t, s, session, jpegOf(t, scaled(img, b.Dx()/2, b.Dy()/2), 80), nil))))

	n, err := app.RemeasureCrops(t.Context(), s.Config)
	require.NoError(t, err)
	require.Equal(t, 1, n)
	s.WaitForTasks(session, id, 5*time.Minute)
	require.Equal(t, []string{id}, hitIDs(imageHits(t, postSearch(t, s, session, corner, nil))))
	n, err = app.RemeasureCrops(t.Context(), s.Config)
	require.NoError(t, err)
	require.Zero(t, n)
}
