package tui

import (
	"path/filepath"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"
	"github.com/stretchr/testify/require"
)

func TestTimelineShowsMonthsFromCounts(t *testing.T) {
	w := newWorld(t)
	w.seed("may-1.jpg", "2024-05-01T10:00:00+02:00", 1)
	w.seed("may-2.jpg", "2024-05-02T10:00:00+02:00", 2)
	w.seed("dec.jpg", "2023-12-24T18:00:00+01:00", 3)
	d := w.open(Options{})

	screen := d.view()
	require.Contains(t, screen, "[1 Timeline]")
	require.Contains(t, screen, "May 2024")
	require.Contains(t, screen, "Dec 2023")
	require.Regexp(t, `May 2024\s+2`, screen)
	require.Equal(t, 1, w.calls.count("GET /api/assets/counts"))

	d.openMonth("May 2024")
	screen = d.view()
	require.Contains(t, screen, "May 2024 (2)")
	require.Contains(t, screen, "may-1.jpg")
	require.Contains(t, screen, "may-2.jpg")
	require.NotContains(t, screen, "dec.jpg")

	d.keys("esc")
	require.Contains(t, d.view(), "Dec 2023")
}

func TestAssetListPagesAsTheCursorMoves(t *testing.T) {
	w := newWorld(t)
	for i := range 7 {
		w.seed("p"+string(rune('a'+i))+".jpg", "2024-05-0"+string(rune('1'+i))+"T10:00:00", i)
	}
	d := w.open(Options{PageSize: 2})
	d.openMonth("May 2024")
	v := d.m.view()
	require.Len(t, v.p.items, 2, "only the first page")
	require.True(t, v.p.more)
	require.Equal(t, 1, w.calls.count("GET /api/assets"))

	d.keys("j") // one row from the end: the next page comes
	require.Len(t, v.p.items, 4)
	require.Equal(t, 2, w.calls.count("GET /api/assets"))
	d.keys("k") // moving back fetches nothing
	require.Equal(t, 2, w.calls.count("GET /api/assets"))

	for range 10 {
		d.keys("j")
	}
	require.Len(t, v.p.items, 7)
	require.False(t, v.p.more)
	require.Equal(t, 4, w.calls.count("GET /api/assets"), "7 assets in pages of 2")
	require.Contains(t, d.view(), "May 2024 (7)")
}

func TestSearchNarrowsTheList(t *testing.T) {
	w := newWorld(t)
	w.seed("beach-sunset.jpg", "2024-05-01T10:00:00", 1)
	w.seed("mountain.jpg", "2024-05-02T10:00:00", 2)
	w.seed("city.jpg", "2024-06-02T10:00:00", 3)
	d := w.open(Options{})

	d.keys("/")
	require.Equal(t, tabSearch, d.m.tab)
	require.Contains(t, d.view(), "Search: ")
	d.typeText("beach")
	d.keys("enter")
	screen := d.view()
	require.Contains(t, screen, "beach-sunset.jpg")
	require.NotContains(t, screen, "mountain.jpg")
	require.NotContains(t, screen, "city.jpg")
	require.Contains(t, screen, `Search: beach (1)`)
}

func TestTrashAsksThenRemovesAndRestoreBringsBack(t *testing.T) {
	w := newWorld(t)
	keep := w.seed("keep.jpg", "2024-05-01T10:00:00", 1)
	gone := w.seed("gone.jpg", "2024-05-02T10:00:00", 2)
	d := w.open(Options{})
	d.openMonth("May 2024")
	d.keys("g") // newest first: gone.jpg
	require.Contains(t, d.currentLine(), "gone.jpg")

	d.keys("d")
	require.Contains(t, d.view(), "Move 1 asset(s) to the trash? (y/n)")
	d.keys("n")
	require.Equal(t, 0, w.calls.count("POST /api/assets/trash"))

	d.keys("d", "y")
	require.Equal(t, 1, w.calls.count("POST /api/assets/trash"))
	screen := d.view()
	require.NotContains(t, screen, "gone.jpg")
	require.Contains(t, screen, "keep.jpg")
	require.Contains(t, screen, "Moved 1 asset(s) to the trash.")
	d.keys("esc") // the month counts reload
	require.Regexp(t, `May 2024\s+1\b`, d.view())

	d.keys("5")
	screen = d.view()
	require.Contains(t, screen, "[5 Trash]")
	require.Contains(t, screen, "gone.jpg")
	require.NotContains(t, screen, "keep.jpg")

	d.keys("u")
	require.Contains(t, d.view(), "Restore 1 asset(s) from the trash? (y/n)")
	d.keys("y")
	require.NotContains(t, d.view(), "gone.jpg")
	live := w.s.Do("GET", "/api/assets/"+gone.ID, w.session, nil).Map(t)
	require.Nil(t, live["trashed_at"])
	_ = keep
}

