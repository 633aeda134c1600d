package web_test

import (
	"bytes"
	"fmt"
	"image/jpeg"
	"image/png"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/stretchr/testify/require"

	"github.com/photoctl/photoctl/server/servertest"
)

// TestREADMEScreenshot makes the README's picture of the timeline: the real
// photos of the ML folder (servertest.MLDir: Debian's and npm's sample
// pictures), given capture dates over two months, uploaded to the real
// server with its pipeline, shown in headless Chromium. It runs only when
// PHOTOCTL_README_SCREENSHOT names the file to write (.png, or .jpg):
//
//	PHOTOCTL_README_SCREENSHOT=$PWD/docs/images/timeline.jpg go test -tags sqlite_fts5 -run TestREADMEScreenshot ./server/web
func TestREADMEScreenshot(t *testing.T) {
	out := os.Getenv("PHOTOCTL_README_SCREENSHOT")
	if out == "" {
		t.Skip("set PHOTOCTL_README_SCREENSHOT to the file to write")
	}
	needTools(t, "exiftool")
	photos := filepath.Join(servertest.MLDir(t), "photos")
	names, err := filepath.Glob(filepath.Join(photos, "*"))
	require.NoError(t, err)
	sort.Strings(names)
	b := startBrowser(t)
	s := servertest.Start(t, servertest.WithPipeline)
	u, token := s.Session()
	var ids []string
	for i, src := range names {
		data, err := os.ReadFile(src)
		require.NoError(t, err)
		path := filepath.Join(t.TempDir(), filepath.Base(src))
		require.NoError(t, os.WriteFile(path, data, 0o600))
		taken := time.Date(2026, 10, 1, 9, 0, 0, 0, time.UTC).Add(time.Duration(i) * 61 * time.Hour)
		if o, err := exec.Command("exiftool", "-q", "-overwrite_original",
			"-DateTimeOriginal="+taken.Format("2006:01:02 15:04:05"), path).CombinedOutput(); err != nil {
			t.Logf("%s keeps its date: %v %s", filepath.Base(src), err, o)
		}
		data, err = os.ReadFile(path)
		require.NoError(t, err)
		ids = append(ids, s.UploadAsset(token, filepath.Base(src), data, nil).ID)
	}
	for _, id := range ids {
		s.WaitForTasks(token, id, 5*time.Minute)
	}
	signIn(t, b, s, u)
	b.do(t, chromedp.EmulateViewport(1280, 800))
	b.waitFor(t, "every thumbnail", fmt.Sprintf(`document.querySelectorAll('.tile img').length === %d &&
		[...document.querySelectorAll('.tile img')].every((i) => i.complete && i.naturalWidth > 0)`, len(ids)))
	shot, err := chromedp.Run(b.ctx, chromedp.CaptureScreenshot())
	require.NoError(t, err)
	if strings.HasSuffix(out, ".jpg") { // a tenth of the PNG's size
		img, err := png.Decode(bytes.NewReader(shot))
		require.NoError(t, err)
		var buf bytes.Buffer
		require.NoError(t, jpeg.Encode(&buf, img, &jpeg.Options{Quality: 85}))
		shot = buf.Bytes()
	}
	require.NoError(t, os.MkdirAll(filepath.Dir(out), 0o755))
	require.NoError(t, os.WriteFile(out, shot, 0o644))
	t.Logf("wrote %s (%d bytes)", out, len(shot))
}
