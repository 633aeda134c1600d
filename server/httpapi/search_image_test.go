package httpapi_test

import (
	"bytes"
	"fmt"
	"image"
	"image/color"
	"image/jpeg"
	"math/rand/v2"
	"net/http"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
	"golang.org/x/image/draw"

	"github.com/photoctl/photoctl/server/api"
	"github.com/photoctl/photoctl/server/app"
	"github.com/photoctl/photoctl/server/servertest"
)

// shapes draws a picture of random coloured rectangles and discs: each
// seed its own composition, with structure the perceptual hash sees.
func shapes(seed uint64, w, h int) *image.RGBA {
	r := rand.New(rand.NewPCG(seed, seed*7+1))
	img := image.NewRGBA(image.Rect(0, 0, w, h))
	draw.Draw(img, img.Bounds(), image.NewUniform(color.RGBA{uint8(r.IntN(256)), uint8(r.IntN(256)), uint8(r.IntN(256)), 255}),
		image.Point{}, draw.Src)
	for range 12 {
		c := image.NewUniform(color.RGBA{uint8(r.IntN(256)), uint8(r.IntN(256)), uint8(r.IntN(256)), 255})
		x, y := r.IntN(w), r.IntN(h)
		rw, rh := w/8+r.IntN(w/3), h/8+r.IntN(h/3)
		if r.IntN(2) == 0 {
			draw.Draw(img, image.Rect(x, y, x+rw, y+rh), c, image.Point{}, draw.Src)
			continue
		}
		for dy := -rh; dy <= rh; dy++ {
			for dx := -rh; dx <= rh; dx++ {
				if dx*dx+dy*dy <= rh*rh && image.Pt(x+dx, y+dy).In(img.Bounds()) {
					img.Set(x+dx, y+dy, c.C)
				}
			}
		}
	}
	return img
}

func jpegOf(t *testing.T, img image.Image, quality int) []byte {
	t.Helper()
	var buf bytes.Buffer
	require.NoError(t, jpeg.Encode(&buf, img, &jpeg.Options{Quality: quality}))
	return buf.Bytes()
}

// scaled returns img resized to w×h.
func scaled(img image.Image, w, h int) *image.RGBA {
	out := image.NewRGBA(image.Rect(0, 0, w, h))
	draw.CatmullRom.Scale(out, out.Bounds(), img, img.Bounds(), draw.Src, nil)
	return out
}

// postSearch sends POST /api/search with the image (nil: none) and
// fields, and returns the response.
func postSearch(t *testing.T, s *servertest.Server, token string, img []byte, fields map[string]string) *servertest.Response {
	t.Helper()
	return s.SearchByImage(token, img, fields)
}

func imageHits(t *testing.T, r *servertest.Response) api.Page[api.SearchHit] {
	t.Helper()
	return servertest.Expect[api.Page[api.SearchHit]](t, r, http.StatusOK)
}

