package exif_test

import (
	"io/fs"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/photoctl/photoctl/ingest/exif"
)

func TestReadRejectsWhatItCannotRead(t *testing.T) {
	t.Parallel()
	p := newPool(t, exif.Config{})
	dir := t.TempDir()
	empty := filepath.Join(dir, "empty.jpg")
	require.NoError(t, os.WriteFile(empty, nil, 0o644))
	img := photo(t)

	cases := []struct {
		name          string
		path, sidecar string
		is            error
	}{
		{"a missing file is fs.ErrNotExist", filepath.Join(dir, "missing.jpg"), "", fs.ErrNotExist},
		{"a missing sidecar is fs.ErrNotExist", img, filepath.Join(dir, "missing.xmp"), fs.ErrNotExist},
		{"an empty file is unreadable", empty, "", exif.ErrUnreadable},
		{"an empty sidecar is unreadable", img, empty, exif.ErrUnreadable},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, err := p.Read(t.Context(), c.path, c.sidecar)
			require.ErrorIs(t, err, c.is)
		})
	}

	t.Run("a directory is not a file", func(t *testing.T) {
		_, err := p.Read(t.Context(), dir, "")
		require.ErrorContains(t, err, "not a regular file")
	})
	t.Run("a path with a line break could smuggle exiftool arguments", func(t *testing.T) {
		_, err := p.Read(t.Context(), img+"\n-o\n/tmp/x", "")
		require.ErrorContains(t, err, "line break")
	})
	t.Run("the pool still reads afterwards", func(t *testing.T) {
		_, err := p.Read(t.Context(), img, "")
		require.NoError(t, err)
	})
}

func TestConfigRejectsNegativeBounds(t *testing.T) {
	t.Parallel()
	require.Error(t, exif.Config{Processes: -1}.Validate())
	require.Error(t, exif.Config{Timeout: -1}.Validate())
	require.NoError(t, exif.Config{}.Validate())
	_, err := exif.NewPool(exif.Config{Processes: -1})
	require.Error(t, err)
}

func TestNewPoolFailsWithoutExiftool(t *testing.T) {
	t.Parallel()
	_, err := exif.NewPool(exif.Config{Binary: filepath.Join(t.TempDir(), "exiftool")})
	require.ErrorContains(t, err, "find exiftool")
}
