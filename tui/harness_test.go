package tui

import (
	"net/http"
	"strings"
	"sync"
	"testing"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"
	"github.com/stretchr/testify/require"

	"github.com/photoctl/photoctl/client"
	"github.com/photoctl/photoctl/server/api"
	"github.com/photoctl/photoctl/server/app"
	"github.com/photoctl/photoctl/server/servertest"
)

// world is a real server with one user's library and a client for it
// that counts the requests it sends.
type world struct {
	t       *testing.T
	s       *servertest.Server
	session string
	lib     string
	c       *client.Client
	calls   *callCounter
}

func newWorld(t *testing.T, configure ...func(*app.Config)) *world {
	t.Helper()
	s := servertest.Start(t, configure...)
	_, session := s.Session()
	key := s.CreateKey(session, []string{"all"}, nil)
	calls := &callCounter{next: http.DefaultTransport, n: map[string]int{}}
	c, err := client.New(client.Options{Server: s.URL, APIKey: key, HTTPClient: &http.Client{Transport: calls}})
	require.NoError(t, err)
	return &world{t: t, s: s, session: session, lib: s.Libraries(session)[0].ID, c: c, calls: calls}
}

// seed uploads a real JPEG named name, captured at when (RFC 3339; UTC
// when it has no offset).
func (w *world) seed(name, when string, n int) api.Asset {
	w.t.Helper()
	if len(when) == len("2006-01-02T15:04:05") {
		when += "Z"
	}
	return w.s.UploadAsset(w.session, name, servertest.JPEG(w.t, 32, 24, n),
		map[string]string{"file_created_at": when, "file_modified_at": when})
}

// callCounter counts requests by "METHOD path".
type callCounter struct {
	next http.RoundTripper
	mu   sync.Mutex
	n    map[string]int
}

func (c *callCounter) RoundTrip(r *http.Request) (*http.Response, error) {
	c.mu.Lock()
	c.n[r.Method+" "+r.URL.Path]++
	c.mu.Unlock()
	return c.next.RoundTrip(r)
}

func (c *callCounter) count(call string) int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.n[call]
}

// driver runs a Model as bubbletea would, but synchronously: every command
// is run at once and its message fed back to Update.
type driver struct {
	t *testing.T
	m *Model
}

// open starts the browser on the world's library at 80×24.
func (w *world) open(opts Options) *driver {
	w.t.Helper()
	opts.LibraryID = w.lib
	return w.openNoLibrary(opts)
}

// openNoLibrary starts the browser with opts as they are.
func (w *world) openNoLibrary(opts Options) *driver {
	w.t.Helper()
	opts.Client = w.c
	d := &driver{t: w.t, m: New(opts)}
	d.run(d.m.Init())
	d.send(tea.WindowSizeMsg{Width: 80, Height: 24})
	return d
}

// withoutSGR drops the colours and attributes (SGR sequences) of a
// screen, as under NO_COLOR, and keeps every other sequence, so that a
// test still sees what else would reach the terminal.
func withoutSGR(s string) string {
	var b strings.Builder
	var state byte
	p := ansi.NewParser()
	for len(s) > 0 {
		p.Reset()
		seq, _, n, next := ansi.DecodeSequence(s, state, p)
		if !(ansi.HasCsiPrefix(seq) && p.Command() == 'm') {
			b.WriteString(seq)
		}
		s, state = s[n:], next
	}
	return b.String()
}

func (d *driver) run(cmd tea.Cmd) {
	if cmd == nil {
		return
	}
	switch msg := cmd().(type) {
	case nil:
	case tea.BatchMsg:
		for _, c := range msg {
			d.run(c)
		}
	case tea.QuitMsg:
	default:
		d.send(msg)
	}
}

func (d *driver) send(msg tea.Msg) {
	_, cmd := d.m.Update(msg)
	d.run(cmd)
}

// keys types each key in turn: names like "enter", "esc", "space",
// "tab", or runes.
func (d *driver) keys(keys ...string) {
	for _, k := range keys {
		d.send(keyMsg(k))
	}
}

// typeText types text into a prompt, a key press a character.
func (d *driver) typeText(text string) {
	for _, r := range text {
		d.send(tea.KeyPressMsg{Code: r, Text: string(r)})
	}
}

func keyMsg(k string) tea.KeyPressMsg {
	switch k {
	case "enter":
		return tea.KeyPressMsg{Code: tea.KeyEnter}
	case "esc":
		return tea.KeyPressMsg{Code: tea.KeyEscape}
	case "space":
		return tea.KeyPressMsg{Code: tea.KeySpace, Text: " "}
	case "tab":
		return tea.KeyPressMsg{Code: tea.KeyTab}
	case "down":
		return tea.KeyPressMsg{Code: tea.KeyDown}
	case "up":
		return tea.KeyPressMsg{Code: tea.KeyUp}
	}
	r := []rune(k)[0]
	return tea.KeyPressMsg{Code: r, Text: k}
}

// view is the screen without colours (withoutSGR).
func (d *driver) view() string { return withoutSGR(d.m.View().Content) }

// openMonth opens the timeline month labelled label ("May 2024").
func (d *driver) openMonth(label string) {
	d.t.Helper()
	d.keys("1", "g")
	for range d.m.months.items {
		if strings.Contains(d.currentLine(), label) {
			d.keys("enter")
			return
		}
		d.keys("j")
	}
	require.FailNow(d.t, "no month "+label, d.view())
}

// currentLine is the screen line with the cursor.
func (d *driver) currentLine() string {
	for _, l := range strings.Split(d.view(), "\n") {
		if strings.Contains(l, "▸") {
			return l
		}
	}
	return ""
}
