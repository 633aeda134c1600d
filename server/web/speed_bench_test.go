package web_test

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"log/slog"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"testing"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/network"
	"github.com/chromedp/chromedp"
	"github.com/stretchr/testify/require"

	"github.com/photoctl/photoctl/ingest/variant"
	"github.com/photoctl/photoctl/server/app"
	"github.com/photoctl/photoctl/server/assets"
	"github.com/photoctl/photoctl/server/catalog"
	"github.com/photoctl/photoctl/server/devseed"
	"github.com/photoctl/photoctl/server/query"
	"github.com/photoctl/photoctl/server/servertest"
	"github.com/photoctl/photoctl/server/store"
)

// webBenchAssets is the library size of the gallery's speed benchmark:
// $WEB_BENCH_ASSETS, default 100,000.
func webBenchAssets() int {
	if n, err := strconv.Atoi(os.Getenv("WEB_BENCH_ASSETS")); err == nil && n > 0 {
		return n
	}
	return 100_000
}

const (
	webBenchEmail    = "bench@example.com"
	webBenchPassword = "photoctl-bench"
	// webBenchThumbnails is how many of the newest assets get a real
	// thumbnail: the first screens of the timeline, many times over.
	webBenchThumbnails = 600
)

// webBenchDir returns a data directory with a seeded library of
// webBenchAssets assets (devseed rows over ten years) whose newest
// webBenchThumbnails assets have real thumbnails made by the renderer,
// seeding it into .cache/web-bench-N at the repository root on first use
// (delete the folder to seed again).
func webBenchDir(tb testing.TB) string {
	n := webBenchAssets()
	dir, err := filepath.Abs(filepath.Join("..", "..", ".cache", "web-bench-"+strconv.Itoa(n)))
	require.NoError(tb, err)
	return servertest.SeededLibrary{Dir: dir, Email: webBenchEmail, Password: webBenchPassword,
		Seed: devseed.Options{Assets: n, Seed: 36}, Finish: benchRenderings(tb)}.DataDir(tb)
}

// benchRenderings gives the newest webBenchThumbnails assets, in the
// timeline's order, real thumbnails made by the renderer (two dozen
// pictures taken in turn), and the videos among them a poster frame.
func benchRenderings(tb testing.TB) func(app.Config, store.Store, *catalog.Library) {
	return func(cfg app.Config, st store.Store, lib *catalog.Library) {
		ctx := context.Background()
		list, _, err := st.Read().Assets().List(ctx, query.AssetFilter{LibraryID: lib.ID}, query.Page{Limit: webBenchThumbnails})
		require.NoError(tb, err)
		r, err := variant.NewRenderer(variant.Config{})
		require.NoError(tb, err)
		defer r.Close()
		var thumbs []*variant.Result
		for seed := range 24 {
			res, err := r.RenderEmbedded(ctx, servertest.JPEG(tb, 1600, 1200, seed), 1)
			require.NoError(tb, err)
			thumbs = append(thumbs, res)
		}
		blobs, err := app.OpenBlobs(cfg)
		require.NoError(tb, err)
		defer blobs.Close()
		for i, a := range list {
			t := thumbs[i%len(thumbs)]
			key := assets.VariantKey(a.ID, "thumbnail", t.Ext)
			if a.MediaType == catalog.MediaVideo { // its tile shows the poster frame, a JPEG
				key = assets.VariantKey(a.ID, "poster", ".jpg")
				t = &variant.Result{Thumbnail: servertest.JPEG(tb, 320, 240, i)}
			}
			require.NoError(tb, blobs.Put(key, bytes.NewReader(t.Thumbnail)))
		}
	}
}

