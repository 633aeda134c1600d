package faces

import (
	"context"
	"fmt"
	"math"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/photoctl/photoctl/ml"
	"github.com/photoctl/photoctl/ml/internal/mltest"
	"github.com/photoctl/photoctl/ml/internal/raster"
)

// setPhoto is a photo of the face set with the centres of its faces
// (fractions of the image), counted by eye: Faces must be found; Ignore
// are faces turned so far that finding them or not is no error (a full
// profile, one eye hidden).
type setPhoto struct {
	Name   string
	Faces  []ml.Point
	Ignore []ml.Point
	// FaceHeight is about the height of the detector's boxes on these
	// faces at the photo's size, in pixels: what the shrunk copies of the
	// set scale by.
	FaceHeight float64
}

// faceSet is every shipped photo with people in it (docs/ml.md,
// "Provenance and licenses"): 28 faces (and a profile) in 11 photos,
// 320 to 1920 px wide, faces 82 to 315 px high.
var faceSet = func() []setPhoto {
	var set []setPhoto
	for _, p := range mltest.GroupPhotos {
		set = append(set, setPhoto{Name: p.Name, Faces: p.Faces, Ignore: p.Profile, FaceHeight: 250})
	}
	return append(set,
		setPhoto{Name: "pigo-sample.jpg", Faces: []ml.Point{{X: 0.49, Y: 0.53}}, FaceHeight: 287},
		setPhoto{Name: "skimage-astronaut.png", Faces: []ml.Point{{X: 0.43, Y: 0.23}}, FaceHeight: 109},
		// A man filming, his head turned three-quarters away.
		setPhoto{Name: "skimage-camera.png", Faces: []ml.Point{{X: 0.44, Y: 0.30}}, FaceHeight: 82},
		// A studio portrait, the face a third of the frame's height.
		setPhoto{Name: "matplotlib-grace-hopper.jpg", Faces: []ml.Point{{X: 0.52, Y: 0.38}}, FaceHeight: 200},
		setPhoto{Name: "tracking-faces.jpg", Faces: []ml.Point{{X: 0.16, Y: 0.39}, {X: 0.46, Y: 0.54}, {X: 0.84, Y: 0.30}}, FaceHeight: 118},
	)
}()

// faceFree are shipped photos with no human face: animals, textures,
// text, objects, landscapes.
var faceFree = []string{
	"skimage-chelsea.png",    // a cat
	"skimage-page.png",       // a scanned page
	"skimage-text.png",       // text on a photo
	"skimage-coffee.png",     // a cup of coffee
	"skimage-grass.png",      // a texture
	"skimage-hubble.jpg",     // galaxies
	"skimage-motorcycle.png", // a motorcycle
	"skimage-rocket.jpg",     // a launch
	"sklearn-china.jpg",      // a temple in a landscape
	"sklearn-flower.jpg",     // a flower
}

// setImage is one picture the face set is checked on: a photo of the set
// as it is, shrunk or mirrored, with its faces where they went.
type setImage struct {
	name string
	img  *raster.Image
	setPhoto
}

// faceSetImages is the face set as DetectFaces is measured on it: every
// photo with faces as it is, shrunk so its faces are about 48 and about
// 36 pixels high, and (one face) a frame that the face fills nearly
// whole; the six group photos with 36 px faces in one 1440×1080 frame
// (mosaic) and each in a 640×480 frame (framed); every face-free photo as
// it is and at half size; and each of these mirrored. That is 260 faces
// in 88 pictures, and 40 face-free pictures.
func faceSetImages(t testing.TB) []setImage {
	var out []setImage
	add := func(name string, img *raster.Image, p setPhoto) {
		out = append(out, setImage{name, img, p})
		m := p
		m.Faces, m.Ignore = mirrored(p.Faces), mirrored(p.Ignore)
		out = append(out, setImage{name + " mirrored", img.Mirror(), m})
	}
	for _, p := range faceSet {
		src := raster.FromImage(mltest.Photo(t, p.Name))
		add(p.Name, src, p)
		for _, h := range []float64{48, 36} {
			s := h / p.FaceHeight
			add(fmt.Sprintf("%s faces %.0f px", p.Name, h), src.Scaled(int(math.Round(float64(src.W)*s)), int(math.Round(float64(src.H)*s))), p)
		}
		if len(p.Faces) == 1 && len(p.Ignore) == 0 {
			// A square 1.15 times the face's height around it, at 200 px.
			c := p.Faces[0]
			cx, cy, side := c.X*float64(src.W), c.Y*float64(src.H), 1.15*p.FaceHeight
			r := raster.Rect{X0: cx - side/2, Y0: cy - side/2, X1: cx + side/2, Y1: cy + side/2}
			add(p.Name+" face filling the frame", src.Resize(r, 200, 200), setPhoto{Name: p.Name, Faces: []ml.Point{{X: 0.5, Y: 0.5}}})
		}
	}
	add("group photos with faces 36 px in a 1440×1080 frame", mosaic(t, 36), mosaicFaces(36))
	for _, p := range faceSet[:len(mltest.GroupPhotos)] {
		img, in := framed(t, p, 36, 640, 480)
		add(p.Name+" faces 36 px in a 640×480 frame", img, in)
	}
	for _, n := range faceFree {
		src := raster.FromImage(mltest.Photo(t, n))
		add(n, src, setPhoto{Name: n})
		add(n+" half size", src.Scaled(src.W/2, src.H/2), setPhoto{Name: n})
	}
	return out
}

