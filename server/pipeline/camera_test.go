package pipeline_test

import (
	"errors"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	// The module's test data holds the real camera files these tests read;
	// the import keeps it in go.mod (go mod tidy drops modules nothing
	// imports), so `go list -m` finds it in the module cache.
	_ "github.com/rwcarlsen/goexif/exif"
	"github.com/stretchr/testify/require"

	"github.com/photoctl/photoctl/ingest/variant"
	"github.com/photoctl/photoctl/server/assets"
	"github.com/photoctl/photoctl/server/store"

	"github.com/photoctl/photoctl/server/servertest"
)

// moduleDir is where a module of the build list sits in the module cache:
// real camera files come from the test data of github.com/rwcarlsen/goexif
// (JPEG, TIFF) and github.com/davidbyttow/govips (iPhone HEIC).
func moduleDir(t *testing.T, module string) string {
	t.Helper()
	out, err := exec.Command("go", "list", "-m", "-f", "{{.Dir}}", module).Output()
	require.NoError(t, err, "go list -m %s", module)
	dir := strings.TrimSpace(string(out))
	if dir == "" {
		t.Skipf("%s is not in the module cache (go mod download %s)", module, module)
	}
	return dir
}

func goexif(t *testing.T, name string) string {
	return filepath.Join(moduleDir(t, "github.com/rwcarlsen/goexif"), filepath.FromSlash(name))
}

func govips(t *testing.T, name string) string {
	return filepath.Join(moduleDir(t, "github.com/davidbyttow/govips/v2"), "resources", name)
}

func TestANikonD2HPhotoTakenInBeijing(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	a := e.ingest(e.upload(goexif(t, "exif/sample1.jpg"), "", assets.UploadInput{}).ID)

	m := a.Merged()
	require.Equal(t, ptr("NIKON CORPORATION"), m.Make)
	require.Equal(t, ptr("NIKON D2H"), m.Model)
	require.Equal(t, ptr(4.5), m.FNumber)
	require.Equal(t, ptr(0.008), m.ExposureTime)
	require.Equal(t, ptr(23.33), m.FocalLength)
	require.Equal(t, ptr(1.0), m.Orientation)
	require.InDelta(t, 39.9155556, *m.Latitude, 1e-6)
	require.InDelta(t, 116.3908333, *m.Longitude, 1e-6)
	require.Equal(t, "2003-11-23T18:07:37.63+08:00", a.Capture.String(), "no offset recorded: Beijing's")
	require.Equal(t, ptr("Asia/Shanghai"), m.Timezone)
	require.Equal(t, ptr("Beijing, China"), m.DisplayLabel)
	require.Equal(t, ptr("CN"), m.CountryCode)
	require.Equal(t, [2]int{500, 375}, [2]int{*a.Width, *a.Height})
	_, thumb := e.variant(a.ID, "thumbnail")
	require.Equal(t, [2]int{250, 188}, size(thumb))
	_, preview := e.variant(a.ID, "preview")
	require.Equal(t, [2]int{500, 375}, size(preview))
	for _, k := range []string{"sharpness", "exposure", "contrast", "colorfulness", "noise", "quality"} {
		v, ok := a.Metrics[k].(float64)
		require.True(t, ok, "metric %s: %v", k, a.Metrics)
		require.True(t, v >= 0 && v <= 1, "%s = %v", k, v)
	}
	require.Regexp(t, `^[0-9a-f]{16}$`, a.Metrics["phash"])
}

func TestAnIPhone4SPhotoTurnedAQuarter(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	a := e.ingest(e.upload(goexif(t, "exif/samples/has-lens-info.jpg"), "", assets.UploadInput{}).ID)

	m := a.Merged()
	require.Equal(t, ptr("iPhone 4S back camera 4.28mm f/2.4"), m.LensModel)
	require.Equal(t, ptr(6.0), m.Orientation)
	require.Equal(t, "2014-09-01T15:03:47.88+02:00", a.Capture.String())
	require.Equal(t, ptr("Stockholm, Sweden"), m.DisplayLabel)
	require.Equal(t, [2]int{102, 205}, [2]int{*a.Width, *a.Height}, "stored 205×102")
	_, thumb := e.variant(a.ID, "thumbnail")
	require.Equal(t, [2]int{102, 205}, size(thumb), "never enlarged, upright")
}

