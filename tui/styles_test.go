package tui

import (
	"image/color"
	"testing"

	tea "charm.land/bubbletea/v2"
	"github.com/stretchr/testify/require"
)

func TestTheTerminalsBackgroundPicksTheColours(t *testing.T) {
	w := newWorld(t)
	d := w.open(Options{})
	require.True(t, d.m.st.dark, "dark until the terminal says")
	d.keys("?")
	require.Contains(t, d.view(), "colours for a dark background (the terminal did not say)")
	dark := d.m.View().Content

	d.send(tea.BackgroundColorMsg{Color: color.White})
	require.False(t, d.m.st.dark)
	require.Contains(t, d.view(), "colours for a light background (the terminal's)")
	require.NotEqual(t, dark, d.m.View().Content, "other colours")
	require.Contains(t, d.m.View().Content, "\x1b[1;38;2;90;63;217m[1 Timeline]", "the light accent, #5A3FD9")

	d.send(tea.BackgroundColorMsg{Color: color.RGBA{0x1e, 0x1e, 0x1e, 0xff}})
	require.True(t, d.m.st.dark)
	require.True(t, d.m.View().AltScreen)
}
