package web_test

import (
	"bytes"
	"context"
	"fmt"
	"image"
	"image/color"
	"image/draw"
	"image/jpeg"
	"math/rand/v2"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/fetch"
	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"
	"github.com/stretchr/testify/require"

	"github.com/photoctl/photoctl/server/api"
	"github.com/photoctl/photoctl/server/servertest"
)

// picture is a JPEG of coloured rectangles on a background, each seed its
// own composition: with the structure a perceptual hash sees (a smooth
// gradient's hash changes with any resampling), so a search by the
// picture finds it. tags are exiftool's arguments.
func picture(t *testing.T, name string, seed uint64, taken string, tags ...string) fixture {
	t.Helper()
	r := rand.New(rand.NewPCG(seed, seed*7+1))
	rgb := func() image.Image {
		return image.NewUniform(color.RGBA{uint8(r.IntN(256)), uint8(r.IntN(256)), uint8(r.IntN(256)), 255})
	}
	img := image.NewRGBA(image.Rect(0, 0, 640, 480))
	draw.Draw(img, img.Bounds(), rgb(), image.Point{}, draw.Src)
	for range 12 {
		x, y := r.IntN(640), r.IntN(480)
		draw.Draw(img, image.Rect(x, y, x+80+r.IntN(200), y+60+r.IntN(160)), rgb(), image.Point{}, draw.Src)
	}
	var buf bytes.Buffer
	require.NoError(t, jpeg.Encode(&buf, img, &jpeg.Options{Quality: 90}))
	path := filepath.Join(t.TempDir(), name)
	require.NoError(t, os.WriteFile(path, buf.Bytes(), 0o600))
	args := append([]string{"-q", "-overwrite_original", "-DateTimeOriginal=" + taken}, tags...)
	out, err := exec.Command("exiftool", append(args, path)...).CombinedOutput()
	require.NoError(t, err, "exiftool: %s", out)
	data, err := os.ReadFile(path)
	require.NoError(t, err)
	return fixture{name, data}
}

// searchByImage is POST /api/search with the picture: the ids found, best
// first.
func searchByImage(t *testing.T, s *servertest.Server, token string, img []byte) []string {
	t.Helper()
	r := s.SearchByImage(token, img, nil)
	require.Equal(t, http.StatusOK, r.Status, "%s", r.Body)
	var hits api.Page[api.SearchHit]
	r.JSON(t, &hits)
	ids := []string{}
	for _, h := range hits.Data {
		ids = append(ids, h.ID)
	}
	return ids
}

// busyOnce answers the page's next upload (POST /api/assets) with a 429
// and Retry-After: 1 in the browser, and lets every later one through to
// the server. The function it returns ends the interception and says how
// many uploads it saw.
func busyOnce(t *testing.T, b *browser) (stop func() int32) {
	t.Helper()
	ctx, cancel := context.WithCancel(b.ctx)
	paused := chromedp.Events(ctx, fetch.RequestPaused)
	var seen atomic.Int32
	done := make(chan struct{})
	go func() {
		defer close(done)
		for ev, err := range paused {
			if err != nil {
				return
			}
			if seen.Add(1) == 1 {
				_, _ = chromedp.Call(ctx, fetch.FulfillRequest, fetch.FulfillRequestParams{
					RequestID: ev.RequestID, ResponseCode: http.StatusTooManyRequests,
					ResponseHeaders: []*fetch.HeaderEntry{{Name: "Retry-After", Value: "1"}, {Name: "Content-Type", Value: "application/json"}},
					Body:            []byte(`{"detail":"rate limit exceeded; retry in 1s"}`),
				})
				continue
			}
			_, _ = chromedp.Call(ctx, fetch.ContinueRequest, fetch.ContinueRequestParams{RequestID: ev.RequestID})
		}
	}()
	_, err := chromedp.Call(b.ctx, fetch.Enable, fetch.EnableParams{Patterns: []*fetch.RequestPattern{{URLPattern: "*/api/assets"}}})
	require.NoError(t, err)
	return func() int32 {
		_, err := chromedp.Call(b.ctx, fetch.Disable, cdp.Empty{})
		require.NoError(t, err)
		cancel()
		<-done
		return seen.Load()
	}
}

// onDisk writes fixtures into a folder, for a file input, and returns
// their paths.
func onDisk(t *testing.T, files ...fixture) []string {
	t.Helper()
	dir := t.TempDir()
	var paths []string
	for _, f := range files {
		p := filepath.Join(dir, f.name)
		require.NoError(t, os.WriteFile(p, f.data, 0o600))
		paths = append(paths, p)
	}
	return paths
}

