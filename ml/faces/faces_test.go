package faces

import (
	"context"
	"image"
	"image/color"
	"image/draw"
	"math"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/photoctl/photoctl/ml"
	"github.com/photoctl/photoctl/ml/internal/mltest"
	"github.com/photoctl/photoctl/ml/internal/raster"
)

func newAnalyzer(t testing.TB, cfg Config) *Analyzer {
	t.Helper()
	a, err := New(mltest.Runtime(t, 0), cfg)
	require.NoError(t, err)
	return a
}

func inBox(p ml.Point, b ml.Box) bool {
	return p.X >= b.X && p.X <= b.X+b.Width && p.Y >= b.Y && p.Y <= b.Y+b.Height
}

func TestDetectFacesFindsEveryFaceInTheGroupPhotos(t *testing.T) {
	a := newAnalyzer(t, Config{})
	for _, photo := range mltest.GroupPhotos {
		t.Run(photo.Name, func(t *testing.T) {
			img := mltest.Photo(t, photo.Name)
			faces, err := a.DetectFaces(context.Background(), img)
			require.NoError(t, err)
			require.Len(t, faces, len(photo.Faces), "faces found: %+v", boxes(faces))
			for _, want := range photo.Faces {
				n := 0
				for _, f := range faces {
					if inBox(want, f.Box) {
						n++
					}
				}
				require.Equal(t, 1, n, "face at %+v should be in exactly one box of %+v", want, boxes(faces))
			}
			for i, f := range faces {
				require.GreaterOrEqual(t, f.Score, 0.8)
				require.LessOrEqual(t, f.Score, 1.0)
				if i > 0 {
					require.LessOrEqual(t, f.Score, faces[i-1].Score, "highest score first")
				}
				require.True(t, f.Box.X >= 0 && f.Box.Y >= 0 && f.Box.X+f.Box.Width <= 1 && f.Box.Y+f.Box.Height <= 1, "box %+v within the image", f.Box)
				p := f.Points5()
				require.True(t, inBox(p[0], f.Box) && inBox(p[1], f.Box), "eyes %+v in box %+v", p[:2], f.Box)
				require.Less(t, p[0].X, p[1].X, "left eye left of the right one")
				require.Less(t, (p[0].Y+p[1].Y)/2, (p[3].Y+p[4].Y)/2, "eyes above the mouth")
				requireUnit(t, f.Embedding)
			}
		})
	}
}

func boxes(fs []ml.Face) []ml.Box {
	out := make([]ml.Box, len(fs))
	for i, f := range fs {
		out[i] = f.Box
	}
	return out
}

func requireUnit(t *testing.T, e ml.Embedding) {
	t.Helper()
	require.Len(t, e, ml.EmbeddingSize)
	require.InDelta(t, 1, e.Cosine(e), 1e-4)
}

func TestDetectFacesDropsAnimalFacesTheDetectorFindsConfidently(t *testing.T) {
	a := newAnalyzer(t, Config{})
	img := mltest.Photo(t, "skimage-chelsea.png")

	// The detector alone takes the cat for a face, with a high score...
	dets, _, err := a.detectAll(context.Background(), raster.FromImage(img))
	require.NoError(t, err)
	require.NotEmpty(t, dets)
	require.Greater(t, dets[0].score, 0.95)

	// ...which the landmark and feature checks throw out.
	faces, err := a.DetectFaces(context.Background(), img)
	require.NoError(t, err)
	require.Empty(t, faces)
}