// paintJS waits until every thumbnail of the first screen has painted and
// returns, from the Element Timing entries (the tiles' images carry
// elementtiming), when the first and the last of them painted, in ms after
// the navigation started, with how many there were and the page's
// element count.
const paintJS = `(async () => {
	const entries = [];
	new PerformanceObserver((l) => entries.push(...l.getEntries())).observe({ type: 'element', buffered: true });
	const visible = (e) => { const r = e.getBoundingClientRect(); return r.bottom > 0 && r.top < innerHeight; };
	const started = performance.now();
	for (;;) {
		const imgs = [...document.querySelectorAll('.tile img')].filter(visible);
		const painted = imgs.filter((i) => entries.some((e) => e.element === i));
		if (imgs.length > 0 && painted.length === imgs.length) {
			const times = entries.filter((e) => imgs.includes(e.element)).map((e) => e.renderTime || e.loadTime);
			return { first: Math.min(...times), last: Math.max(...times), tiles: imgs.length,
				nodes: document.getElementsByTagName('*').length };
		}
		if (performance.now() - started > 30000) {
			return { timeout: true, tiles: imgs.length, painted: painted.length,
				missing: imgs.filter((i) => !entries.some((e) => e.element === i)).map((i) => i.src) };
		}
		await new Promise((r) => setTimeout(r, 20));
	}
})()`

// BenchmarkTimelineFirstThumbnails opens the timeline of a library of
// 100,000 assets (webBenchDir) in headless Chromium, through the real
// server with its default configuration, and reads through the
// Performance API (Element Timing) when the first thumbnail and the whole
// first screen of thumbnails painted, counted from the navigation's start:
// cold (the browser's cache cleared: a first visit) and warm (the
// thumbnails cached, as the immutable rendering URLs allow). Run:
//
//	go test -tags sqlite_fts5 -run '^$' -bench TimelineFirstThumbnails -benchtime 10x ./server/web
func BenchmarkTimelineFirstThumbnails(b *testing.B) {
	dir := webBenchDir(b)
	ctx := context.Background()
	cfg := app.Defaults(dir)
	cfg.Listen, cfg.Workers.Concurrency, cfg.ML.Enabled = "127.0.0.1:0", 0, false
	srv, err := app.Start(ctx, cfg, slog.New(slog.NewTextHandler(io.Discard, nil)))
	require.NoError(b, err)
	b.Cleanup(func() { _ = srv.Shutdown(context.Background()) })
	base := "http://" + srv.Addr()

	br := startBrowser(b)
	br.do(b, chromedp.Navigate(base+"/signin"), chromedp.WaitVisible(css(`input[name=email]`)),
		chromedp.SendKeys(css(`input[name=email]`), webBenchEmail), chromedp.SendKeys(css(`input[name=password]`), webBenchPassword),
		chromedp.Submit(css(`input[name=password]`)))
	br.waitFor(b, "the timeline", `document.querySelector('#timeline[aria-busy="false"]') !== null`)
	_, err = chromedp.Call(br.ctx, network.Enable, network.EnableParams{})
	require.NoError(b, err)

	measure := func(cold bool) map[string]any {
		if cold {
			_, err := chromedp.Call(br.ctx, network.ClearBrowserCache, cdp.Empty{})
			require.NoError(b, err)
		}
		br.do(b, chromedp.Navigate(base+"/"))
		got := eval[map[string]any](b, br, paintJS)
		require.Nil(b, got["timeout"], "the first screen never painted: %v; page errors: %v", got, br.pageErrors())
		return got
	}
	var coldFirst, coldLast, warmFirst, warmLast []float64
	tiles, nodes := 0.0, 0.0
	b.ResetTimer()
	for range b.N {
		c := measure(true)
		w := measure(false)
		coldFirst, coldLast = append(coldFirst, c["first"].(float64)), append(coldLast, c["last"].(float64))
		warmFirst, warmLast = append(warmFirst, w["first"].(float64)), append(warmLast, w["last"].(float64))
		tiles, nodes = c["tiles"].(float64), max(nodes, c["nodes"].(float64), w["nodes"].(float64))
	}
	b.StopTimer()
	br.noPageErrors(b)
	b.ReportMetric(median(coldFirst), "cold-first-ms")
	b.ReportMetric(median(coldLast), "cold-screen-ms")
	b.ReportMetric(median(warmFirst), "warm-first-ms")
	b.ReportMetric(median(warmLast), "warm-screen-ms")
	b.ReportMetric(slices.Max(coldFirst), "cold-first-max-ms")
	b.ReportMetric(tiles, "tiles")
	b.ReportMetric(nodes, "elements")
	b.Logf("%d assets; first screen %v tiles; cold first %v ms", webBenchAssets(), tiles, fmt.Sprint(coldFirst))
}

// median is the middle of xs (sorted in place).
func median(xs []float64) float64 {
	slices.Sort(xs)
	return xs[len(xs)/2]
}
