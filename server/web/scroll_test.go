package web_test

import (
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/stretchr/testify/require"

	"github.com/photoctl/photoctl/server/devseed"
	"github.com/photoctl/photoctl/server/servertest"
)

// signIn signs u in through the gallery's form and waits for the timeline.
func signIn(t testing.TB, b *browser, s *servertest.Server, u servertest.User) {
	t.Helper()
	b.do(t, chromedp.Navigate(s.URL+"/signin"), chromedp.WaitVisible(css(`input[name=email]`)),
		chromedp.SendKeys(css(`input[name=email]`), u.Email), chromedp.SendKeys(css(`input[name=password]`), u.Password),
		chromedp.Submit(css(`input[name=password]`)))
	b.waitFor(t, "the timeline", `document.querySelector('#timeline[aria-busy="false"]') !== null`)
}

// TestTimelineScrollKeepsTheDOMSmall: scrolling a 10,000-asset library
// (seeded rows over ten years), a screen at a time from the newest month
// to the oldest, fills every screen with its tiles, yet the page never holds more
// than 2,000 elements nor 100 MB of JS heap, and every asset's tile was in
// view on the way; jumping to a month scrolls
// to its section.
func TestTimelineScrollKeepsTheDOMSmall(t *testing.T) {
	servertest.SkipStoreNeutralOnPostgres(t, "the timeline's DOM is the browser's; the months and pages it reads are the asset API's, which runs on both stores")
	b := startBrowser(t)
	s := servertest.Start(t)
	u, token := s.Session()
	lib := s.Libraries(token)[0]
	const total = 10000
	_, err := devseed.Seed(context.Background(), servertest.OpenStore(t, s.Config),
		devseed.Options{LibraryID: lib.ID, Assets: total, Seed: 36})
	require.NoError(t, err)

	signIn(t, b, s, u)
	months := eval[int](t, b, `document.querySelectorAll('section.month').length`)
	require.Greater(t, months, 24)
	sum := eval[int](t, b, `[...document.querySelectorAll('section.month')].reduce((n, s) => n + Number(s.dataset.count), 0)`)
	require.LessOrEqual(t, sum, total, "counts are of the timeline's tiles (stacks collapsed, trash excluded)")

	start := time.Now()
	maxNodes, maxHeap, seen := 0, 0.0, map[string]bool{} // seen: the tiles' paths
	for step := 0; ; step++ {
		// One round trip a screen: in the page, wait until every chunk of
		// tiles touching the viewport is filled, read the page's state,
		// then scroll a screen on.
		state := eval[map[string]any](t, b, `(async () => {
			const visible = (e) => { const r = e.getBoundingClientRect(); return r.bottom >= 0 && r.top <= innerHeight; };
			const filled = () => [...document.querySelectorAll('section.month')].filter(visible).every((s) =>
				s.dataset.state !== 'empty' && [...s.querySelectorAll('.chunk')].filter(visible).every((c) =>
					c.dataset.filled === 'true' && c.children.length === Number(c.dataset.n)));
			const started = performance.now();
			while (!filled()) {
				if (performance.now() - started > 60000) return { timeout: true };
				await new Promise((r) => setTimeout(r, 10));
			}
			const state = {
				nodes: document.getElementsByTagName('*').length,
				heap: performance.memory ? performance.memory.usedJSHeapSize : 0,
				tiles: [...document.querySelectorAll('.tile')].filter(visible).map((a) => a.pathname),
				end: scrollY + innerHeight >= document.documentElement.scrollHeight - 2,
			};
			if (!state.end) window.scrollBy(0, innerHeight);
			return state;
		})()`)
		require.Nil(t, state["timeout"], "the visible tiles at step %d never filled; page errors: %v", step, b.pageErrors())
		maxNodes = max(maxNodes, int(state["nodes"].(float64)))
		maxHeap = max(maxHeap, state["heap"].(float64))
		for _, p := range state["tiles"].([]any) {
			seen[p.(string)] = true
		}
		if state["end"].(bool) {
			break
		}
		require.Less(t, step, 5000, "the end of the timeline never came")
	}
	t.Logf("scrolled %d assets in %d months in %v: at most %d elements, %.1f MB of JS heap",
		sum, months, time.Since(start).Round(time.Millisecond), maxNodes, maxHeap/1e6)
	require.Len(t, seen, sum, "every asset's tile was shown on the way")
	require.Less(t, maxNodes, 2000)
	require.Less(t, maxHeap, 100e6)

	// Jumping to a month brings its section to the top, filled.
	target := eval[string](t, b, `document.querySelectorAll('#jump option')[Math.floor(document.querySelectorAll('#jump option').length / 2)].value`)
	choose(t, b, "#jump", target)
	b.waitFor(t, "the chosen month at the top", fmt.Sprintf(`(() => {
		const s = document.getElementById('m-%s');
		const top = s.getBoundingClientRect().top;
		return Math.abs(top) < 2 && s.querySelector('.chunk')?.dataset.filled === 'true';
	})()`, target))
	b.noPageErrors(t)
}
