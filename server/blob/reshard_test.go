package blob_test

import (
	"fmt"
	"os"
	"path/filepath"
	"sync"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/photoctl/photoctl/server/blob"
)

// TestOpenMovesAFlatLayoutIntoShards opens a data directory as photoctl
// left it before the shard directories (one entry per asset in each kind's
// directory), part of it already moved as a crash mid-way would leave it.
func TestOpenMovesAFlatLayoutIntoShards(t *testing.T) {
	root := t.TempDir()
	flat := map[string]string{ // key → content, at blobs/<key>
		"originals/asset_a":               "original a",
		"originals/asset_b":               "original b",
		"sidecars/asset_a.xmp":            "xmp a",
		"variants/asset_a/thumbnail.webp": "thumb a",
		"variants/asset_a/preview.jpeg":   "preview a",
		"versions/asset_a/ver_1":          "version a",
	}
	for key, content := range flat {
		p := filepath.Join(root, "blobs", filepath.FromSlash(key))
		require.NoError(t, os.MkdirAll(filepath.Dir(p), 0o700))
		require.NoError(t, os.WriteFile(p, []byte(content), 0o600))
	}
	// Moved before a crash: asset_c into the kind's new directory.
	shardC := filepath.Base(filepath.Dir(at(t, root, "originals/asset_c")))
	p := filepath.Join(root, "blobs", ".new.originals", shardC, "asset_c")
	require.NoError(t, os.MkdirAll(filepath.Dir(p), 0o700))
	require.NoError(t, os.WriteFile(p, []byte("original c"), 0o600))
	require.NoError(t, os.WriteFile(filepath.Join(root, "blobs", "originals", "Not A Key"), []byte("kept"), 0o600))

	s, err := blob.Open(root)
	require.NoError(t, err)
	want := map[string]string{"originals/asset_c": "original c"}
	for key, content := range flat {
		want[key] = content
	}
	for key, content := range want {
		require.Equal(t, content, read(t, s, key), key)
		require.FileExists(t, at(t, root, key))
	}
	var keys []string
	require.NoError(t, s.Walk("", func(key string, _ int64) error { keys = append(keys, key); return nil }))
	require.Equal(t, []string{"originals/asset_a", "originals/asset_b", "originals/asset_c", "sidecars/asset_a.xmp",
		"variants/asset_a/preview.jpeg", "variants/asset_a/thumbnail.webp", "versions/asset_a/ver_1"}, keys)

	// Each kind's directory holds its shards, and what is no blob's.
	for _, kind := range []string{"originals", "sidecars", "variants", "versions"} {
		for _, name := range entries(t, filepath.Join(root, "blobs", kind)) {
			require.True(t, len(name) == 2 || name == "Not A Key", "%s/%s", kind, name)
		}
	}
	require.Equal(t, []string{"originals", "sidecars", "variants", "versions"}, entries(t, filepath.Join(root, "blobs")))
	require.FileExists(t, filepath.Join(root, ".blob-layout"))
	require.NoError(t, s.Close())

	// A second start finds nothing to move and changes nothing.
	s, err = blob.Open(root)
	require.NoError(t, err)
	defer s.Close()
	var again []string
	require.NoError(t, s.Walk("", func(key string, _ int64) error { again = append(again, key); return nil }))
	require.Equal(t, keys, again)
}