// framed shrinks the photo p so its faces are about face pixels high and
// puts it in the middle of a gray w×h frame: a small picture whose faces
// the whole picture's run sees below the detector's reach.
func framed(t testing.TB, p setPhoto, face float64, w, h int) (*raster.Image, setPhoto) {
	src := raster.FromImage(mltest.Photo(t, p.Name))
	s := face / p.FaceHeight
	small := src.Scaled(int(math.Round(float64(src.W)*s)), int(math.Round(float64(src.H)*s)))
	out := raster.New(w, h)
	for i := range out.Pix {
		out.Pix[i] = 110
	}
	x0, y0 := (w-small.W)/2, (h-small.H)/2
	for y := 0; y < small.H; y++ {
		copy(out.Pix[((y0+y)*w+x0)*3:], small.Pix[y*small.W*3:(y+1)*small.W*3])
	}
	at := func(ps []ml.Point) (moved []ml.Point) {
		for _, q := range ps {
			moved = append(moved, ml.Point{X: (float64(x0) + q.X*float64(small.W)) / float64(w), Y: (float64(y0) + q.Y*float64(small.H)) / float64(h)})
		}
		return moved
	}
	return out, setPhoto{Name: p.Name, Faces: at(p.Faces), Ignore: at(p.Ignore)}
}

// mosaic puts the six group photos, shrunk so their faces are about face
// pixels high, in a 3×2 grid on a gray 1440×1080 frame: small faces in a
// big photo, which only the tiles find.
func mosaic(t testing.TB, face float64) *raster.Image {
	out := raster.New(mosaicW, mosaicH)
	for i := range out.Pix {
		out.Pix[i] = 110
	}
	for i, p := range mltest.GroupPhotos {
		src := raster.FromImage(mltest.Photo(t, p.Name))
		s := face / 250
		small := src.Scaled(int(math.Round(float64(src.W)*s)), int(math.Round(float64(src.H)*s)))
		x0, y0 := mosaicCell(i, small.W, small.H)
		for y := 0; y < small.H; y++ {
			copy(out.Pix[((y0+y)*mosaicW+x0)*3:], small.Pix[y*small.W*3:(y+1)*small.W*3])
		}
	}
	return out
}

const mosaicW, mosaicH = 1440, 1080

// mosaicCell is where the i-th photo, w×h, goes in the mosaic: the middle
// of its cell.
func mosaicCell(i, w, h int) (x0, y0 int) {
	cw, ch := mosaicW/3, mosaicH/2
	return (i%3)*cw + (cw-w)/2, (i/3)*ch + (ch-h)/2
}

// mosaicFaces is the face set photo of mosaic(face): where the group
// photos' faces went.
func mosaicFaces(face float64) setPhoto {
	out := setPhoto{Name: "mosaic"}
	for i, p := range mltest.GroupPhotos {
		// The sizes mosaic gives the photos: all are 1920 px wide.
		s := face / 250
		w := int(math.Round(1920 * s))
		h := int(math.Round(float64(groupHeights[i]) * s))
		x0, y0 := mosaicCell(i, w, h)
		at := func(ps []ml.Point) (out []ml.Point) {
			for _, q := range ps {
				out = append(out, ml.Point{X: (float64(x0) + q.X*float64(w)) / mosaicW, Y: (float64(y0) + q.Y*float64(h)) / mosaicH})
			}
			return out
		}
		out.Faces = append(out.Faces, at(p.Faces)...)
		out.Ignore = append(out.Ignore, at(p.Profile)...)
	}
	return out
}

