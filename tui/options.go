package tui

import (
	"context"
	"errors"
	"os"
	"os/exec"
	"time"

	"github.com/photoctl/photoctl/client"
)

// Graphics is how the preview pane draws an image.
type Graphics int

const (
	// GraphicsHalfBlock draws Unicode upper-half blocks in true colour, two
	// pixels a cell; it works in any colour terminal.
	GraphicsHalfBlock Graphics = iota
	// GraphicsKitty uses the Kitty graphics protocol.
	GraphicsKitty
	// GraphicsITerm2 uses the iTerm2 inline image protocol (iTerm2, WezTerm).
	GraphicsITerm2
	// GraphicsNone draws a text placeholder (NO_COLOR, dumb terminals).
	GraphicsNone
)

// DetectGraphics picks the preview's drawing from the environment: Kitty
// for TERM=xterm-kitty or KITTY_WINDOW_ID, iTerm2 for TERM_PROGRAM
// iTerm.app or WezTerm, none with NO_COLOR or TERM=dumb, else half blocks.
func DetectGraphics(getenv func(string) string) Graphics {
	switch {
	case getenv("NO_COLOR") != "" || getenv("TERM") == "dumb":
		return GraphicsNone
	case getenv("TERM") == "xterm-kitty" || getenv("KITTY_WINDOW_ID") != "":
		return GraphicsKitty
	case getenv("TERM_PROGRAM") == "iTerm.app" || getenv("TERM_PROGRAM") == "WezTerm":
		return GraphicsITerm2
	default:
		return GraphicsHalfBlock
	}
}

// Options configure the browser. Client is required.
type Options struct {
	Client *client.Client
	// LibraryID is the library to open; "" takes the caller's only library
	// or, with several, opens the library switcher.
	LibraryID string
	// PageSize is how many assets each request asks for (50 when 0).
	PageSize int
	// Graphics is how previews are drawn (see DetectGraphics).
	Graphics Graphics
	// Open shows a file in the system viewer; nil is SystemOpen. An error
	// that is ErrNoViewer makes the status line show the original's URL.
	Open func(path string) error
	// DownloadDir is where downloads go ("" is the working directory).
	DownloadDir string
	// TempDir holds originals fetched to open them ("" is os.TempDir()).
	TempDir string
	// TaskRefresh is how often the Tasks view reloads while shown; 0 never
	// (r reloads by hand).
	TaskRefresh time.Duration
	// Context bounds every request; nil is context.Background().
	Context context.Context
}

func (o *Options) defaults() {
	if o.PageSize <= 0 {
		o.PageSize = 50
	}
	if o.Open == nil {
		o.Open = SystemOpen
	}
	if o.TempDir == "" {
		o.TempDir = os.TempDir()
	}
	if o.Context == nil {
		o.Context = context.Background()
	}
}

// ErrNoViewer is SystemOpen's error when no program to open files is
// installed: the browser then shows where the original is instead.
var ErrNoViewer = errors.New("no viewer found (xdg-open, sensible-browser, open)")

// viewers are the programs SystemOpen tries, in order: the desktop's
// opener, then Debian's browser choice.
var viewers = []string{"xdg-open", "sensible-browser", "open"}

// SystemOpen opens path with the first viewer installed: xdg-open,
// sensible-browser, or open (macOS); ErrNoViewer when there is none. It
// does not wait for the viewer to close.
func SystemOpen(path string) error {
	for _, name := range viewers {
		bin, err := exec.LookPath(name)
		if err != nil {
			continue
		}
		cmd := exec.Command(bin, path)
		if err := cmd.Start(); err != nil {
			return err
		}
		go func() { _ = cmd.Wait() }()
		return nil
	}
	return ErrNoViewer
}
