package tui

import (
	"net/http"
	"testing"

	"github.com/stretchr/testify/require"
)

// TestServerTextNeverReachesTheTerminalRaw: a description holding escape
// sequences (clear the screen, retitle the window, a C1 CSI) is shown
// escaped in the detail pane; no control character of it is drawn.
func TestServerTextNeverReachesTheTerminalRaw(t *testing.T) {
	w := newWorld(t)
	a := w.seed("a.jpg", "2024-05-01T10:00:00", 1)
	r := w.s.Do("PATCH", "/api/assets/"+a.ID, w.session,
		map[string]any{"description": "calm\u001b[2J\u001b]0;pwned\u0007\u009b31m"})
	require.Equal(t, http.StatusOK, r.Status, "%s", r.Body)
	d := w.open(Options{})
	d.openMonth("May 2024")
	view := d.view()
	require.Contains(t, view, `calm\x1b[2J`)
	require.NotContains(t, view, "\u001b[2J")
	require.NotContains(t, view, "\u001b]0;")
	require.NotContains(t, view, "\u009b")
	require.NotContains(t, view, "\u0007")
}