func TestSearchByImageLooks(t *testing.T) {
	s := servertest.Start(t, servertest.WithPipeline, func(c *app.Config) { c.ML.Enabled = false })
	_, session := s.Session()
	var ids []string
	for seed := range uint64(5) {
		a := s.UploadAsset(session, fmt.Sprintf("shapes-%d.jpg", seed), jpegOf(t, shapes(seed, 1200, 900), 92), nil)
		ids = append(ids, a.ID)
	}
	for _, id := range ids {
		s.WaitForTasks(session, id, 3*time.Minute)
	}

	t.Run("a scaled, recompressed copy finds its original first", func(t *testing.T) {
		for i, id := range ids {
			got := imageHits(t, postSearch(t, s, session, jpegOf(t, scaled(shapes(uint64(i), 1200, 900), 480, 360), 70), nil))
			require.NotEmpty(t, got.Data)
			require.Equal(t, id, got.Data[0].ID, "copy of shapes-%d", i)
			for _, h := range got.Data {
				t.Logf("copy of shapes-%d: %s %.3f", i, h.OriginalFileName, h.Score)
			}
			require.Greater(t, got.Data[0].Score, 0.8)
			for _, h := range got.Data[1:] {
				require.Less(t, h.Score, got.Data[0].Score)
			}
		}
	})
	copyOf2 := jpegOf(t, scaled(shapes(2, 1200, 900), 600, 450), 80)
	t.Run("filters and text narrow the image's matches", func(t *testing.T) {
		require.Empty(t, imageHits(t, postSearch(t, s, session, copyOf2, map[string]string{"media_type": "video"})).Data)
		require.Empty(t, imageHits(t, postSearch(t, s, session, copyOf2, map[string]string{"query": "zebra"})).Data)
		got := imageHits(t, postSearch(t, s, session, copyOf2, map[string]string{"query": "shapes"}))
		require.Equal(t, ids[2], got.Data[0].ID, "file names hold the word")
		require.Empty(t, imageHits(t, postSearch(t, s, session, copyOf2,
			map[string]string{"local_datetime_before": "2000-01-01T00:00:00"})).Data)
	})
	t.Run("the form takes the GET rules", func(t *testing.T) {
		items := validationItems(t, postSearch(t, s, session, nil, nil))
		require.Equal(t, []any{"body"}, items[0].Loc, "no criterion")
		items = validationItems(t, postSearch(t, s, session, copyOf2, map[string]string{"captured_after": "2024-01-01T00:00:00Z"}))
		require.Equal(t, []any{"body", "captured_after"}, items[0].Loc)
		items = validationItems(t, postSearch(t, s, session, copyOf2, map[string]string{"media_type": "audio"}))
		require.Equal(t, []any{"body", "media_type"}, items[0].Loc)
		items = validationItems(t, postSearch(t, s, session, copyOf2, map[string]string{"colour": "red"}))
		require.Equal(t, []any{"body", "colour"}, items[0].Loc)
		items = validationItems(t, postSearch(t, s, session, []byte("not a picture"), nil))
		require.Equal(t, []any{"body", "image"}, items[0].Loc)
		requireDetail(t, postSearch(t, s, session, bytes.Repeat([]byte{0xff}, 32<<20+1), nil), http.StatusRequestEntityTooLarge)
		got := imageHits(t, postSearch(t, s, session, nil, map[string]string{"query": "shapes", "limit": "2"}))
		require.Len(t, got.Data, 2, "text alone, in a form")
		require.True(t, got.HasMore)
	})
	t.Run("pages of an image search", func(t *testing.T) {
		first := imageHits(t, postSearch(t, s, session, copyOf2, map[string]string{"limit": "1"}))
		require.Equal(t, []string{ids[2]}, hitIDs(first))
		if first.HasMore {
			next := imageHits(t, postSearch(t, s, session, copyOf2, map[string]string{"limit": "1", "starting_after_id": ids[2]}))
			require.NotContains(t, hitIDs(next), ids[2])
		}
	})
}

// mlPhotos returns the photo folder of the ML directory
// (servertest.MLDir) and the directory.
func mlPhotos(t *testing.T) (photos, dir string) {
	t.Helper()
	dir = servertest.MLDir(t)
	return filepath.Join(dir, "photos"), dir
}

// TestSearchByImagePeople searches with a crop of one face of a group
// photo: its looks are not the photo's, its person is.
func TestSearchByImagePeople(t *testing.T) {
	photos, dir := mlPhotos(t)
	s := servertest.Start(t, servertest.WithPipeline, func(c *app.Config) { c.ML.Dir = dir })
	_, session := s.Session()
	group, err := os.ReadFile(filepath.Join(photos, "face-api-sample1.jpg"))
	require.NoError(t, err)
	cat, err := os.ReadFile(filepath.Join(photos, "skimage-chelsea.png"))
	require.NoError(t, err)
	groupID := s.UploadAsset(session, "group.jpg", group, nil).ID
	catID := s.UploadAsset(session, "cat.png", cat, nil).ID
	s.WaitForTasks(session, groupID, 5*time.Minute)
	s.WaitForTasks(session, catID, 5*time.Minute)
	faces := servertest.List[api.Face](s, session, "/api/faces?asset_id="+groupID)
	require.NotEmpty(t, faces, "the pipeline found the group's faces")

	src, _, err := image.Decode(bytes.NewReader(group))
	require.NoError(t, err)
	b := src.Bounds()
	f := faces[0].BoundingBox
	cx, cy := b.Min.X+int((f.X+f.Width/2)*float64(b.Dx())), b.Min.Y+int((f.Y+f.Height/2)*float64(b.Dy()))
	half := int(1.2 * max(f.Width*float64(b.Dx()), f.Height*float64(b.Dy())))
	crop := image.Rect(cx-half, cy-half, cx+half, cy+half).Intersect(b)
	face := image.NewRGBA(image.Rect(0, 0, crop.Dx(), crop.Dy()))
	draw.Draw(face, face.Bounds(), src, crop.Min, draw.Src)

	got := imageHits(t, postSearch(t, s, session, jpegOf(t, scaled(face, 2*crop.Dx(), 2*crop.Dy()), 85), nil))
	require.Equal(t, []string{groupID}, hitIDs(got), "the person's photo, and not the cat")
	require.Greater(t, got.Data[0].Score, 0.45)
	t.Logf("a face of the group: score %.3f", got.Data[0].Score)

	whole := imageHits(t, postSearch(t, s, session, jpegOf(t, scaled(src, b.Dx()/2, b.Dy()/2), 80), nil))
	require.Equal(t, groupID, whole.Data[0].ID)
	require.Greater(t, whole.Data[0].Score, 1.5, "looks and people both count")
	t.Logf("the group, scaled: score %.3f", whole.Data[0].Score)
}
