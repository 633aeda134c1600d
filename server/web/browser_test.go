package web_test

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/cdproto/runtime"
	"github.com/chromedp/chromedp"
	"github.com/stretchr/testify/require"
)

// browser is a headless Chromium tab for one test, with the page errors it
// has seen (uncaught exceptions, console errors: a Content-Security-Policy
// violation is one).
type browser struct {
	ctx    context.Context
	mu     sync.Mutex
	errors []string
}

// startBrowser starts Debian's chromium, headless, with a fresh profile.
// The test is skipped when there is no chromium, unless
// PHOTOCTL_BROWSER_REQUIRED=1 (CI). When the test fails, a screenshot of
// the page is saved in its artifact directory (go test -artifacts).
func startBrowser(t testing.TB) *browser {
	t.Helper()
	path, err := exec.LookPath("chromium")
	if err != nil {
		if os.Getenv("PHOTOCTL_BROWSER_REQUIRED") == "1" {
			t.Fatal("chromium is required (PHOTOCTL_BROWSER_REQUIRED=1) but not installed: apt-get install chromium")
		}
		t.Skip("chromium is not installed (apt-get install chromium); PHOTOCTL_BROWSER_REQUIRED=1 makes this a failure")
	}
	// The profile is removed after the browser has exited (t.TempDir's
	// removal could race with Chromium's last writes).
	profile, err := os.MkdirTemp("", "photoctl-chromium-")
	require.NoError(t, err)
	// Without the background-networking flags Chromium reaches for the
	// network at start, which the closed test machines refuse.
	opts := []chromedp.ExecAllocatorOption{
		chromedp.ExecPath(path), chromedp.Headless, chromedp.NoSandbox, chromedp.DisableGPU, chromedp.NoFirstRun,
		chromedp.Flag("disable-quic", true), chromedp.Flag("disable-background-networking", true),
		chromedp.Flag("disable-component-update", true), chromedp.Flag("disable-sync", true),
		chromedp.Flag("no-default-browser-check", true), chromedp.Flag("disable-dev-shm-usage", true),
		chromedp.UserDataDir(profile), chromedp.WindowSize(1280, 900),
	}
	base, cancelTimeout := context.WithTimeout(context.Background(), 15*time.Minute)
	alloc, cancelAlloc := chromedp.NewExecAllocator(base, opts...)
	ctx, cancelTab := chromedp.NewContext(alloc, chromedp.WithLogf(t.Logf))
	t.Cleanup(func() {
		_ = chromedp.Cancel(ctx) // closes the browser and waits for it
		cancelTab()
		cancelAlloc()
		cancelTimeout()
		_ = os.RemoveAll(profile)
	})
	b := &browser{ctx: ctx}
	require.NoError(t, chromedp.Listen(ctx, func(ev any) {
		b.mu.Lock()
		defer b.mu.Unlock()
		switch e := ev.(type) {
		case *runtime.EventExceptionThrown:
			b.errors = append(b.errors, fmt.Sprintf("exception: %s %v", e.ExceptionDetails.Text, e.ExceptionDetails.Exception))
		case *runtime.EventConsoleAPICalled:
			if e.Type == runtime.ConsoleAPICalledTypeError {
				var parts []string
				for _, a := range e.Args {
					parts = append(parts, string(a.Value)+a.Description)
				}
				b.errors = append(b.errors, "console.error: "+strings.Join(parts, " "))
			}
		}
	}))
	t.Cleanup(func() {
		if !t.Failed() {
			return
		}
		ctx, cancel := context.WithTimeout(b.ctx, 20*time.Second)
		defer cancel()
		shot, err := chromedp.Run(ctx, chromedp.CaptureScreenshot())
		if err != nil {
			t.Logf("no screenshot: %v", err)
			return
		}
		name := filepath.Join(t.ArtifactDir(), "failure.png")
		if err := os.WriteFile(name, shot, 0o644); err != nil {
			t.Logf("no screenshot: %v", err)
			return
		}
		t.Logf("screenshot of the failure: %s", name)
	})
	return b
}

// do runs steps, failing the test on error.
func (b *browser) do(t testing.TB, steps ...chromedp.Action[chromedp.Void]) {
	t.Helper()
	require.NoError(t, chromedp.Do(b.ctx, steps...))
}

// eval evaluates a JavaScript expression (a promise: its value).
func eval[T any](t testing.TB, b *browser, expr string) T {
	t.Helper()
	v, err := chromedp.Run(b.ctx, chromedp.Evaluate[T](expr, chromedp.EvalAwaitPromise))
	require.NoError(t, err, "evaluate %s", expr)
	return v
}

// waitFor polls a JavaScript predicate until it is true.
func (b *browser) waitFor(t testing.TB, what, predicate string) {
	t.Helper()
	deadline := time.Now().Add(60 * time.Second)
	for {
		// Polled on an interval, not on animation frames (a headless page
		// may stop producing them), and bounded here too: a page that
		// never answers must fail the wait, not hang the test.
		ctx, cancel := context.WithDeadline(b.ctx, deadline.Add(5*time.Second))
		_, err := chromedp.Run(ctx, chromedp.Poll[chromedp.Void](predicate,
			chromedp.WithPollingInterval(50*time.Millisecond), chromedp.WithPollingTimeout(time.Until(deadline))))
		cancel()
		// A navigation under way destroys the page the poll runs in:
		// poll again in the next one.
		if err != nil && time.Now().Before(deadline) && navigating(err) {
			time.Sleep(50 * time.Millisecond)
			continue
		}
		require.NoError(t, err, "waiting for %s (%s); page errors: %v", what, predicate, b.pageErrors())
		return
	}
}

// navigating reports whether err is a navigation ending the page an
// evaluation ran in.
func navigating(err error) bool {
	for _, m := range []string{"Cannot find context", "context was destroyed", "target navigated or closed"} {
		if strings.Contains(err.Error(), m) {
			return true
		}
	}
	return false
}

// location is the tab's address.
func (b *browser) location(t testing.TB) string {
	t.Helper()
	loc, err := chromedp.Run(b.ctx, chromedp.Location())
	require.NoError(t, err)
	return loc
}

func (b *browser) pageErrors() []string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return append([]string(nil), b.errors...)
}

// noPageErrors fails when the pages threw or logged an error.
func (b *browser) noPageErrors(t testing.TB) {
	t.Helper()
	require.Empty(t, b.pageErrors(), "the pages reported errors")
}

// snapshot saves a screenshot of the viewport as name.png in the folder
// PHOTOCTL_WEB_SCREENSHOTS names (for the docs), when it is set.
func (b *browser) snapshot(t testing.TB, name string) {
	t.Helper()
	dir := os.Getenv("PHOTOCTL_WEB_SCREENSHOTS")
	if dir == "" {
		return
	}
	shot, err := chromedp.Run(b.ctx, chromedp.CaptureScreenshot())
	require.NoError(t, err)
	require.NoError(t, os.MkdirAll(dir, 0o755))
	require.NoError(t, os.WriteFile(filepath.Join(dir, name+".png"), shot, 0o644))
}

// choose selects value in the <select> at sel as a user would: the value,
// then one change event (in one evaluation, so a navigation the change
// starts cannot come in between).
func choose(t testing.TB, b *browser, sel, value string) {
	t.Helper()
	b.do(t, chromedp.Evaluate[chromedp.Void](fmt.Sprintf(
		`(() => { const s = document.querySelector(%q); s.value = %q; s.dispatchEvent(new Event('change')); })()`, sel, value)))
}

func css(sel string, args ...any) chromedp.CSS { return chromedp.CSS(fmt.Sprintf(sel, args...)) }
