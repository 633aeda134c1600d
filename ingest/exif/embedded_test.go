package exif_test

import (
	"bytes"
	"image/jpeg"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/photoctl/photoctl/ingest/exif"
)

func TestEmbeddedImageReturnsTheLargestJPEGInside(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	thumb := filepath.Join(dir, "thumb.jpg")
	writeJPEG(t, thumb, 160, 120)
	path := photo(t, "-Orientation#=6", "-ThumbnailImage<="+thumb)
	p := newPool(t, exif.Config{})

	got, err := p.EmbeddedImage(t.Context(), path)
	require.NoError(t, err)
	want, err := os.ReadFile(thumb)
	require.NoError(t, err)
	require.True(t, bytes.Equal(want, got), "the embedded thumbnail, byte for byte")
	cfg, err := jpeg.DecodeConfig(bytes.NewReader(got))
	require.NoError(t, err)
	require.Equal(t, [2]int{160, 120}, [2]int{cfg.Width, cfg.Height})

	// The metadata processes are not disturbed by the binary one.
	md, err := p.Read(t.Context(), path, "")
	require.NoError(t, err)
	require.Equal(t, ptr(6), md.Orientation)
}

func TestEmbeddedImageOfAFileWithoutOne(t *testing.T) {
	t.Parallel()
	_, err := newPool(t, exif.Config{}).EmbeddedImage(t.Context(), photo(t))
	require.ErrorIs(t, err, exif.ErrNoEmbeddedImage)
}

func TestEmbeddedImageAfterCloseFails(t *testing.T) {
	t.Parallel()
	needTool(t, "exiftool")
	p, err := exif.NewPool(exif.Config{Processes: 1})
	require.NoError(t, err)
	require.NoError(t, p.Close())
	_, err = p.EmbeddedImage(t.Context(), photo(t))
	require.ErrorIs(t, err, exif.ErrClosed)
}
