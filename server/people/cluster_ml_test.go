package people_test

import (
	"bytes"
	"image"
	"image/jpeg"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
	xdraw "golang.org/x/image/draw"

	"github.com/photoctl/photoctl/ml"
	"github.com/photoctl/photoctl/ml/faces"
	"github.com/photoctl/photoctl/ml/onnx"
	"github.com/photoctl/photoctl/server/api"
	"github.com/photoctl/photoctl/server/catalog"
	"github.com/photoctl/photoctl/server/people"
	"github.com/photoctl/photoctl/server/servertest"
	"github.com/photoctl/photoctl/server/store"
	"github.com/photoctl/photoctl/server/tasks"
)

// mlDir is where `make models` put the runtime, models and photos: it
// skips the test when they are absent, unless PHOTOCTL_ML_REQUIRED is set
// (as ml/internal/mltest does).
func mlDir(t *testing.T) string {
	t.Helper()
	dir := os.Getenv("PHOTOCTL_ML_DIR")
	if dir == "" {
		dir = filepath.Join("..", "..", ".cache", "ml")
	}
	if _, err := os.Stat(filepath.Join(dir, onnx.LibraryPath())); err != nil {
		if os.Getenv("PHOTOCTL_ML_REQUIRED") != "" {
			t.Fatalf("PHOTOCTL_ML_REQUIRED is set but the ML files are missing (%v); run `make models`", err)
		}
		t.Skipf("no ML files in %s; run `make models`", dir)
	}
	return dir
}

// variant is a photo as uploaded, and where each face of the original
// photo is in it (its centre as fractions; outside 0..1 when cut off).
type variant struct {
	name    string
	img     image.Image
	centres []ml.Point
}

// variants returns a photo, its mirror image, a copy at 60% and a crop
// around its first face.
func variants(name string, img image.Image, found []ml.Face) []variant {
	b := img.Bounds()
	centres := func(move func(ml.Point) ml.Point) []ml.Point {
		out := make([]ml.Point, len(found))
		for i, f := range found {
			out[i] = move(ml.Point{X: f.Box.X + f.Box.Width/2, Y: f.Box.Y + f.Box.Height/2})
		}
		return out
	}
	mirror := image.NewRGBA(image.Rect(0, 0, b.Dx(), b.Dy()))
	for y := range b.Dy() {
		for x := range b.Dx() {
			mirror.Set(b.Dx()-1-x, y, img.At(b.Min.X+x, b.Min.Y+y))
		}
	}
	scaled := image.NewRGBA(image.Rect(0, 0, b.Dx()*6/10, b.Dy()*6/10))
	xdraw.CatmullRom.Scale(scaled, scaled.Bounds(), img, b, xdraw.Src, nil)
	x0, y0, x1, y1 := found[0].Box.Pixels(b)
	w, h := x1-x0, y1-y0
	cut := image.Rect(int(x0-w), int(y0-h), int(x1+w), int(y1+h)).Intersect(b)
	crop := image.NewRGBA(image.Rect(0, 0, cut.Dx(), cut.Dy()))
	xdraw.Copy(crop, image.Point{}, img, cut, xdraw.Src, nil)
	return []variant{
		{name: name, img: img, centres: centres(func(p ml.Point) ml.Point { return p })},
		{name: "mirrored-" + name, img: mirror, centres: centres(func(p ml.Point) ml.Point { return ml.Point{X: 1 - p.X, Y: p.Y} })},
		{name: "scaled-" + name, img: scaled, centres: centres(func(p ml.Point) ml.Point { return p })},
		{name: "cropped-" + name, img: crop, centres: centres(func(p ml.Point) ml.Point {
			px, py := p.Pixels(b)
			return ml.PointOf(cut, px, py)
		})},
	}
}

