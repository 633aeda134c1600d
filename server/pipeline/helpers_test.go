package pipeline_test

import (
	"bytes"
	"context"
	"encoding/json"
	"image"
	"image/color"
	"image/jpeg"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
	_ "golang.org/x/image/webp" // decodes the stored renderings

	"github.com/photoctl/photoctl/ingest/exif"
	"github.com/photoctl/photoctl/ingest/geocode"
	"github.com/photoctl/photoctl/ingest/variant"
	"github.com/photoctl/photoctl/server/assets"
	"github.com/photoctl/photoctl/server/blob"
	"github.com/photoctl/photoctl/server/catalog"
	"github.com/photoctl/photoctl/server/libraries"
	"github.com/photoctl/photoctl/server/pipeline"
	"github.com/photoctl/photoctl/server/query"
	"github.com/photoctl/photoctl/server/servertest"
	"github.com/photoctl/photoctl/server/store"
	"github.com/photoctl/photoctl/server/users"
)

// needTools skips the test when a command-line tool is missing.
func needTools(t testing.TB, tools ...string) {
	t.Helper()
	for _, tool := range tools {
		if _, err := exec.LookPath(tool); err != nil {
			t.Skipf("%s is not installed", tool)
		}
	}
}

// sharedGeocoder loads the offline place data once for the whole test
// binary: it is costly (see ingest/geocode).
var sharedGeocoder = sync.OnceValue(func() *geocode.Geocoder { return geocode.New() })

// env is a real store, blob store and asset service with one user, and a
// Pipeline over them with real exiftool, libvips and the geocoder.
type env struct {
	t      testing.TB
	ctx    context.Context
	st     store.Store
	blobs  *blob.Store
	assets *assets.Service
	user   *catalog.Principal
	p      *pipeline.Pipeline
	// The tools under p, for tests that build a Pipeline of their own.
	pool     *exif.Pool
	renderer *variant.Renderer
}

func newEnv(t testing.TB) *env {
	t.Helper()
	needTools(t, "exiftool", "ffmpeg", "ffprobe")
	ctx := context.Background()
	dir := t.TempDir()
	st := servertest.NewStore(t) // SQLite, or PostgreSQL with PHOTOCTL_TEST_STORE=postgres
	blobs, err := blob.Open(dir)
	require.NoError(t, err)
	libs := libraries.NewService(st, time.Now)
	u, err := users.NewService(st, libs, time.Now, servertest.PasswordCost).Create(ctx, users.NewUser{Email: "ingest@example.com", Password: "correct horse battery"})
	require.NoError(t, err)
	pool, err := exif.NewPool(exif.Config{Processes: 1})
	require.NoError(t, err)
	renderer, err := variant.NewRenderer(variant.Config{Concurrency: 2}) // as the server renders: with the sample the variants step measures
	require.NoError(t, err)
	p, err := pipeline.New(pipeline.Deps{Store: st, Blobs: blobs, Metadata: pool, Renderer: renderer,
		Geocoder: sharedGeocoder(), Embedded: pool, Now: time.Now, Closers: []io.Closer{pool, renderer}})
	require.NoError(t, err)
	t.Cleanup(func() { require.NoError(t, p.Close()) })
	return &env{t: t, ctx: ctx, st: st, blobs: blobs, p: p, pool: pool, renderer: renderer,
		assets: assets.NewService(st, blobs, libs, assets.Config{MaxUploadBytes: 1 << 30}, time.Now),
		user:   &catalog.Principal{User: u, Kind: catalog.CredSession}}
}

// upload stores the file at path through the real upload path, with an
// XMP sidecar when sidecar is not "", and returns the new asset.
func (e *env) upload(path, sidecar string, in assets.UploadInput) *catalog.Asset {
	e.t.Helper()
	w, err := e.assets.StartUpload()
	require.NoError(e.t, err)
	f, err := os.Open(path)
	require.NoError(e.t, err)
	defer f.Close()
	_, err = w.ReadFrom(f)
	require.NoError(e.t, err)
	if sidecar != "" {
		sw, err := e.assets.StartSidecar()
		require.NoError(e.t, err)
		sf, err := os.Open(sidecar)
		require.NoError(e.t, err)
		defer sf.Close()
		_, err = sw.ReadFrom(sf)
		require.NoError(e.t, err)
		in.Sidecar = sw
	}
	if in.FileName == "" {
		in.FileName = filepath.Base(path)
	}
	res, err := e.assets.CompleteUpload(e.ctx, e.user, w, in)
	require.NoError(e.t, err)
	require.False(e.t, res.Duplicate)
	return res.Asset
}

