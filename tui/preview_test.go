package tui

import (
	"image"
	"image/color"
	"strings"
	"testing"
	"time"

	"github.com/charmbracelet/x/ansi"
	"github.com/stretchr/testify/require"

	"github.com/photoctl/photoctl/server/servertest"
)

func testImage(w, h int) image.Image {
	img := image.NewRGBA(image.Rect(0, 0, w, h))
	for y := range h {
		for x := range w {
			img.Set(x, y, color.RGBA{uint8(x * 30), uint8(y * 60), 200, 255})
		}
	}
	return img
}

func TestHalfBlocksDrawTwoPixelsACell(t *testing.T) {
	lines := halfBlocks(testImage(8, 4), 10, 5)
	require.Len(t, lines, 3, "8×4 pixels scaled to fit 10×10 pixels: 10×5, three rows of two")
	for _, l := range lines {
		require.Equal(t, 10, ansi.StringWidth(l))
		require.Contains(t, l, "▀")
		require.Contains(t, l, "\x1b[38;2;")
		require.Contains(t, l, "\x1b[48;2;")
	}
}

func TestProtocolImages(t *testing.T) {
	kitty := protocolImage(testImage(40, 30), GraphicsKitty, 20, 8)
	require.Contains(t, kitty[0], "\x1b_Ga=d,d=a\x1b\\", "deletes the image shown before")
	require.Contains(t, kitty[0], "a=T")
	require.Contains(t, kitty[0], "f=100")
	iterm := protocolImage(testImage(40, 30), GraphicsITerm2, 20, 8)
	require.Contains(t, iterm[0], "\x1b]1337;File=")
	require.Contains(t, iterm[0], "inline=1")
	for _, lines := range [][]string{kitty, iterm} {
		for _, l := range lines {
			require.Equal(t, 20, ansi.StringWidth(l))
		}
	}
}

func TestPreviewDrawsTheThumbnail(t *testing.T) {
	w := newWorld(t, servertest.WithPipeline)
	a := w.seed("a.jpg", "2024-05-01T10:00:00", 1)
	w.s.WaitForTasks(w.session, a.ID, 2*time.Minute)
	d := w.open(Options{Graphics: GraphicsHalfBlock})
	d.openMonth("May 2024")
	require.Equal(t, 1, w.calls.count("GET /api/assets/"+a.ID+"/variants/thumbnail"))
	screen := d.view()
	require.Contains(t, screen, "▀", screen)
	for _, l := range strings.Split(screen, "\n") {
		require.LessOrEqual(t, ansi.StringWidth(l), 80)
	}
	d.keys("j", "k") // cached: not fetched again
	require.Equal(t, 1, w.calls.count("GET /api/assets/"+a.ID+"/variants/thumbnail"))

	plain := w.open(Options{Graphics: GraphicsNone})
	plain.openMonth("May 2024")
	require.NotContains(t, plain.view(), "▀")
	require.Contains(t, plain.view(), "[image 32×24]")
}