// TestTheEightOrientationsLookTheSame renders GIMP's orientation samples:
// one picture stored eight ways, each with the EXIF orientation that shows
// it upright. Every rendering must match the first one's pixels.
func TestTheEightOrientationsLookTheSame(t *testing.T) {
	t.Parallel()
	servertest.SkipStoreNeutralOnPostgres(t, "orientation")
	e := newEnv(t)
	var first [][3]uint8
	for i := 1; i <= 8; i++ {
		name := "exif/samples/f" + string(rune('0'+i)) + "-exif.jpg"
		a := e.ingest(e.upload(goexif(t, name), "", assets.UploadInput{}).ID)
		require.Equal(t, ptr(float64(i)), a.FileMeta.Orientation, name)
		require.Equal(t, [2]int{40, 80}, [2]int{*a.Width, *a.Height}, name)
		_, preview := e.variant(a.ID, "preview")
		require.Equal(t, [2]int{40, 80}, size(preview), name)
		var px [][3]uint8
		for y := 5; y < 80; y += 10 {
			for x := 5; x < 40; x += 10 {
				c := pixel(preview, x, y)
				px = append(px, [3]uint8{c.R, c.G, c.B})
			}
		}
		if first == nil {
			first = px
			continue
		}
		for j := range px {
			for c := range 3 {
				require.InDelta(t, int(first[j][c]), int(px[j][c]), 40, "%s differs from f1 at sample %d", name, j)
			}
		}
	}
}

func TestAnIPhoneXSHEICWithOrientation6(t *testing.T) {
	t.Parallel()
	servertest.SkipStoreNeutralOnPostgres(t, "decoding a HEIC")
	e := newEnv(t)
	a := e.upload(govips(t, "heic-orientation-6.heic"), "", assets.UploadInput{})
	require.Equal(t, "image/heic", a.MIMEType)
	a = e.ingest(a.ID)

	m := a.Merged()
	require.Equal(t, ptr("iPhone XS"), m.Model)
	require.Equal(t, ptr(6.0), m.Orientation)
	require.Equal(t, "2020-03-05T11:28:10.15+02:00", a.Capture.String())
	require.Equal(t, ptr("UA"), m.CountryCode)
	require.Equal(t, "Kyiv, Ukraine", deref(m.DisplayLabel), "the town as GeoNames spells it")
	require.Equal(t, [2]int{3024, 4032}, [2]int{*a.Width, *a.Height})
	_, full := e.variant(a.ID, "fullsize")
	require.Equal(t, [2]int{3024, 4032}, size(full), "HEIC gets a fullsize in a browser format, upright")
	_, preview := e.variant(a.ID, "preview")
	require.Equal(t, [2]int{1080, 1440}, size(preview))
	_, thumb := e.variant(a.ID, "thumbnail")
	require.Equal(t, [2]int{188, 250}, size(thumb))
}

func TestAHEICEncodedByLibheif(t *testing.T) {
	t.Parallel()
	servertest.SkipStoreNeutralOnPostgres(t, "decoding a HEIC")
	e := newEnv(t)
	src := halves(t, 320, 240)
	tag(t, src, "-Make=Apple", "-Model=iPhone 15", "-DateTimeOriginal=2024:08:15 07:45:00",
		"-OffsetTimeOriginal=-04:00", "-GPSLatitude=40.7484", "-GPSLatitudeRef=N",
		"-GPSLongitude=73.9857", "-GPSLongitudeRef=W")
	heic := filepath.Join(t.TempDir(), "IMG_0001.HEIC")
	run(t, "heif-enc", "-q", "80", src, "-o", heic)

	a := e.upload(heic, "", assets.UploadInput{})
	require.Equal(t, "image/heic", a.MIMEType)
	a = e.ingest(a.ID)
	require.Equal(t, ptr("iPhone 15"), a.Merged().Model)
	require.Equal(t, "2024-08-15T07:45:00-04:00", a.Capture.String())
	require.Equal(t, ptr("US"), a.Merged().CountryCode)
	require.Equal(t, [2]int{320, 240}, [2]int{*a.Width, *a.Height})
	_, full := e.variant(a.ID, "fullsize")
	require.Equal(t, [2]int{320, 240}, size(full))
	require.True(t, reddish(pixel(full, 20, 120)) && bluish(pixel(full, 300, 120)), "left red, right blue")
}

