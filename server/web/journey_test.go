package web_test

import (
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"
	"github.com/stretchr/testify/require"

	"github.com/photoctl/photoctl/server/api"
	"github.com/photoctl/photoctl/server/servertest"
)

// fixture is a file to upload, made by the real tools.
type fixture struct {
	name string
	data []byte
}

// photo is a JPEG with camera, exposure, capture time and a description
// written in by exiftool.
func photo(t *testing.T, name string, seed int, taken string, tags ...string) fixture {
	t.Helper()
	path := filepath.Join(t.TempDir(), name)
	require.NoError(t, os.WriteFile(path, servertest.JPEG(t, 640, 480, seed), 0o600))
	args := append([]string{"-q", "-overwrite_original", "-DateTimeOriginal=" + taken}, tags...)
	out, err := exec.Command("exiftool", append(args, path)...).CombinedOutput()
	require.NoError(t, err, "exiftool: %s", out)
	data, err := os.ReadFile(path)
	require.NoError(t, err)
	return fixture{name, data}
}

// video is a one-second H.264 clip made by ffmpeg, taken at created.
func video(t *testing.T, name, created string) fixture {
	t.Helper()
	path := filepath.Join(t.TempDir(), name)
	out, err := exec.Command("ffmpeg", "-v", "error", "-f", "lavfi", "-i", "testsrc=size=320x240:rate=10", "-t", "1",
		"-pix_fmt", "yuv420p", "-metadata", "creation_time="+created, path).CombinedOutput()
	require.NoError(t, err, "ffmpeg: %s", out)
	data, err := os.ReadFile(path)
	require.NoError(t, err)
	return fixture{name, data}
}

func needTools(t *testing.T, tools ...string) {
	t.Helper()
	for _, tool := range tools {
		if _, err := exec.LookPath(tool); err != nil {
			t.Skipf("%s is not installed", tool)
		}
	}
}