// ingest runs every step in the order the task chain does.
func (e *env) ingest(id string) *catalog.Asset {
	e.t.Helper()
	require.NoError(e.t, e.p.Metadata(e.ctx, id))
	require.NoError(e.t, e.p.Variants(e.ctx, id))
	require.NoError(e.t, e.p.Geocode(e.ctx, id))
	return e.get(id)
}

func (e *env) get(id string) *catalog.Asset {
	e.t.Helper()
	a, err := e.st.Read().Assets().Get(e.ctx, id)
	require.NoError(e.t, err)
	return a
}

// events returns the asset's events of one type, oldest first.
func (e *env) events(a *catalog.Asset, typ string) []map[string]any {
	e.t.Helper()
	list, _, err := e.st.Read().Events().List(e.ctx, a.LibraryID, query.Page{Limit: 1000})
	require.NoError(e.t, err)
	var out []map[string]any
	for _, ev := range list {
		if ev.ResourceID == a.ID && ev.Type == typ {
			var data map[string]any
			require.NoError(e.t, json.Unmarshal(ev.Data, &data))
			out = append(out, data)
		}
	}
	return out
}

// variant reads a stored rendering and decodes it.
func (e *env) variant(id, name string) (data []byte, img image.Image) {
	e.t.Helper()
	for _, ext := range []string{".webp", ".jpg"} {
		f, err := e.blobs.Open(assets.VariantKey(id, name, ext))
		if err != nil {
			continue
		}
		defer f.Close()
		var buf bytes.Buffer
		_, err = buf.ReadFrom(f)
		require.NoError(e.t, err)
		img, _, err := image.Decode(bytes.NewReader(buf.Bytes()))
		require.NoError(e.t, err, "decode %s", name)
		return buf.Bytes(), img
	}
	e.t.Fatalf("asset %s has no %s", id, name)
	return nil, nil
}

// size is an image's width and height.
func size(img image.Image) [2]int { return [2]int{img.Bounds().Dx(), img.Bounds().Dy()} }

// hasBlob reports whether a blob exists.
func (e *env) hasBlob(key string) bool {
	_, err := e.blobs.Stat(key)
	return err == nil
}

// halves writes a w×h JPEG whose left half is red and right half blue, so
// the orientation of a rendering can be read from its pixels.
func halves(t testing.TB, w, h int) string {
	t.Helper()
	img := image.NewRGBA(image.Rect(0, 0, w, h))
	for y := range h {
		for x := range w {
			c := color.RGBA{220, 20, 20, 255}
			if x >= w/2 {
				c = color.RGBA{20, 20, 220, 255}
			}
			img.Set(x, y, c)
		}
	}
	path := filepath.Join(t.TempDir(), "halves.jpg")
	f, err := os.Create(path)
	require.NoError(t, err)
	require.NoError(t, jpeg.Encode(f, img, &jpeg.Options{Quality: 90}))
	require.NoError(t, f.Close())
	return path
}

// tag writes tags into the file at path with exiftool.
func tag(t testing.TB, path string, tags ...string) {
	t.Helper()
	run(t, "exiftool", append(append([]string{"-q", "-overwrite_original"}, tags...), path)...)
}

// run runs a tool and fails the test on error.
func run(t testing.TB, tool string, args ...string) {
	t.Helper()
	needTools(t, tool)
	out, err := exec.Command(tool, args...).CombinedOutput()
	require.NoError(t, err, "%s %s: %s", tool, strings.Join(args, " "), out)
}

// pixel is the colour at (x, y) of an image.
func pixel(img image.Image, x, y int) color.RGBA {
	r, g, b, _ := img.At(img.Bounds().Min.X+x, img.Bounds().Min.Y+y).RGBA()
	return color.RGBA{uint8(r >> 8), uint8(g >> 8), uint8(b >> 8), 255}
}

// reddish and bluish tell the two halves apart after compression.
func reddish(c color.RGBA) bool { return c.R > 150 && c.B < 100 }
func bluish(c color.RGBA) bool  { return c.B > 150 && c.R < 100 }
func ptr[T any](v T) *T         { return &v }