func TestATIFFGetsAFullsize(t *testing.T) {
	t.Parallel()
	servertest.SkipStoreNeutralOnPostgres(t, "rendering a TIFF")
	e := newEnv(t)
	a := e.upload(goexif(t, "tiff/sample1.tif"), "", assets.UploadInput{})
	require.Equal(t, "image/tiff", a.MIMEType)
	a = e.ingest(a.ID)
	require.Equal(t, [2]int{1728, 2376}, [2]int{*a.Width, *a.Height})
	_, full := e.variant(a.ID, "fullsize")
	require.Equal(t, [2]int{1728, 2376}, size(full))
	_, preview := e.variant(a.ID, "preview")
	require.Equal(t, [2]int{1047, 1440}, size(preview))
}

// TestBrokenCameraFilesNeverHangOrPanic runs the steps over real damaged
// JPEGs: a truncated Canon file and three with corrupt EXIF (an infinite IFD
// loop, a huge tag, a count of 2^32-1). Metadata always succeeds with what
// can be read; a rendering libvips refuses is a failure the task queue will
// not retry.
func TestBrokenCameraFilesNeverHangOrPanic(t *testing.T) {
	t.Parallel()
	servertest.SkipStoreNeutralOnPostgres(t, "broken camera files in the tools")
	e := newEnv(t)
	for _, name := range []string{"exif/samples/2012-12-21-11-15-19-sep-IMG_0001.jpg",
		"exif/corrupt/infinite_loop_exif.jpg", "exif/corrupt/huge_tag_exif.jpg", "exif/corrupt/max_uint32_exif.jpg"} {
		a := e.upload(goexif(t, name), "", assets.UploadInput{})
		require.NoError(t, e.p.Metadata(e.ctx, a.ID), name)
		if err := e.p.Variants(e.ctx, a.ID); err != nil {
			t.Logf("%s: %v", name, err)
			// The sample is the head of a phone photo (goexif needs its
			// EXIF only): it is refused as truncated.
			require.True(t, errors.Is(err, variant.ErrUnsupported) || errors.Is(err, variant.ErrTruncated), name)
			continue
		}
		require.NoError(t, e.p.Metrics(e.ctx, a.ID), name)
		require.NotEmpty(t, e.get(a.ID).Metrics, name)
	}
}

func TestARAWIsRenderedFromItsEmbeddedJPEG(t *testing.T) {
	t.Parallel()
	servertest.SkipStoreNeutralOnPostgres(t, "rendering a RAW")
	e := newEnv(t)
	// No RAW file ships with the test data, so a JPEG carrying an embedded
	// 160×120 thumbnail stands in for one: the row says DNG, so libvips
	// refuses it and the pipeline falls back to exiftool's embedded image,
	// turned by the file's orientation.
	thumb := halves(t, 160, 120)
	path := halves(t, 64, 48)
	tag(t, path, "-Orientation#=6", "-ThumbnailImage<="+thumb)
	a := e.upload(path, "", assets.UploadInput{})
	require.NoError(t, e.p.Metadata(e.ctx, a.ID))
	a = e.get(a.ID)
	a.MIMEType = "image/x-adobe-dng"
	require.NoError(t, e.st.InTx(e.ctx, func(r store.Repos) error { return r.Assets().Update(e.ctx, a) }))

	require.NoError(t, e.p.Variants(e.ctx, a.ID))
	_, full := e.variant(a.ID, "fullsize")
	require.Equal(t, [2]int{120, 160}, size(full), "the embedded image, turned a quarter")
	require.True(t, reddish(pixel(full, 60, 10)) && bluish(pixel(full, 60, 150)))
	a = e.get(a.ID)
	require.Equal(t, [2]int{48, 64}, [2]int{*a.Width, *a.Height}, "the RAW's own size, not its preview's")
	require.NoError(t, e.p.Metrics(e.ctx, a.ID))
	require.Contains(t, e.get(a.ID).Metrics, "phash")
}