func TestRatingSelectionSendsOneBulkRequest(t *testing.T) {
	w := newWorld(t)
	a := w.seed("a.jpg", "2024-05-01T10:00:00", 1)
	b := w.seed("b.jpg", "2024-05-02T10:00:00", 2)
	c := w.seed("c.jpg", "2024-05-03T10:00:00", 3)
	d := w.open(Options{})
	d.openMonth("May 2024")

	d.keys("g", "space", "space") // c and b, newest first
	require.Contains(t, d.view(), "2 selected")
	d.keys("r", "4")
	require.Equal(t, 1, w.calls.count("POST /api/assets/bulk-update"))
	require.Contains(t, d.view(), "Rated 2 asset(s) 4.")
	require.Contains(t, d.view(), "c.jpg ★★★★")

	rating := func(id string) any {
		return w.s.Do("GET", "/api/assets/"+id, w.session, nil).Map(t)["metadata"].(map[string]any)["rating"]
	}
	require.EqualValues(t, 4, rating(c.ID))
	require.EqualValues(t, 4, rating(b.ID))
	require.Nil(t, rating(a.ID))

	// One asset, no selection: the one under the cursor.
	d.keys("x", "G", "r", "2")
	require.Equal(t, 2, w.calls.count("POST /api/assets/bulk-update"))
	require.EqualValues(t, 2, rating(a.ID))
}

func TestDescriptionAndAlbum(t *testing.T) {
	w := newWorld(t)
	a := w.seed("a.jpg", "2024-05-01T10:00:00", 1)
	d := w.open(Options{})
	d.openMonth("May 2024")

	d.keys("e")
	d.typeText("Harbour at dawn")
	d.keys("enter")
	require.Contains(t, d.view(), "Harbour at dawn")
	got := w.s.Do("GET", "/api/assets/"+a.ID, w.session, nil).Map(t)
	require.Equal(t, "Harbour at dawn", got["metadata"].(map[string]any)["description"])

	d.keys("a")
	require.Contains(t, d.view(), "+ New album…")
	d.keys("enter")
	d.typeText("Trips")
	d.keys("enter")
	require.Contains(t, d.view(), "Added 1 asset(s) to Trips.")
	d.keys("2")
	require.Regexp(t, `Trips\s+1`, d.view())
	d.keys("enter")
	require.Contains(t, d.view(), "a.jpg")
}

func TestServerErrorDetailInStatusLine(t *testing.T) {
	w := newWorld(t)
	w.seed("a.jpg", "2024-05-01T10:00:00", 1)
	d := w.open(Options{})
	d.keys("2")
	d.openMonth("May 2024")
	d.keys("a", "enter")
	d.typeText("Doomed")
	d.keys("enter")
	albums := d.m.albums
	d.keys("a") // the picker lists Doomed now
	require.Contains(t, d.view(), "Doomed (1)")
	r := w.s.Do("DELETE", "/api/albums/"+albums.items[0].ID, w.session, nil)
	require.Less(t, r.Status, 300, string(r.Body))

	d.keys("j", "enter")
	line := strings.Split(d.view(), "\n")[22]
	require.Contains(t, line, "Error: 404")
	require.True(t, d.m.failed)
}