func TestDetectFacesFindsSmallFacesInBigPhotosThroughTiles(t *testing.T) {
	// A group photo shrunk so its faces are about 40 px, placed in a
	// 2400×1800 frame: the whole frame, seen at 320×240, shows them at
	// about 5 px, below what the detector can see.
	group := mltest.Photo(t, "face-api-sample3.jpg")
	small := raster.FromImage(group)
	small = small.Scaled(small.W/5, small.H/5)
	frame := image.NewRGBA(image.Rect(0, 0, 2400, 1800))
	draw.Draw(frame, frame.Bounds(), image.NewUniform(color.RGBA{90, 100, 110, 255}), image.Point{}, draw.Src)
	at := image.Pt(1500, 900)
	draw.Draw(frame, small.Bounds().Add(at), small, image.Point{}, draw.Src)

	tiled := newAnalyzer(t, Config{})
	faces, err := tiled.DetectFaces(context.Background(), frame)
	require.NoError(t, err)
	require.Len(t, faces, 3, "faces found: %+v", boxes(faces))
	for _, f := range faces {
		x0, y0, x1, _ := f.Box.Pixels(frame.Bounds())
		require.True(t, x0 >= float64(at.X) && y0 >= float64(at.Y) && x1 <= float64(at.X+small.W), "face %+v in the pasted photo", f.Box)
		require.Less(t, x1-x0, 60.0)
	}

	whole := newAnalyzer(t, Config{MinFaceSize: 200}) // no tiles for this size
	require.Len(t, plan(2400, 1800, 200), 1)
	faces, err = whole.DetectFaces(context.Background(), frame)
	require.NoError(t, err)
	require.Empty(t, faces)
}

func TestEmbeddingsMatchCopiesOfAFaceAndKeepPeopleApart(t *testing.T) {
	a := newAnalyzer(t, Config{})
	ctx := context.Background()
	minSame, maxOther := 1.0, -1.0
	defer func() { t.Logf("copies of one face: cosine ≥ %.3f; different people: ≤ %.3f", minSame, maxOther) }()
	for _, name := range []string{"pigo-sample.jpg", "face-api-sample3.jpg", "face-api-sample6.jpg"} {
		img := mltest.Photo(t, name)
		faces, err := a.DetectFaces(ctx, img)
		require.NoError(t, err)
		require.NotEmpty(t, faces)

		// Different people in one photo stay apart.
		for i := range faces {
			for j := i + 1; j < len(faces); j++ {
				c := faces[i].Embedding.Cosine(faces[j].Embedding)
				maxOther = math.Max(maxOther, c)
				require.Less(t, c, SamePerson, "%s: faces %d and %d", name, i, j)
			}
		}

		src := raster.FromImage(img)
		for i, f := range faces {
			x0, y0, x1, y1 := f.Box.Pixels(img.Bounds())
			w, h := x1-x0, y1-y0
			crop := image.Rect(int(x0-w), int(y0-h), int(x1+w), int(y1+h)).Intersect(img.Bounds())
			copies := map[string]image.Image{
				"mirrored": src.Mirror(),
				"scaled":   src.Scaled(src.W*6/10, src.H*6/10),
				"cropped":  src.Resize(raster.Rect{X0: float64(crop.Min.X), Y0: float64(crop.Min.Y), X1: float64(crop.Max.X), Y1: float64(crop.Max.Y)}, crop.Dx(), crop.Dy()),
			}
			for how, c := range copies {
				found, err := a.DetectFaces(ctx, c)
				require.NoError(t, err)
				best, who := -1.0, -1
				for k, g := range found {
					if s := g.Embedding.Cosine(f.Embedding); s > best {
						best, who = s, k
					}
				}
				minSame = math.Min(minSame, best)
				require.Greater(t, best, SamePerson, "%s face %d %s: best match %.3f", name, i, how, best)
				if len(found) > 1 {
					for k, g := range found {
						if k != who {
							c := g.Embedding.Cosine(f.Embedding)
							maxOther = math.Max(maxOther, c)
							require.Less(t, c, SamePerson, "%s face %d %s: other face %d", name, i, how, k)
						}
					}
				}
			}
		}
	}
}

func TestLocateFaceEmbedsADrawnBoxLikeTheDetectedFace(t *testing.T) {
	a := newAnalyzer(t, Config{})
	img := mltest.Photo(t, "pigo-sample.jpg")
	faces, err := a.DetectFaces(context.Background(), img)
	require.NoError(t, err)
	require.Len(t, faces, 1)

	drawn := faces[0].Box
	drawn.X -= 0.02 // a person's box is never the detector's
	drawn.Width += 0.03
	got, err := a.LocateFace(context.Background(), img, drawn)
	require.NoError(t, err)
	require.Equal(t, 1.0, got.Score)
	require.Equal(t, drawn, got.Box)
	requireUnit(t, got.Embedding)
	require.Greater(t, got.Embedding.Cosine(faces[0].Embedding), 0.9)

	e, err := a.Embed(context.Background(), img, faces[0])
	require.NoError(t, err)
	require.InDelta(t, 1, e.Cosine(faces[0].Embedding), 0.01, "Embed converts only the face's region, to the same effect")

	_, err = a.LocateFace(context.Background(), img, ml.Box{X: 0.5, Y: 0.5, Width: 0.001, Height: 0.001})
	require.Error(t, err)
}