// TestOpenFinishesAMoveACrashCutShort opens data directories as a crash
// leaves them between the steps of the move (a kind's new directory
// complete but not yet in place; in place but the layout not yet marked),
// and one in the shard layout with no mark (as a restore writes it) that
// also holds a flat entry of the same shard. Every blob is found, once.
func TestOpenFinishesAMoveACrashCutShort(t *testing.T) {
	for _, tt := range []struct {
		name, dir string
		done      bool // the kind's directory is marked complete
	}{{"new directory complete", ".new.originals", true}, {"in place", "originals", true}, {"restored", "originals", false}} {
		t.Run(tt.name, func(t *testing.T) {
			root := t.TempDir()
			sh := filepath.Base(filepath.Dir(at(t, root, "originals/asset_a")))
			p := filepath.Join(root, "blobs", tt.dir, sh, "asset_a")
			require.NoError(t, os.MkdirAll(filepath.Dir(p), 0o700))
			require.NoError(t, os.WriteFile(p, []byte("a"), 0o600))
			want := []string{"originals/asset_a"}
			if tt.done {
				require.NoError(t, os.WriteFile(filepath.Join(root, "blobs", tt.dir, ".sharded"), nil, 0o600))
			} else {
				// A flat entry in the same shard: moved first or second,
				// the two shards merge.
				for i := 0; ; i++ {
					id := fmt.Sprintf("asset_%d", i)
					if filepath.Base(filepath.Dir(at(t, root, "originals/"+id))) == sh {
						require.NoError(t, os.WriteFile(filepath.Join(root, "blobs", "originals", id), []byte("b"), 0o600))
						want = append(want, "originals/"+id)
						break
					}
				}
			}

			s, err := blob.Open(root)
			require.NoError(t, err)
			defer s.Close()
			require.Equal(t, "a", read(t, s, "originals/asset_a"))
			var got []string
			require.NoError(t, s.Walk("", func(key string, _ int64) error { got = append(got, key); return nil }))
			require.ElementsMatch(t, want, got)
			require.Equal(t, []string{"originals"}, entries(t, filepath.Join(root, "blobs")))
			require.Equal(t, []string{sh}, entries(t, filepath.Join(root, "blobs", "originals")))
			require.FileExists(t, filepath.Join(root, ".blob-layout"))
		})
	}
}

// TestOpensAtOnceMoveAFlatLayoutOnce opens one flat data directory from
// several stores at once, as a serve and its workers started together do:
// they take turns, each finds every blob in place, and no lock is left.
func TestOpensAtOnceMoveAFlatLayoutOnce(t *testing.T) {
	root := t.TempDir()
	require.NoError(t, os.MkdirAll(filepath.Join(root, "blobs", "originals"), 0o700))
	var want []string
	for i := range 300 {
		key := fmt.Sprintf("originals/asset_%03d", i)
		require.NoError(t, os.WriteFile(filepath.Join(root, "blobs", filepath.FromSlash(key)), []byte(key), 0o600))
		want = append(want, key)
	}
	stores := make([]*blob.Store, 4)
	errs := make([]error, len(stores))
	var wg sync.WaitGroup
	for i := range stores {
		wg.Go(func() { stores[i], errs[i] = blob.Open(root) })
	}
	wg.Wait()
	for i, s := range stores {
		require.NoError(t, errs[i])
		defer s.Close()
		var got []string
		require.NoError(t, s.Walk("", func(key string, _ int64) error { got = append(got, key); return nil }))
		require.Equal(t, want, got)
		require.Equal(t, "originals/asset_123", read(t, s, "originals/asset_123"))
	}
	require.Equal(t, []string{".blob-layout", "blobs", "tmp"}, entries(t, root))
}

// TestOpenMergesAShardFoundInBothPlaces: a restored data directory (shards,
// no mark) whose move a crash cut short holds a shard both in the kind's
// directory and in its new one; the two merge.
func TestOpenMergesAShardFoundInBothPlaces(t *testing.T) {
	root := t.TempDir()
	sh := filepath.Base(filepath.Dir(at(t, root, "originals/asset_a")))
	var b string
	for i := 0; ; i++ { // another id of the same shard
		if b = fmt.Sprintf("asset_%d", i); filepath.Base(filepath.Dir(at(t, root, "originals/"+b))) == sh {
			break
		}
	}
	for dir, id := range map[string]string{"originals": "asset_a", ".new.originals": b} {
		p := filepath.Join(root, "blobs", dir, sh, id)
		require.NoError(t, os.MkdirAll(filepath.Dir(p), 0o700))
		require.NoError(t, os.WriteFile(p, []byte(id), 0o600))
	}

	s, err := blob.Open(root)
	require.NoError(t, err)
	defer s.Close()
	require.Equal(t, "asset_a", read(t, s, "originals/asset_a"))
	require.Equal(t, b, read(t, s, "originals/"+b))
	require.Equal(t, []string{"originals"}, entries(t, filepath.Join(root, "blobs")))
}
