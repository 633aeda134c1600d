package tui

import (
	"bytes"
	"encoding/base64"
	"fmt"
	"image"
	"image/png"
	"strings"

	_ "image/jpeg" // thumbnails may be JPEG

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"
	"github.com/charmbracelet/x/ansi/iterm2"
	"github.com/charmbracelet/x/ansi/kitty"
	"golang.org/x/image/draw"
	_ "golang.org/x/image/webp" // the server's thumbnails are WebP

	"github.com/photoctl/photoctl/client"
	"github.com/photoctl/photoctl/server/api"
)

// preview is an asset's thumbnail: loading, failed or decoded.
type preview struct {
	img     image.Image
	err     error
	loading bool
	// drawn caches the last rendering, for its size.
	drawn     []string
	drawnCols int
	drawnRows int
}

// maxPreviews bounds the thumbnails kept in memory.
const maxPreviews = 64

// cursorMoved fetches the preview, the albums and the people of the asset
// under the cursor, if it has none yet.
func (m *Model) cursorMoved() tea.Cmd { return tea.Batch(m.previewCmd(), m.infoCmd()) }

func (m *Model) previewCmd() tea.Cmd {
	v := m.view()
	if v == nil || m.opts.Graphics == GraphicsNone {
		return nil
	}
	a, ok := v.p.current()
	if !ok || a.AssetURLs.Thumbnail == nil {
		return nil
	}
	if _, ok := m.previews[a.ID]; ok {
		return nil
	}
	if len(m.previews) >= maxPreviews {
		clear(m.previews)
	}
	m.previews[a.ID] = &preview{loading: true}
	ctx, id := m.ctx, a.ID
	return func() tea.Msg {
		data, err := m.c.ReadVariant(ctx, id, "thumbnail")
		var img image.Image
		if err == nil {
			img, _, err = image.Decode(bytes.NewReader(data))
		}
		return done(func(m *Model) tea.Cmd {
			m.previews[id] = &preview{img: img, err: err}
			return nil
		})
	}
}

// previewLines draws the preview of a in at most cols×rows cells; every
// line is cols wide.
func (m *Model) previewLines(a api.Asset, cols, rows int) []string {
	if cols < 4 || rows < 2 {
		return nil
	}
	if m.opts.Graphics == GraphicsNone {
		return []string{placeholder(a, cols)}
	}
	p := m.previews[a.ID]
	switch {
	case a.AssetURLs.Thumbnail == nil:
		return []string{pad("(no preview for this "+a.MediaType+")", cols)}
	case p == nil || p.loading:
		return []string{pad("(loading preview…)", cols)}
	case p.err != nil:
		return []string{pad("(no preview: "+client.Printable(p.err.Error())+")", cols)}
	}
	if p.drawn != nil && p.drawnCols == cols && p.drawnRows == rows {
		return p.drawn
	}
	var lines []string
	switch m.opts.Graphics {
	case GraphicsKitty, GraphicsITerm2:
		lines = protocolImage(p.img, m.opts.Graphics, cols, rows)
	default:
		lines = halfBlocks(p.img, cols, rows)
	}
	p.drawn, p.drawnCols, p.drawnRows = lines, cols, rows
	return lines
}

// placeholder stands for the image where colour is off.
func placeholder(a api.Asset, cols int) string {
	s := "[" + a.MediaType + "]"
	if a.Width != nil && a.Height != nil {
		s = fmt.Sprintf("[%s %d×%d]", a.MediaType, *a.Width, *a.Height)
	}
	return pad(s, cols)
}

// fit is the size of img scaled to fit w×h pixels, keeping its shape.
func fit(img image.Image, w, h int) (int, int) {
	b := img.Bounds()
	if b.Dx() == 0 || b.Dy() == 0 {
		return 1, 1
	}
	scale := min(float64(w)/float64(b.Dx()), float64(h)/float64(b.Dy()))
	return max(1, int(float64(b.Dx())*scale)), max(1, int(float64(b.Dy())*scale))
}

// halfBlocks draws img with "▀": each cell shows two pixels, the upper
// in the foreground colour and the lower in the background.
func halfBlocks(img image.Image, cols, rows int) []string {
	w, h := fit(img, cols, rows*2)
	small := image.NewRGBA(image.Rect(0, 0, w, h))
	draw.ApproxBiLinear.Scale(small, small.Bounds(), img, img.Bounds(), draw.Src, nil)
	var lines []string
	for y := 0; y < h; y += 2 {
		var b strings.Builder
		for x := range w {
			top := small.RGBAAt(x, y)
			bottom := top
			if y+1 < h {
				bottom = small.RGBAAt(x, y+1)
			}
			fmt.Fprintf(&b, "\x1b[38;2;%d;%d;%dm\x1b[48;2;%d;%d;%dm▀", top.R, top.G, top.B, bottom.R, bottom.G, bottom.B)
		}
		b.WriteString("\x1b[0m")
		b.WriteString(strings.Repeat(" ", cols-w))
		lines = append(lines, b.String())
	}
	return lines
}

// protocolImage draws img with the Kitty or iTerm2 graphics protocol: the
// first line carries the image, which covers the blank lines after it.
func protocolImage(img image.Image, g Graphics, cols, rows int) []string {
	w, h := fit(img, cols, rows*2) // a cell is about twice as tall as wide
	c, r := w, max(1, (h+1)/2)
	var seq strings.Builder
	if g == GraphicsKitty {
		seq.WriteString(ansi.KittyGraphics(nil, "a=d", "d=a")) // remove the image shown before
		opts := &kitty.Options{Action: kitty.TransmitAndPut, Format: kitty.PNG, Quite: 2, Chunk: true,
			Columns: c, Rows: r, DoNotMoveCursor: true}
		if err := kitty.EncodeGraphics(&seq, img, opts); err != nil {
			return []string{pad("(no preview: "+client.Printable(err.Error())+")", cols)}
		}
	} else {
		var data bytes.Buffer
		if err := png.Encode(&data, img); err != nil {
			return []string{pad("(no preview: "+client.Printable(err.Error())+")", cols)}
		}
		seq.WriteString(ansi.ITerm2(iterm2.File{Name: "thumbnail.png", Size: int64(data.Len()), Inline: true,
			Width: iterm2.Cells(c), Height: iterm2.Cells(r), DoNotMoveCursor: true,
			Content: []byte(base64.StdEncoding.EncodeToString(data.Bytes()))}))
	}
	lines := make([]string, r)
	lines[0] = seq.String() + strings.Repeat(" ", cols)
	for i := 1; i < r; i++ {
		lines[i] = strings.Repeat(" ", cols)
	}
	return lines
}

// pad cuts or fills s to exactly cols cells.
func pad(s string, cols int) string {
	s = ansi.Truncate(s, cols, "…")
	return s + strings.Repeat(" ", max(0, cols-ansi.StringWidth(s)))
}