// groupHeights are the heights of mltest.GroupPhotos, 1920 px wide each.
var groupHeights = []int{1280, 1367, 1350, 1448, 1398, 1537}

func mirrored(ps []ml.Point) []ml.Point {
	out := make([]ml.Point, len(ps))
	for i, p := range ps {
		out[i] = ml.Point{X: 1 - p.X, Y: p.Y}
	}
	return out
}

// score matches the faces found in im to its counted faces: a face
// counts as found when its centre is in exactly one box; a box around no
// counted face (nor an ignored one) is a false positive, and so is a box
// around two faces.
func (im setImage) score(found []ml.Face) (hits, falsePos int) {
	for _, want := range im.Faces {
		n := 0
		for _, f := range found {
			if inBox(want, f.Box) {
				n++
			}
		}
		if n == 1 {
			hits++
		}
	}
	for _, f := range found {
		n, ignored := 0, false
		for _, want := range im.Faces {
			if inBox(want, f.Box) {
				n++
			}
		}
		for _, p := range im.Ignore {
			ignored = ignored || inBox(p, f.Box)
		}
		if n > 1 || (n == 0 && !ignored) {
			falsePos++
		}
	}
	return hits, falsePos
}

// runFaceSet runs DetectFaces on every picture of the set and returns the
// faces counted, found and the false positives, logging each miss, and
// what it found in each picture.
func runFaceSet(t testing.TB, a *Analyzer, set []setImage) (faces, hits, falsePos int, found [][]ml.Face) {
	for _, im := range set {
		fs, err := a.DetectFaces(context.Background(), im.img)
		if err != nil {
			t.Fatal(err)
		}
		h, fp := im.score(fs)
		if h < len(im.Faces) || fp > 0 {
			t.Logf("%s (%dx%d): %d of %d faces, %d false positives: %v", im.name, im.img.W, im.img.H, h, len(im.Faces), fp, boxes(fs))
		}
		faces, hits, falsePos = faces+len(im.Faces), hits+h, falsePos+fp
		found = append(found, fs)
	}
	return faces, hits, falsePos, found
}

// TestDetectFacesOnTheFaceSet checks recall and false positives on the
// face set, and that a picture and its mirror give the same faces: the
// whole picture and the second level's tiles are searched both ways round,
// and the check retries a face it drops mirrored. Boxes can differ a
// little where a coarser level of tiles (searched one way round) found a
// small face in one picture and not the other: IoU 0.41 for a 23×35 px
// face.
func TestDetectFacesOnTheFaceSet(t *testing.T) {
	a := newAnalyzer(t, Config{})
	set := faceSetImages(t)
	faces, hits, falsePos, found := runFaceSet(t, a, set)
	t.Run("recall and false positives", func(t *testing.T) {
		t.Logf("face set: %d of %d faces found (%.1f%%), %d false positives", hits, faces, 100*float64(hits)/float64(faces), falsePos)
		require.GreaterOrEqual(t, float64(hits), 0.9*float64(faces))
		require.Zero(t, falsePos)
	})
	t.Run("a mirrored picture gives the same faces", func(t *testing.T) {
		worst := 1.0
		for i := 0; i < len(set); i += 2 { // each picture, then its mirror
			name, there, back := set[i].name, found[i], found[i+1]
			require.Len(t, back, len(there), "%s: %v, mirrored %v", name, boxes(there), boxes(back))
			for _, f := range there {
				m := f.Box
				m.X = 1 - m.X - m.Width
				best, at := 0.0, ml.Box{}
				for _, g := range back {
					if o := iou(m, g.Box); o > best {
						best, at = o, g.Box
					}
				}
				worst = math.Min(worst, best)
				require.Greater(t, best, 0.4, "%s: face %+v has no mirrored match in %v", name, f.Box, boxes(back))
				require.True(t, inBox(center(m), at) && inBox(center(at), m), "%s: face %+v, mirrored %+v", name, m, at)
			}
		}
		t.Logf("worst IoU of a face and its mirror: %.2f", worst)
	})
}

func center(b ml.Box) ml.Point { return ml.Point{X: b.X + b.Width/2, Y: b.Y + b.Height/2} }

func iou(a, b ml.Box) float64 {
	w := math.Min(a.X+a.Width, b.X+b.Width) - math.Max(a.X, b.X)
	h := math.Min(a.Y+a.Height, b.Y+b.Height) - math.Max(a.Y, b.Y)
	if w <= 0 || h <= 0 {
		return 0
	}
	return w * h / (a.Width*a.Height + b.Width*b.Height - w*h)
}
