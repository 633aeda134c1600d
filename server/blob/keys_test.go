package blob_test

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/photoctl/photoctl/server/blob"
	"github.com/photoctl/photoctl/server/catalog"
)

func TestBadKeysAreRejectedBeforeTheFileSystem(t *testing.T) {
	keys := map[string]string{
		"an empty key":                     "",
		"an absolute path":                 "/etc/passwd",
		"a parent escape":                  "../escape",
		"a parent escape in the middle":    "originals/../../escape",
		"a dot segment":                    "originals/./x",
		"a trailing dot-dot":               "originals/..",
		"a hidden file":                    "originals/.hidden",
		"an empty segment":                 "a//b",
		"a trailing slash":                 "a/b/",
		"a backslash":                      `a\..\b`,
		"a NUL byte":                       "a\x00b",
		"a one-dot leader":                 "\u2024\u2024/escape",
		"fullwidth full stops":             "\uff0e\uff0e/escape",
		"upper case":                       "Originals/x",
		"a space":                          "a b",
		"a tilde":                          "~/x",
		"a key one byte over the limit":    strings.Repeat("a", blob.MaxKeyLen+1),
		"a very long key of parent escape": strings.Repeat("../", 10000) + "etc/passwd",
	}
	for name, key := range keys {
		t.Run(name, func(t *testing.T) {
			s, root := newStore(t)
			_, err := s.Open(key)
			require.ErrorIs(t, err, blob.ErrBadKey)
			_, err = s.Stat(key)
			require.ErrorIs(t, err, blob.ErrBadKey)
			require.ErrorIs(t, s.Remove(key), blob.ErrBadKey)
			require.ErrorIs(t, s.RemoveAll(key), blob.ErrBadKey)
			require.ErrorIs(t, s.Put(key, strings.NewReader("x")), blob.ErrBadKey)
			if key != "" {
				require.ErrorIs(t, s.Walk(key, func(string, int64) error { return nil }), blob.ErrBadKey)
			}
			w, err := s.Create(0)
			require.NoError(t, err)
			_, err = w.Write([]byte("x"))
			require.NoError(t, err)
			require.ErrorIs(t, w.Commit(key), blob.ErrBadKey)
			require.False(t, errors.Is(w.Commit(key), catalog.ErrNotFound))

			require.Equal(t, []string{".blob-layout", "blobs", "tmp"}, entries(t, root))
			require.Empty(t, entries(t, filepath.Join(root, "blobs")))
			require.Empty(t, entries(t, filepath.Join(root, "tmp")), "a failed commit removes its temp file")
		})
	}
}

func TestGoodKeysAreAccepted(t *testing.T) {
	keys := map[string]string{
		"an original":                "originals/asset_01hx7j0q2v/original",
		"a variant with a dot":       "variants/asset_01hx7j0q2v/thumbnail.webp",
		"a top-level key":            "x",
		"dots inside a segment":      "a..b/c.d.e",
		"a key exactly at the limit": strings.Repeat("a", blob.MaxKeyLen),
	}
	for name, key := range keys {
		t.Run(name, func(t *testing.T) {
			s, _ := newStore(t)
			put(t, s, key, "content")
			require.Equal(t, "content", read(t, s, key))
		})
	}
}

func TestSymlinkOutOfTheTreeIsNotFollowed(t *testing.T) {
	s, root := newStore(t)
	outside := filepath.Join(t.TempDir(), "secret")
	require.NoError(t, os.WriteFile(outside, []byte("secret"), 0o600))
	require.NoError(t, os.Symlink(outside, filepath.Join(root, "blobs", "link")))
	require.NoError(t, os.Symlink(filepath.Dir(outside), filepath.Join(root, "blobs", "dir")))

	_, err := s.Open("link")
	require.Error(t, err)
	_, err = s.Open("dir/secret")
	require.Error(t, err)
	require.Error(t, s.Put("dir/planted", strings.NewReader("x")))
	require.NoFileExists(t, filepath.Join(filepath.Dir(outside), "planted"))
}

// TestKeyOfInvertsPath: the file of every key maps back to the key; paths
// that no key has in this layout (a flat layout's, a wrong shard, a shard
// directory itself, outside the blobs) map to none.
func TestKeyOfInvertsPath(t *testing.T) {
	root := t.TempDir()
	for _, key := range []string{"originals/asset_01", "variants/asset_01/thumbnail.webp",
		"versions/asset_01/ver_02.3", "sidecars/asset_01.xmp", "tmp/upload-x", "x"} {
		p, err := blob.Path(root, key)
		require.NoError(t, err)
		got, ok := blob.KeyOf(root, p)
		require.True(t, ok, key)
		require.Equal(t, key, got)
	}
	good, err := blob.Path(root, "originals/asset_01")
	require.NoError(t, err)
	shardDir := filepath.Dir(good)
	wrong := "00"
	if filepath.Base(shardDir) == wrong {
		wrong = "01"
	}
	for _, p := range []string{
		filepath.Join(root, "blobs", "originals", "asset_01"),    // flat
		filepath.Join(filepath.Dir(shardDir), wrong, "asset_01"), // another shard
		shardDir,                           // the shard itself
		filepath.Join(root, "photoctl.db"), // outside blobs/
		filepath.Join(root, "blobs", "originals", "zz", "asset_01"),       // not a shard name
		filepath.Join(root, "blobs", "..", "..", "originals", "asset_01"), // out of the root
	} {
		_, ok := blob.KeyOf(root, p)
		require.False(t, ok, p)
	}
}