func TestAlignPutsTheFivePointsOnTheTemplate(t *testing.T) {
	a := newAnalyzer(t, Config{})
	img := mltest.Photo(t, "face-api-sample6.jpg")
	faces, err := a.DetectFaces(context.Background(), img)
	require.NoError(t, err)
	for _, f := range faces {
		var pts [5][2]float64
		for i, p := range f.Points5() {
			x, y := p.Pixels(img.Bounds())
			pts[i] = [2]float64{x, y}
		}
		toSrc := alignment(pts)
		eyes := math.Hypot(pts[1][0]-pts[0][0], pts[1][1]-pts[0][1])
		for i, tp := range template {
			x, y := toSrc.Apply(tp[0], tp[1])
			require.Less(t, math.Hypot(x-pts[i][0], y-pts[i][1]), 0.4*eyes, "point %d (a turned head moves the nose off the fit)", i)
		}
		aligned := a.Align(img, f)
		require.Equal(t, image.Rect(0, 0, alignSize, alignSize), aligned.Bounds())
	}
}

func TestDetectFacesOnTinyOrFlatImagesFindsNothing(t *testing.T) {
	a := newAnalyzer(t, Config{})
	for _, img := range []image.Image{
		image.NewRGBA(image.Rect(0, 0, 0, 0)),
		image.NewGray(image.Rect(5, 5, 9, 300)),
		image.NewNRGBA(image.Rect(0, 0, 640, 480)),
		image.NewGray(image.Rect(0, 0, 37, 23)),
	} {
		faces, err := a.DetectFaces(context.Background(), img)
		require.NoError(t, err)
		require.NotNil(t, faces)
		require.Empty(t, faces)
	}
}

func TestDetectFacesStopsWhenTheContextIsCancelled(t *testing.T) {
	a := newAnalyzer(t, Config{})
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	_, err := a.DetectFaces(ctx, mltest.Photo(t, "pigo-sample.jpg"))
	require.ErrorIs(t, err, context.Canceled)
}

func TestNewWithoutModelsIsUnavailable(t *testing.T) {
	_, err := New(mltest.RuntimeWithoutModels(t), Config{})
	require.ErrorIs(t, err, ml.ErrUnavailable)
	require.ErrorContains(t, err, DetectModel)
}

func TestConfigValidate(t *testing.T) {
	require.NoError(t, Config{}.Validate())
	require.Error(t, Config{MinScore: 1}.Validate())
	require.Error(t, Config{MinScore: -0.1}.Validate())
	require.Error(t, Config{MinFaceSize: -1}.Validate())
}

func TestDetectFacesFindsAFaceFillingTheFrame(t *testing.T) {
	// Grace Hopper's face cropped to a square its own height: at the whole
	// picture's run the face fills the detector's input and the detector
	// finds only a part of it, which the check drops; the zoomed out run
	// finds all of it.
	a := newAnalyzer(t, Config{})
	src := raster.FromImage(mltest.Photo(t, "matplotlib-grace-hopper.jpg"))
	for _, side := range []int{100, 200, 400} {
		crop := src.Resize(raster.Rect{X0: 165, Y0: 126, X1: 365, Y1: 326}, side, side)
		faces, err := a.DetectFaces(context.Background(), crop)
		require.NoError(t, err)
		require.Len(t, faces, 1, "%d px: %+v", side, boxes(faces))
		require.Greater(t, faces[0].Box.Height, 0.8, "%d px: the whole face", side)
		_, big, err := a.detectAll(context.Background(), crop)
		require.NoError(t, err)
		require.NotEmpty(t, big)
	}
}