func TestRealFacesOfOnePersonClusterTogetherAndPeopleStayApart(t *testing.T) {
	dir := mlDir(t)
	rt, err := onnx.Open(onnx.Config{Dir: dir, Concurrency: 2})
	require.NoError(t, err)
	t.Cleanup(func() { rt.Close() })
	analyzer, err := faces.New(rt, faces.Config{})
	require.NoError(t, err)
	s := startClusterServer(t, 2)

	for _, photo := range []string{"pigo-sample.jpg", "face-api-sample3.jpg", "face-api-sample6.jpg"} {
		t.Run(photo, func(t *testing.T) {
			data, err := os.ReadFile(filepath.Join(dir, "photos", photo))
			require.NoError(t, err)
			img, err := jpeg.Decode(bytes.NewReader(data))
			require.NoError(t, err)
			found, err := analyzer.DetectFaces(s.ctx, img)
			require.NoError(t, err)
			require.NotEmpty(t, found)
			// faceOf[k] are the faces (in every variant) of the photo's k-th face.
			faceOf := make([][]string, len(found))
			for _, v := range variants(photo, img, found) {
				for k, id := range s.realAsset(t, analyzer, v) {
					faceOf[k] = append(faceOf[k], id)
				}
			}
			s.idle()
			var persons []string
			for k, ids := range faceOf {
				require.GreaterOrEqual(t, len(ids), 3, "face %d is found in the photo, its mirror image and the copy at 60%%", k)
				got := s.peopleOf(ids)
				require.Len(t, got, 1, "face %d: every copy with one person", k)
				require.NotEmpty(t, got[0])
				require.NotContains(t, persons, got[0], "face %d: a person of its own", k)
				persons = append(persons, got[0])
			}
		})
	}
}

// realAsset uploads a variant through the server and, unless its own
// ingest chain found its faces, detects them here and records them as the
// faces step would. It returns, by the original photo's face, the face
// found where that face is in the variant.
func (s *clusterServer) realAsset(t *testing.T, analyzer *faces.Analyzer, v variant) map[int]string {
	t.Helper()
	var buf bytes.Buffer
	require.NoError(t, jpeg.Encode(&buf, v.img, &jpeg.Options{Quality: 92}))
	a := s.UploadAsset(s.token, v.name, buf.Bytes(), nil)
	s.WaitForTasks(s.token, a.ID, 2*time.Minute)
	list := servertest.List[api.Face](s.Server, s.token, "/api/faces?asset_id="+a.ID)
	if len(list) == 0 {
		found, err := analyzer.DetectFaces(s.ctx, v.img)
		require.NoError(t, err)
		now := time.Now().UTC()
		require.NoError(t, s.st.InTx(s.ctx, func(r store.Repos) error {
			for _, f := range found {
				conf := f.Score
				face := &catalog.Face{ID: catalog.NewID(catalog.PrefixFace, now), AssetID: a.ID, LibraryID: s.lib,
					Source: catalog.FaceMachine, Confidence: &conf, Embedding: people.EncodeEmbedding(f.Embedding),
					Box:       catalog.BoundingBox{X: f.Box.X, Y: f.Box.Y, Width: f.Box.Width, Height: f.Box.Height},
					CreatedAt: now, UpdatedAt: now}
				if err := r.Faces().Create(s.ctx, face); err != nil {
					return err
				}
			}
			return tasks.Enqueue(s.ctx, r, "cluster", a.ID, s.lib, now)
		}))
		list = servertest.List[api.Face](s.Server, s.token, "/api/faces?asset_id="+a.ID)
	}
	out := map[int]string{}
	for k, c := range v.centres {
		for _, f := range list {
			b := f.BoundingBox
			if c.X >= b.X && c.X <= b.X+b.Width && c.Y >= b.Y && c.Y <= b.Y+b.Height {
				require.NotContains(t, out, k, "%s: two faces where face %d is", v.name, k)
				out[k] = f.ID
			}
		}
	}
	t.Logf("%s: %d faces, %d of the original's found", v.name, len(list), len(out))
	return out
}