// TestGalleryUploadSearchMapTrash: in a real browser against the real
// server, a user uploads two photos through the upload page's file input
// (one with a GPS position and a caption) and one of them again, which is
// reported as a duplicate; sees their thumbnails in the timeline once
// ingested; finds the captioned one by a word and by its picture; sees it
// as the one cluster on the map where it was taken and lists it from
// there; restores it from the trash; and finds every page usable at a
// phone's width. The API's state is checked at each step.
func TestGalleryUploadSearchMapTrash(t *testing.T) {
	needTools(t, "exiftool")
	b := startBrowser(t)
	s := servertest.Start(t, servertest.WithPipeline)
	u, token := s.Session()
	const lat, lon = 48.3833, -4.7722 // Brittany
	files := []fixture{
		picture(t, "IMG_0001.jpg", 1, "2024:06:01 10:00:00", "-ImageDescription=Kittiwakes over the cliffs",
			fmt.Sprintf("-GPSLatitude=%g", lat), "-GPSLatitudeRef=N", fmt.Sprintf("-GPSLongitude=%g", -lon), "-GPSLongitudeRef=W"),
		picture(t, "IMG_0002.jpg", 7, "2024:05:02 09:00:00"),
	}
	paths := onDisk(t, files...)

	// Signed out, the upload page asks for a sign-in and comes back.
	b.do(t, chromedp.Navigate(s.URL+"/upload"), chromedp.WaitVisible(css(`input[name=email]`)),
		chromedp.SendKeys(css(`input[name=email]`), u.Email), chromedp.SendKeys(css(`input[name=password]`), u.Password),
		chromedp.Submit(css(`input[name=password]`)))
	b.waitFor(t, "the upload page", `location.pathname === '/upload' && document.querySelector('#upload[aria-busy="false"]') !== null`)

	// Two files through the picker: both uploaded, each with its progress full.
	b.do(t, chromedp.SetUploadFiles(css(`#files`), paths))
	b.waitFor(t, "two uploads", `[...document.querySelectorAll('#queue li')].filter(li => li.dataset.result === 'uploaded').length === 2`)
	require.Equal(t, []float64{1, 1}, eval[[]float64](t, b, `[...document.querySelectorAll('#queue progress')].map(p => p.value)`))
	ids := eval[map[string]string](t, b, `Object.fromEntries([...document.querySelectorAll('#queue li')].map(li => [li.dataset.name, li.dataset.assetId]))`)
	gps, plain := ids["IMG_0001.jpg"], ids["IMG_0002.jpg"]
	var listed []string
	for _, a := range servertest.List[api.Asset](s, token, "/api/assets?limit=10") {
		listed = append(listed, a.ID)
	}
	require.ElementsMatch(t, []string{gps, plain}, listed, "the API holds the two uploads")

	// The same bytes again, while the server is busy: answered 429 once
	// (by the browser's network layer, standing in for the server), the
	// page waits the Retry-After and sends it again; the answer is a
	// duplicate of the first, nothing stored.
	stop := busyOnce(t, b)
	b.do(t, chromedp.SetUploadFiles(css(`#files`), paths[:1]))
	b.waitFor(t, "the wait", `document.querySelectorAll('#queue li')[2]?.textContent.includes('Waiting 1 s')`)
	b.waitFor(t, "the duplicate", `document.querySelectorAll('#queue li')[2]?.dataset.result === 'duplicate'`)
	require.EqualValues(t, 2, stop(), "the upload was sent twice")
	require.Equal(t, gps, eval[string](t, b, `document.querySelectorAll('#queue li')[2].dataset.assetId`))
	require.Contains(t, eval[string](t, b, `document.querySelectorAll('#queue li')[2].textContent`), "Duplicate")
	require.Contains(t, eval[string](t, b, `document.getElementById('summary').textContent`), "2 uploaded, 1 duplicates, 0 failed")
	require.True(t, eval[bool](t, b, `!document.getElementById('done').hidden`), "the link to the timeline")
	require.Len(t, servertest.List[api.Asset](s, token, "/api/assets?limit=10"), 2)
	// A file dropped on the drop zone that is no photo: the API's reason.
	b.do(t, chromedp.Evaluate[chromedp.Void](`(() => {
		const dt = new DataTransfer();
		dt.items.add(new File(['just some notes'], 'notes.txt', { type: 'text/plain' }));
		document.getElementById('drop').dispatchEvent(new DragEvent('drop', { dataTransfer: dt, bubbles: true, cancelable: true }));
	})()`))
	b.waitFor(t, "the dropped file refused", `document.querySelectorAll('#queue li')[3]?.dataset.result === 'error'`)
	refused := eval[string](t, b, `document.querySelector('#queue li[data-name="notes.txt"] [role=alert]').textContent`)
	require.True(t, strings.HasPrefix(refused, "Error: ") && len(refused) > len("Error: ")+5, refused)
	require.Len(t, servertest.List[api.Asset](s, token, "/api/assets?limit=10"), 2)
	b.snapshot(t, "upload")

	// Once ingested, the timeline (the page's link) paints both thumbnails.
	for _, id := range []string{gps, plain} {
		s.WaitForTasks(token, id, 3*time.Minute)
	}
	b.do(t, chromedp.Click(css(`#to-timeline`)))
	b.waitFor(t, "two painted thumbnails in the timeline",
		`location.pathname === '/' && [...document.querySelectorAll('.tile img')].filter(i => i.complete && i.naturalWidth > 0).length === 2`)

	// A word of the caption finds the photo, kept in the address.
	require.Equal(t, []string{gps}, s.SearchIDs(token, "kittiwakes"))
	b.do(t, chromedp.Click(css(`.sections a[data-section="search"]`)))
	b.waitFor(t, "the search page", `document.querySelector('#search[aria-busy="false"]') !== null && document.activeElement?.id === 'q'`)
	b.do(t, chromedp.SendKeys(css(`#q`), "kittiwakes"+kb.Enter))
	found := `location.search.includes('q=kittiwakes') && document.querySelector('#search[aria-busy="false"]') !== null &&
		[...document.querySelectorAll('#results .thumb')].map(a => new URL(a.href).pathname).join() === '/photos/` + gps + `'`
	b.waitFor(t, "the captioned photo found", found)
	b.do(t, chromedp.Reload())
	b.waitFor(t, "the same result after a reload", found)
	b.snapshot(t, "search")
	b.do(t, chromedp.Navigate(s.URL+"/search?q=zebra"))
	b.waitFor(t, "no matches", `document.getElementById('status').textContent.startsWith('No matches') && document.querySelectorAll('#results .thumb').length === 0`)

	// The picture itself finds the photo first.
	require.Equal(t, gps, searchByImage(t, s, token, files[0].data)[0])
	b.do(t, chromedp.SetUploadFiles(css(`#image`), paths[:1]))
	b.waitFor(t, "the photo found by its picture",
		`document.querySelector('#search[aria-busy="false"]') !== null && document.querySelector('#results .thumb')?.dataset.id === '`+gps+`' &&
		!location.search.includes('q=')`)

	// The map: one cluster, where the photo was taken (the API says so
	// too); zoomed in with the keyboard it is asked again and still there;
	// Enter on it lists the photo.
	var geo struct{ Data []api.GeoCluster }
	r := s.Do("GET", "/api/assets/geo-clusters?bbox=-180,-90,180,90&cell_size=30", token, nil)
	require.Equal(t, http.StatusOK, r.Status, "%s", r.Body)
	r.JSON(t, &geo)
	require.Len(t, geo.Data, 1)
	require.EqualValues(t, 1, geo.Data[0].Count)
	b.do(t, chromedp.Navigate(s.URL+"/map"))
	oneCluster := `document.querySelector('#map-main[data-loading="false"]') !== null && document.querySelectorAll('#map .cluster').length === 1`
	b.waitFor(t, "one cluster", oneCluster)
	where := eval[[]float64](t, b, `(() => { const c = document.querySelector('#map .cluster'); return [+c.dataset.lat, +c.dataset.lon, +c.dataset.count]; })()`)
	require.InDelta(t, lat, where[0], 0.001)
	require.InDelta(t, lon, where[1], 0.001)
	require.Equal(t, 1.0, where[2])
	require.True(t, eval[bool](t, b, `document.querySelector('#map path.land').getAttribute('d').length > 10000`), "the world is drawn")
	b.snapshot(t, "map-world")
	require.Equal(t, "30", eval[string](t, b, `document.getElementById('map-main').dataset.cell`))
	b.do(t, chromedp.Focus(css(`#map`)), chromedp.KeyEvent("+"), chromedp.KeyEvent("+"),
		chromedp.KeyEvent(kb.ArrowUp), chromedp.KeyEvent(kb.ArrowUp), chromedp.KeyEvent(kb.ArrowUp))
	b.waitFor(t, "zoomed in twice and north", `document.getElementById('map-main').dataset.zoom === '2' && `+oneCluster)
	require.Equal(t, "5", eval[string](t, b, `document.getElementById('map-main').dataset.cell`), "a finer grid")
	require.True(t, eval[bool](t, b, `(() => {
		const m = document.getElementById('map').getBoundingClientRect();
		const c = document.querySelector('#map .cluster circle').getBoundingClientRect();
		return c.left >= m.left && c.right <= m.right && c.top >= m.top && c.bottom <= m.bottom;
	})()`), "the cluster is in view")
	b.do(t, chromedp.Focus(css(`#map .cluster`)), chromedp.KeyEvent(kb.Enter))
	b.waitFor(t, "the cluster's photo listed",
		`[...document.querySelectorAll('#cluster-assets .thumb')].map(a => a.dataset.id).join() === '`+gps+`'`)
	b.snapshot(t, "map")

	// Trashed (through the API), the photo is in the trash; restored from
	// there, it is back in the timeline.
	require.Equal(t, http.StatusOK, s.Do("POST", "/api/assets/trash", token, map[string]any{"ids": []string{gps}}).Status)
	b.do(t, chromedp.Navigate(s.URL+"/trash"))
	b.waitFor(t, "the trashed photo", `document.querySelector('#trash[aria-busy="false"]') !== null &&
		[...document.querySelectorAll('#grid .thumb')].map(a => a.dataset.id).join() === '`+gps+`'`)
	b.do(t, chromedp.Focus(css(`#grid .thumb input`)), chromedp.KeyEvent(" "))
	b.waitFor(t, "Restore enabled", `document.getElementById('restore').disabled === false`)
	b.snapshot(t, "trash")
	b.do(t, chromedp.Click(css(`#restore`)))
	b.waitFor(t, "the trash empty", `document.querySelectorAll('#grid .thumb').length === 0 && !document.getElementById('empty').hidden`)
	require.Empty(t, servertest.List[api.Asset](s, token, "/api/assets?state=trashed&limit=10"))
	b.do(t, chromedp.Navigate(s.URL+"/"))
	b.waitFor(t, "both photos in the timeline again",
		`[...document.querySelectorAll('.tile img')].filter(i => i.complete && i.naturalWidth > 0).length === 2`)

	// Deleted forever from the trash, after the confirmation, the other
	// photo is gone.
	require.Equal(t, http.StatusOK, s.Do("POST", "/api/assets/trash", token, map[string]any{"ids": []string{plain}}).Status)
	b.do(t, chromedp.Navigate(s.URL+"/trash"))
	b.waitFor(t, "the other photo trashed", `document.querySelector('#trash[aria-busy="false"]') !== null &&
		[...document.querySelectorAll('#grid .thumb')].map(a => a.dataset.id).join() === '`+plain+`'`)
	b.do(t, chromedp.Click(css(`#select-all`)), chromedp.Click(css(`#delete`)), chromedp.WaitVisible(css(`#confirm-delete`)),
		chromedp.Click(css(`#confirm-delete`)))
	b.waitFor(t, "the trash empty again", `document.querySelectorAll('#grid .thumb').length === 0 && !document.getElementById('empty').hidden`)
	require.Contains(t, eval[string](t, b, `document.getElementById('status').textContent`), "Deleted forever: 1 item")
	require.Equal(t, http.StatusNotFound, s.Do("GET", "/api/assets/"+plain, token, nil).Status)

	// At a phone's width every page fits.
	b.do(t, chromedp.EmulateViewport(390, 844))
	for _, page := range []string{"/upload", "/search?q=kittiwakes", "/map", "/trash"} {
		b.do(t, chromedp.Navigate(s.URL+page))
		name := strings.Trim(strings.SplitN(page, "?", 2)[0], "/")
		b.waitFor(t, name+" at a phone's width", `document.querySelector('main[aria-busy="false"]:not([data-loading="true"])') !== null &&
			document.documentElement.scrollWidth <= 390 &&
			[...document.querySelectorAll('main input, main button, .map')].every(e => e.getBoundingClientRect().right <= 390)`)
		b.snapshot(t, name+"-phone")
	}
	b.noPageErrors(t)
}
