package main

import (
	"crypto/sha1"
	"encoding/base64"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/photoctl/photoctl/server/servertest"
)

// goLibrary is the folder immich-go uploads, with the files it must hold
// afterwards (name → SHA-1, base64) and what it replaces.
type goLibrary struct {
	dir      string
	replaced string // SHA-1 of the smaller same-named copy immich-go replaces
	later    string // the folder C_New, out of dir until addLater
	files    map[string]string
}

// photoFolder writes n distinct JPEGs per folder plus the cases immich-go
// treats apart, tags every JPEG's capture time and GPS in one exiftool
// call, and adds short videos. Names repeat across folders on purpose.
func photoFolder(t *testing.T, n int) goLibrary {
	t.Helper()
	lib := goLibrary{dir: t.TempDir(), files: map[string]string{}}
	var args strings.Builder
	seed := 0
	jpeg := func(rel string, w, h int, taken time.Time) {
		seed++
		writeFile(t, filepath.Join(lib.dir, rel), servertest.JPEG(t, w, h, seed))
		fmt.Fprintf(&args, "-DateTimeOriginal=%s\n-OffsetTimeOriginal=+00:00\n-GPSLatitude=%.4f\n-GPSLatitudeRef=N\n"+
			"-GPSLongitude=%.4f\n-GPSLongitudeRef=E\n%s\n-execute\n", taken.Format("2006:01:02 15:04:05"),
			40+float64(seed%50)/10, 2+float64(seed%70)/10, filepath.Join(lib.dir, rel))
	}
	day := time.Date(2023, 6, 1, 9, 0, 0, 0, time.UTC)
	for _, folder := range []string{"A_Trip", "B_Home"} {
		for i := range n {
			jpeg(fmt.Sprintf("%s/img_%03d.jpg", folder, i), 24+i%5, 16+i%3, day.Add(time.Duration(seed)*time.Minute))
		}
	}
	// Same name, different photos taken at different times: both stay.
	jpeg("A_Trip/same.jpg", 30, 20, day.AddDate(0, 1, 0))
	jpeg("B_Home/same.jpg", 30, 20, day.AddDate(0, 2, 0))
	// Same name and time, bigger in the folder added later: immich-go
	// replaces the smaller copy on the server (upload, PUT
	// /api/assets/copy, DELETE /api/assets with force).
	jpeg("A_Trip/burst.jpg", 20, 14, day.AddDate(0, 3, 0))
	jpeg("C_New/burst.jpg", 200, 140, day.AddDate(0, 3, 0))
	for i := range 5 {
		jpeg(fmt.Sprintf("C_New/new_%d.jpg", i), 33, 22, day.AddDate(0, 4, i))
	}
	out, err := exec.Command("exiftool", "-@", writeArgs(t, args.String()),
		"-common_args", "-q", "-m", "-overwrite_original").CombinedOutput()
	require.NoError(t, err, "exiftool: %s", out)
	// An exact duplicate of a tagged file, in the folder added later: a
	// duplicate within one run is racy in immich-go (two concurrent
	// uploads, or an album call naming the id "" that Immich refuses).
	data, err := os.ReadFile(filepath.Join(lib.dir, "A_Trip", "img_000.jpg"))
	require.NoError(t, err)
	writeFile(t, filepath.Join(lib.dir, "C_New", "copy_of_img_000.jpg"), data)
	for i, size := range []string{"64x48", "48x64", "32x32"} {
		path := filepath.Join(lib.dir, "B_Home", fmt.Sprintf("clip_%d.mp4", i))
		out, err := exec.Command("ffmpeg", "-v", "error", "-f", "lavfi", "-i", "testsrc=duration=1:size="+size+":rate=10",
			"-pix_fmt", "yuv420p", "-y", path).CombinedOutput()
		require.NoError(t, err, "ffmpeg: %s", out)
	}
	small, err := os.ReadFile(filepath.Join(lib.dir, "A_Trip", "burst.jpg"))
	require.NoError(t, err)
	lib.replaced = sha1Base64(small)
	lib.later = filepath.Join(t.TempDir(), "C_New")
	require.NoError(t, os.Rename(filepath.Join(lib.dir, "C_New"), lib.later))
	lib.scan(t)
	return lib
}

// addLater moves the folder C_New into the library.
func (lib *goLibrary) addLater(t *testing.T) {
	t.Helper()
	require.NoError(t, os.Rename(lib.later, filepath.Join(lib.dir, "C_New")))
	lib.scan(t)
}

// writeArgs writes an exiftool argument file and returns its path.
func writeArgs(t *testing.T, args string) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "args.txt")
	require.NoError(t, os.WriteFile(path, []byte(args), 0o600))
	return path
}

// scan records the SHA-1 of every file under the folder by relative path.
func (lib *goLibrary) scan(t *testing.T) {
	t.Helper()
	require.NoError(t, filepath.WalkDir(lib.dir, func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		data, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(lib.dir, path)
		lib.files[rel] = sha1Base64(data)
		return nil
	}))
}

func sha1Base64(data []byte) string {
	sum := sha1.Sum(data)
	return base64.StdEncoding.EncodeToString(sum[:])
}

// contents is the set of distinct contents of files, by SHA-1, without
// the one immich-go replaces once C_New is in.
func (lib *goLibrary) contents() map[string]bool {
	out := map[string]bool{}
	_, added := lib.files[filepath.Join("C_New", "burst.jpg")]
	for _, sum := range lib.files {
		if !added || sum != lib.replaced {
			out[sum] = true
		}
	}
	return out
}

// archivedContents reads the SHA-1 of every file an archive wrote, except
// immich-go's sidecars (JSON, XMP), and requires each content to appear
// once.
func archivedContents(t *testing.T, dir string) map[string]bool {
	t.Helper()
	out := map[string]bool{}
	require.NoError(t, filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
		if ext := strings.ToLower(filepath.Ext(path)); err != nil || d.IsDir() || ext == ".json" || ext == ".xmp" {
			return err
		}
		data, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		sum := sha1Base64(data)
		require.False(t, out[sum], "%s is archived twice", path)
		out[sum] = true
		return nil
	}))
	return out
}
