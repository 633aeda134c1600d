package exif_test

import (
	"image"
	"image/color"
	"image/jpeg"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
	"github.com/stretchr/testify/require"

	"github.com/photoctl/photoctl/ingest/exif"
)

// needTool skips the test when a command-line tool is not installed.
func needTool(t testing.TB, tool string) {
	t.Helper()
	if _, err := exec.LookPath(tool); err != nil {
		t.Skipf("%s is not installed", tool)
	}
}

// newPool starts a pool that the test closes when it ends.
func newPool(t testing.TB, cfg exif.Config) *exif.Pool {
	t.Helper()
	needTool(t, "exiftool")
	p, err := exif.NewPool(cfg)
	require.NoError(t, err)
	t.Cleanup(func() { require.NoError(t, p.Close()) })
	return p
}

// run runs a command-line tool and fails the test on error.
func run(t testing.TB, cmd *exec.Cmd) {
	t.Helper()
	needTool(t, cmd.Args[0])
	out, err := cmd.CombinedOutput()
	require.NoError(t, err, "%v: %s", cmd.Args, out)
}

// exiftoolWrite is the command that writes tags into file in place:
// `exiftool -overwrite_original ARGS FILE`.
func exiftoolWrite(t testing.TB, file string, args ...string) *exec.Cmd {
	all := append(append([]string{"-q", "-overwrite_original"}, args...), file)
	return exec.CommandContext(t.Context(), "exiftool", all...)
}

// writeJPEG encodes a w×h gradient with the standard library.
func writeJPEG(t testing.TB, path string, w, h int) {
	t.Helper()
	img := image.NewRGBA(image.Rect(0, 0, w, h))
	for y := range h {
		for x := range w {
			img.Set(x, y, color.RGBA{uint8(x * 255 / w), uint8(y * 255 / h), 128, 255})
		}
	}
	f, err := os.Create(path)
	require.NoError(t, err)
	require.NoError(t, jpeg.Encode(f, img, &jpeg.Options{Quality: 90}))
	require.NoError(t, f.Close())
}

// photo writes a 64×48 JPEG into a temporary directory, tags it with
// exiftool and returns its path.
func photo(t testing.TB, tags ...string) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "photo.jpg")
	writeJPEG(t, path, 64, 48)
	if len(tags) > 0 {
		run(t, exiftoolWrite(t, path, tags...))
	}
	return path
}

func ptr[T any](v T) *T { return &v }

// utc is a wall-clock reading as Capture.Wall holds it.
func utc(y int, mo time.Month, d, h, mi, s, ns int) time.Time {
	return time.Date(y, mo, d, h, mi, s, ns, time.UTC)
}

// approx compares Metadata with floats equal to within 1e-6 (exiftool
// stores GPS as degree/minute/second rationals).
var approx = cmp.Options{cmpopts.EquateApprox(0, 1e-6)}

// requireMetadata fails with a field-by-field diff.
func requireMetadata(t *testing.T, want, got *exif.Metadata, opts ...cmp.Option) {
	t.Helper()
	if diff := cmp.Diff(want, got, append(cmp.Options{approx}, opts...)...); diff != "" {
		t.Fatalf("metadata (-want +got):\n%s", diff)
	}
}