func TestOpenAndDownloadTheOriginal(t *testing.T) {
	w := newWorld(t)
	w.seed("a.jpg", "2024-05-01T10:00:00", 1)
	var opened string
	dir := t.TempDir()
	d := w.open(Options{Open: func(path string) error { opened = path; return nil }, DownloadDir: dir, TempDir: t.TempDir()})
	d.openMonth("May 2024")

	d.keys("o")
	require.FileExists(t, opened)
	require.Equal(t, "a.jpg", filepath.Base(opened))
	d.keys("s")
	require.FileExists(t, dir+"/a.jpg")
	require.Contains(t, d.view(), "Saved 1 original(s)")
}

func TestEveryScreenFits80x24(t *testing.T) {
	w := newWorld(t)
	w.seed(strings.Repeat("long-name-", 12)+".jpg", "2024-05-01T10:00:00", 1)
	d := w.open(Options{})
	check := func(what string) {
		t.Helper()
		lines := strings.Split(d.view(), "\n")
		require.Len(t, lines, d.m.height, what)
		for i, l := range lines {
			require.LessOrEqual(t, ansi.StringWidth(l), d.m.width, "%s line %d: %q", what, i, l)
		}
	}
	check("timeline")
	d.openMonth("May 2024")
	check("asset list")
	d.keys("?")
	require.Contains(t, d.view(), "Keys (any key closes)")
	for _, b := range d.m.keys.all() {
		require.Contains(t, d.view(), b.Help().Desc)
	}
	check("help")
	d.keys("q") // closes help only
	require.NotContains(t, d.view(), "Keys (any key closes)")
	for i := range tabNames {
		d.keys(string(rune('1' + i)))
		check(tabNames[i])
	}
	d.send(tea.WindowSizeMsg{Width: 120, Height: 40})
	d.keys("1")
	check("120x40")
	d.send(tea.WindowSizeMsg{Width: 40, Height: 10})
	check("40x10")
}

func TestLibrarySwitcher(t *testing.T) {
	w := newWorld(t)
	w.seed("first.jpg", "2024-05-01T10:00:00", 1)
	r := w.s.Do("POST", "/api/libraries", w.session, map[string]string{"name": "Second"})
	require.Less(t, r.Status, 300, string(r.Body))
	first := w.s.Libraries(w.session)[1]
	require.Equal(t, w.lib, first.ID)

	d := w.openNoLibrary(Options{})
	screen := d.view()
	require.Contains(t, screen, "[7 Libraries]")
	require.Contains(t, screen, "You have 2 libraries")
	d.keys("g")
	require.Contains(t, d.currentLine(), "Second")
	d.keys("enter")
	screen = d.view()
	require.Contains(t, screen, "[1 Timeline]")
	require.Contains(t, screen, "(nothing here)")
	require.Contains(t, screen, "Second")

	d.keys("7", "G", "enter")
	require.Contains(t, d.view(), "May 2024")
	require.Contains(t, d.view(), first.Name)
}

func TestDetectGraphics(t *testing.T) {
	env := func(kv ...string) func(string) string {
		return func(k string) string {
			for i := 0; i+1 < len(kv); i += 2 {
				if kv[i] == k {
					return kv[i+1]
				}
			}
			return ""
		}
	}
	require.Equal(t, GraphicsKitty, DetectGraphics(env("TERM", "xterm-kitty")))
	require.Equal(t, GraphicsKitty, DetectGraphics(env("KITTY_WINDOW_ID", "3", "TERM", "xterm-256color")))
	require.Equal(t, GraphicsITerm2, DetectGraphics(env("TERM_PROGRAM", "iTerm.app")))
	require.Equal(t, GraphicsITerm2, DetectGraphics(env("TERM_PROGRAM", "WezTerm")))
	require.Equal(t, GraphicsHalfBlock, DetectGraphics(env("TERM", "xterm-256color")))
	require.Equal(t, GraphicsNone, DetectGraphics(env("TERM", "xterm-kitty", "NO_COLOR", "1")))
	require.Equal(t, GraphicsNone, DetectGraphics(env("TERM", "dumb")))
}