// TestGalleryJourney: in a real browser against the real server (its
// ingest pipeline running exiftool, libvips and ffmpeg), a user signs in
// (after a wrong password, which shows an error), sees the timeline by
// month with the uploaded assets' thumbnails painted, opens the viewer,
// reads the camera, exposure and description, steps to the next and
// previous asset with the arrow keys, plays nothing but sees a video's
// poster and player, and signs out.
func TestGalleryJourney(t *testing.T) {
	needTools(t, "exiftool", "ffmpeg", "ffprobe")
	b := startBrowser(t)
	s := servertest.Start(t, servertest.WithPipeline)
	u, token := s.Session()
	files := []fixture{
		photo(t, "harbour.jpg", 1, "2024:05:11 10:00:00", "-Make=FUJIFILM", "-Model=X-T5", "-FNumber=2.8",
			"-ExposureTime=1/250", "-ISO=400", "-FocalLength=23", "-ImageDescription=Boats in the harbour"),
		photo(t, "market.jpg", 2, "2024:05:10 09:00:00", "-Make=Canon", "-Model=EOS R6"),
		photo(t, "snow.jpg", 3, "2024:03:02 12:00:00"),
		video(t, "clip.mp4", "2024-03-01T08:00:00Z"),
	}
	var ids []string
	for _, f := range files {
		a := s.UploadAsset(token, f.name, f.data, nil)
		ids = append(ids, a.ID)
	}
	for _, id := range ids {
		s.WaitForTasks(token, id, 3*time.Minute)
	}
	// The timeline's order, newest first, as the API lists it.
	var order []string
	for _, a := range servertest.List[api.Asset](s, token, "/api/assets?limit=10") {
		order = append(order, a.ID)
	}
	require.Len(t, order, 4)

	// Signed out, the gallery sends the browser to the sign-in form.
	b.do(t, chromedp.Navigate(s.URL+"/"), chromedp.WaitVisible(css(`input[name=email]`)))
	require.Contains(t, b.location(t), "/signin?next=")

	// A wrong password shows an error and keeps the e-mail.
	b.do(t, chromedp.SendKeys(css(`input[name=email]`), u.Email),
		chromedp.SendKeys(css(`input[name=password]`), "not the password"),
		chromedp.Submit(css(`input[name=password]`)), chromedp.WaitVisible(css(`#signin-error`)))
	msg, err := chromedp.Run(b.ctx, chromedp.Text(css(`#signin-error`)))
	require.NoError(t, err)
	require.Contains(t, msg, "Incorrect e-mail or password")
	email, err := chromedp.Run(b.ctx, chromedp.Value(css(`input[name=email]`)))
	require.NoError(t, err)
	require.Equal(t, u.Email, email)

	// The right one opens the timeline: two months with their counts, and
	// every thumbnail painted.
	b.do(t, chromedp.SendKeys(css(`input[name=password]`), u.Password), chromedp.Submit(css(`input[name=password]`)))
	b.waitFor(t, "four painted thumbnails",
		`[...document.querySelectorAll('.tile img')].filter(i => i.complete && i.naturalWidth > 0).length === 4`)
	require.Equal(t, s.URL+"/", b.location(t))
	headings := eval[[]string](t, b, `[...document.querySelectorAll('.month h2')].map(h => h.textContent)`)
	require.Len(t, headings, 2)
	require.Contains(t, headings[0], "May 2024")
	require.True(t, strings.HasSuffix(headings[0], " 2"), headings[0])
	require.Contains(t, headings[1], "March 2024")
	tiles := eval[[]string](t, b, `[...document.querySelectorAll('.tile')].map(a => new URL(a.href).pathname)`)
	var want []string
	for _, id := range order {
		want = append(want, "/photos/"+id)
	}
	require.Equal(t, want, tiles, "tiles in the timeline's order")
	require.True(t, eval[bool](t, b, `document.querySelector('.tile .badge.video') !== null`), "the video has its badge")
	options := eval[[]string](t, b, `[...document.querySelectorAll('#jump option')].map(o => o.value)`)
	require.Equal(t, []string{"2024-05", "2024-03"}, options)
	b.snapshot(t, "timeline")
	require.True(t, eval[bool](t, b, `(() => {
		const s = getComputedStyle(document.getElementById('timeline'));
		const cols = Number(s.getPropertyValue('--cols')), tile = parseFloat(s.getPropertyValue('--tile'));
		return [...document.querySelectorAll('.chunk')].every((c) => cols * tile + (cols - 1) * 4 <= c.clientWidth);
	})()`), "the grid's columns fit the timeline's width")

	// The keyboard reaches the tiles, and a focused tile shows it.
	for i := 0; i < 30; i++ { // past the header's links and the page's buttons
		b.do(t, chromedp.KeyEvent(kb.Tab))
		if eval[bool](t, b, `document.activeElement.classList.contains('tile')`) {
			break
		}
	}
	require.True(t, eval[bool](t, b, `document.activeElement.classList.contains('tile') && document.activeElement.matches(':focus-visible')`),
		"Tab reaches the first tile and it shows its focus")
	require.NotEqual(t, "none", eval[string](t, b, `getComputedStyle(document.activeElement).outlineStyle`))

	// On a phone-sized screen the grid keeps three columns within the width.
	b.do(t, chromedp.EmulateViewport(390, 844))
	b.waitFor(t, "the phone layout", `(() => {
		const tiles = [...document.querySelectorAll('.tile')];
		const right = Math.max(...tiles.map(t => t.getBoundingClientRect().right));
		const chunk = document.querySelector('.chunk');
		if (!chunk) return false; // the months are being laid out again
		const columns = getComputedStyle(chunk).gridTemplateColumns.split(' ').length;
		return tiles.length === 4 && document.documentElement.scrollWidth <= 390 && right <= 390 && columns === 3;
	})()`)
	b.snapshot(t, "timeline-phone")
	b.do(t, chromedp.EmulateViewport(1280, 900))

	// The first tile opens the viewer: the preview and the details. The
	// months are laid out again for the wider screen first (their tiles
	// come and go meanwhile), and the tile is then activated as a link is,
	// not clicked at coordinates a re-layout can move.
	b.waitFor(t, "the wide layout", `(() => {
		const chunk = document.querySelector('.chunk');
		return document.querySelectorAll('.tile').length === 4 && chunk !== null &&
			getComputedStyle(chunk).gridTemplateColumns.split(' ').length > 3;
	})()`)
	require.True(t, eval[bool](t, b, `(document.querySelector('.tile').click(), true)`))
	b.do(t, chromedp.WaitReady(css(`#viewer[data-ready="true"]`)))
	require.Contains(t, b.location(t), "/photos/"+order[0])
	b.waitFor(t, "the preview painted", `document.querySelector('#stage img')?.naturalWidth > 0`)
	meta := eval[map[string]string](t, b,
		`Object.fromEntries([...document.querySelectorAll('#meta dt')].map(dt => [dt.textContent, dt.nextElementSibling.textContent]))`)
	require.Equal(t, "FUJIFILM X-T5", meta["Camera"])
	require.Equal(t, "f/2.8 · 1/250 s · ISO 400 · 23 mm", meta["Exposure"])
	require.Equal(t, "Boats in the harbour", meta["Description"])
	require.Contains(t, meta["File"], "harbour.jpg")
	require.Equal(t, "/api/assets/"+order[0]+"/original", eval[string](t, b, `new URL(document.getElementById('download').href).pathname`))
	b.snapshot(t, "viewer")

	// The arrow keys step through the timeline's order and back.
	b.do(t, chromedp.KeyEvent(kb.ArrowRight))
	b.waitFor(t, "the next asset", `location.pathname === '/photos/`+order[1]+`' && document.querySelector('#viewer[data-ready="true"]') !== null`)
	b.do(t, chromedp.KeyEvent(kb.ArrowLeft))
	b.waitFor(t, "the previous asset", `location.pathname === '/photos/`+order[0]+`' && document.querySelector('#viewer[data-ready="true"]') !== null`)
	require.Equal(t, "true", eval[string](t, b, `String(document.getElementById('prev').getAttribute('aria-disabled') === 'true')`),
		"the newest asset has no previous one")

	// The oldest asset is the video: a player with its poster, whose
	// metadata loads through the session cookie.
	b.do(t, chromedp.Navigate(s.URL+"/photos/"+order[3]), chromedp.WaitReady(css(`#viewer[data-ready="true"]`)))
	b.waitFor(t, "the video's metadata", `document.querySelector('#stage video')?.readyState >= 1`)
	require.Equal(t, "/api/assets/"+order[3]+"/variants/poster", eval[string](t, b, `new URL(document.querySelector('#stage video').poster).pathname`))
	require.Equal(t, "true", eval[string](t, b, `String(document.getElementById('next').getAttribute('aria-disabled') === 'true')`),
		"the oldest asset has no next one")
	poster := s.Get("/api/assets/"+order[3]+"/variants/poster", token, nil)
	require.Equal(t, http.StatusOK, poster.Status)
	require.Equal(t, "image/jpeg", poster.Header.Get("Content-Type"))
	require.Equal(t, "nosniff", poster.Header.Get("X-Content-Type-Options"))

	// Signing out ends the session: the gallery asks for a sign-in again.
	b.do(t, chromedp.Click(css(`.signout button`)), chromedp.WaitVisible(css(`input[name=email]`)))
	b.do(t, chromedp.Navigate(s.URL+"/"), chromedp.WaitVisible(css(`input[name=email]`)))
	require.Contains(t, b.location(t), "/signin")
	b.noPageErrors(t)
}
