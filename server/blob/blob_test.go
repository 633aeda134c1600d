package blob_test

import (
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/photoctl/photoctl/server/blob"
	"github.com/photoctl/photoctl/server/catalog"
)

func newStore(t *testing.T) (*blob.Store, string) {
	t.Helper()
	root := t.TempDir()
	s, err := blob.Open(root)
	require.NoError(t, err)
	return s, root
}

// at is where the blob at key lives under a store's root.
func at(t *testing.T, root, key string) string {
	t.Helper()
	p, err := blob.Path(root, key)
	require.NoError(t, err)
	return p
}

func put(t *testing.T, s *blob.Store, key, content string) {
	t.Helper()
	require.NoError(t, s.Put(key, strings.NewReader(content)))
}

func read(t *testing.T, s *blob.Store, key string) string {
	t.Helper()
	f, err := s.Open(key)
	require.NoError(t, err)
	defer f.Close()
	b, err := io.ReadAll(f)
	require.NoError(t, err)
	return string(b)
}

// entries lists a directory, sorted, failing the test when it cannot.
func entries(t *testing.T, dir string) []string {
	t.Helper()
	es, err := os.ReadDir(dir)
	require.NoError(t, err)
	names := []string{}
	for _, e := range es {
		names = append(names, e.Name())
	}
	return names
}

func TestOpenCreatesPrivateDirectories(t *testing.T) {
	root := filepath.Join(t.TempDir(), "data", "library")
	_, err := blob.Open(root)
	require.NoError(t, err)
	for _, d := range []string{"blobs", "tmp"} {
		fi, err := os.Stat(filepath.Join(root, d))
		require.NoError(t, err)
		require.True(t, fi.IsDir())
		require.Equal(t, os.FileMode(0o700), fi.Mode().Perm())
	}
}

func TestMissingBlobIsNotFound(t *testing.T) {
	s, _ := newStore(t)
	put(t, s, "originals/a/original", "x")

	_, err := s.Open("originals/b/original")
	require.ErrorIs(t, err, catalog.ErrNotFound)
	_, err = s.Stat("originals/b/original")
	require.ErrorIs(t, err, catalog.ErrNotFound)
	_, err = s.Open("originals/a/original/below-a-file")
	require.ErrorIs(t, err, catalog.ErrNotFound)
	_, err = s.Open("originals/a")
	require.ErrorIs(t, err, catalog.ErrNotFound, "a directory is not a blob")
	_, err = s.Stat("originals/a")
	require.ErrorIs(t, err, catalog.ErrNotFound)
}

func TestRemoveIsIdempotentAndPrunesEmptyDirectories(t *testing.T) {
	s, root := newStore(t)
	put(t, s, "variants/asset_a/thumbnail.webp", "t")
	put(t, s, "variants/asset_a/preview.jpeg", "p")
	put(t, s, "variants/asset_b/thumbnail.webp", "t")

	require.NoError(t, s.Remove("variants/asset_a/thumbnail.webp"))
	require.NoError(t, s.Remove("variants/asset_a/thumbnail.webp"), "removing twice is fine")
	require.Equal(t, []string{"preview.jpeg"}, entries(t, at(t, root, "variants/asset_a")))

	require.NoError(t, s.Remove("variants/asset_a/preview.jpeg"))
	require.NoDirExists(t, at(t, root, "variants/asset_a"))
	shardB := filepath.Dir(at(t, root, "variants/asset_b"))
	require.NotEqual(t, shardB, filepath.Dir(at(t, root, "variants/asset_a")), "the test needs two shards")
	require.Equal(t, []string{"asset_b"}, entries(t, shardB))
	require.Equal(t, []string{filepath.Base(shardB)}, entries(t, filepath.Join(root, "blobs/variants")),
		"asset_a's emptied shard is gone")

	require.NoError(t, s.Remove("variants/asset_b/thumbnail.webp"))
	require.Empty(t, entries(t, filepath.Join(root, "blobs")), "blobs/ itself stays")
	require.NoError(t, s.Remove("never/was/there"))
	put(t, s, "file", "x")
	require.NoError(t, s.Remove("file/below"), "a path through a blob is missing too")
	require.NoError(t, s.RemoveAll("file/below"))
}

func TestRemoveRefusesADirectory(t *testing.T) {
	s, _ := newStore(t)
	put(t, s, "variants/asset_a/thumbnail.webp", "t")
	require.Error(t, s.Remove("variants/asset_a"))
	require.Equal(t, "t", read(t, s, "variants/asset_a/thumbnail.webp"))
}

func TestRemoveAllDeletesATreeIdempotently(t *testing.T) {
	s, root := newStore(t)
	put(t, s, "variants/asset_x/thumbnail.webp", "t")
	put(t, s, "variants/asset_x/preview.jpeg", "p")
	put(t, s, "variants/asset_y/thumbnail.webp", "t")

	require.NoError(t, s.RemoveAll("variants/asset_x"))
	require.NoError(t, s.RemoveAll("variants/asset_x"))
	require.NoDirExists(t, at(t, root, "variants/asset_x"))
	require.Equal(t, []string{"asset_y"}, entries(t, filepath.Dir(at(t, root, "variants/asset_y"))))

	require.NoError(t, s.RemoveAll("variants/asset_y"))
	require.Empty(t, entries(t, filepath.Join(root, "blobs")))
}
