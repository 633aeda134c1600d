package blob_test

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/photoctl/photoctl/server/blob"
)

func TestWalkListsKeysInByteOrder(t *testing.T) {
	s, _ := newStore(t)
	keys := []string{"a/x", "a-b", "a.c", "a0", "originals/asset_2/original", "originals/asset_1/original",
		"variants/asset_1/thumbnail.webp", "variants/asset_1/preview.jpeg"}
	for _, k := range keys {
		put(t, s, k, k)
	}

	type seen struct {
		key  string
		size int64
	}
	walk := func(prefix string) []seen {
		var got []seen
		require.NoError(t, s.Walk(prefix, func(key string, size int64) error {
			got = append(got, seen{key, size})
			return nil
		}))
		return got
	}
	require.Equal(t, []seen{{"a-b", 3}, {"a.c", 3}, {"a/x", 3}, {"a0", 2},
		{"originals/asset_1/original", 26}, {"originals/asset_2/original", 26},
		{"variants/asset_1/preview.jpeg", 29}, {"variants/asset_1/thumbnail.webp", 31}}, walk(""))
	require.Equal(t, []seen{{"originals/asset_1/original", 26}, {"originals/asset_2/original", 26}}, walk("originals"))
	require.Equal(t, []seen{{"a0", 2}}, walk("a0"), "a prefix naming a blob yields that blob")
	require.Empty(t, walk("missing"))
	require.Empty(t, walk("a0/below"), "a path through a blob is missing")

	stop := errors.New("stop")
	calls := 0
	err := s.Walk("", func(string, int64) error { calls++; return stop })
	require.ErrorIs(t, err, stop)
	require.Equal(t, 1, calls)
}

func TestWalkSkipsTempFilesAndForeignNames(t *testing.T) {
	s, root := newStore(t)
	put(t, s, "originals/a/original", "x")
	w, err := s.Create(0)
	require.NoError(t, err)
	defer w.Abort()
	require.NoError(t, os.WriteFile(filepath.Join(root, "blobs", "originals", "Stray File"), nil, 0o600))

	var got []string
	require.NoError(t, s.Walk("", func(key string, _ int64) error { got = append(got, key); return nil }))
	require.Equal(t, []string{"originals/a/original"}, got)
}

func TestCleanTempRemovesWhatACrashLeftBehind(t *testing.T) {
	root := t.TempDir()
	s, err := blob.Open(root)
	require.NoError(t, err)
	w, err := s.Create(0)
	require.NoError(t, err)
	_, err = w.Write([]byte("half an upload"))
	require.NoError(t, err)
	tmp := w.TempPath()
	require.FileExists(t, tmp)
	// The process dies here: no Commit, no Abort.

	s, err = blob.Open(root)
	require.NoError(t, err)
	n, err := s.CleanTemp(time.Hour)
	require.NoError(t, err)
	require.Zero(t, n, "a young temp file may be an upload still running")
	require.FileExists(t, tmp)

	n, err = s.CleanTemp(0)
	require.NoError(t, err)
	require.Equal(t, 1, n)
	require.NoFileExists(t, tmp)
	require.Empty(t, entries(t, filepath.Join(root, "tmp")))
}

func TestCleanTempCountsOnlyOldFiles(t *testing.T) {
	s, root := newStore(t)
	old := time.Now().Add(-48 * time.Hour)
	for _, name := range []string{"upload-old1", "upload-old2"} {
		p := filepath.Join(root, "tmp", name)
		require.NoError(t, os.WriteFile(p, []byte("x"), 0o600))
		require.NoError(t, os.Chtimes(p, old, old))
	}
	w, err := s.Create(0)
	require.NoError(t, err)
	defer w.Abort()

	n, err := s.CleanTemp(24 * time.Hour)
	require.NoError(t, err)
	require.Equal(t, 2, n)
	require.FileExists(t, w.TempPath())
}

// Scan yields what Walk does, in no particular order, reading a large
// directory in chunks; removing what it has yielded does not disturb it.
func TestScanYieldsEveryBlobWhileTheyAreRemoved(t *testing.T) {
	s, root := newStore(t)
	var want []string
	put(t, s, "originals/asset_0000", "x")
	put(t, s, "versions/asset_0000/v0", "x")
	// Spread over the shards, and more than two of Scan's chunks in one
	// directory; written as a Put leaves them, without the fsyncs.
	for i := range 2500 {
		for _, key := range []string{fmt.Sprintf("originals/asset_%04d", i), fmt.Sprintf("versions/asset_0000/v%d", i)} {
			p := at(t, root, key)
			require.NoError(t, os.MkdirAll(filepath.Dir(p), 0o700))
			require.NoError(t, os.WriteFile(p, []byte("x"), 0o600))
			want = append(want, key)
		}
	}
	put(t, s, "sidecars/asset_0001.xmp", "xmp")
	want = append(want, "sidecars/asset_0001.xmp")
	slices.Sort(want)
	require.NoError(t, os.WriteFile(filepath.Join(filepath.Dir(at(t, root, "originals/asset_0000")), "Stray File"), nil, 0o600))

	var got []string
	require.NoError(t, s.Scan("", func(key string, size int64) error {
		got = append(got, key)
		if !strings.HasPrefix(key, "sidecars/") {
			require.EqualValues(t, 1, size)
			return s.Remove(key)
		}
		return nil
	}))
	slices.Sort(got)
	require.Equal(t, want, got)
	var left []string
	require.NoError(t, s.Walk("", func(key string, _ int64) error { left = append(left, key); return nil }))
	require.Equal(t, []string{"sidecars/asset_0001.xmp"}, left)

	require.NoError(t, s.Scan("missing", func(string, int64) error { t.Fatal("nothing to scan"); return nil }))
	stop := errors.New("stop")
	require.ErrorIs(t, s.Scan("sidecars", func(string, int64) error { return stop }), stop)
}
