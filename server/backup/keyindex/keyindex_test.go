package keyindex_test

import (
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/photoctl/photoctl/server/backup/keyindex"
)

// TestIndexKeepsKeysAcrossItsCommitsAndDeletesItsFile: values written
// before and after the index's periodic commits read back, a key written
// twice holds its last value, an absent key is reported absent, taken
// keys are gone and Each yields the rest in key order; a file
// left at the path (a killed run's) is replaced, and Close deletes the
// file.
func TestIndexKeepsKeysAcrossItsCommitsAndDeletesItsFile(t *testing.T) {
	path := filepath.Join(t.TempDir(), ".tmp-index.db")
	require.NoError(t, os.WriteFile(path, []byte("not a database"), 0o600))
	x, err := keyindex.Open(path)
	require.NoError(t, err)
	const n = 45000 // more than two commits' worth
	for i := range n {
		require.NoError(t, x.Put(fmt.Sprintf("originals/asset_%06d", i), []byte(fmt.Sprint(i))))
	}
	require.NoError(t, x.Put("originals/asset_000007", []byte("again")))
	require.NoError(t, x.Put("sidecars/asset_000007.xmp", nil))
	for key, want := range map[string]string{
		"originals/asset_000000": "0", "originals/asset_000007": "again",
		"originals/asset_030000": "30000", fmt.Sprintf("originals/asset_%06d", n-1): fmt.Sprint(n - 1),
		"sidecars/asset_000007.xmp": "",
	} {
		v, ok, err := x.Get(key)
		require.NoError(t, err)
		require.True(t, ok, key)
		require.Equal(t, want, string(v), key)
	}
	_, ok, err := x.Get("originals/asset_absent")
	require.NoError(t, err)
	require.False(t, ok)

	// Take every key but three: Each then yields those three, in order.
	for i := range n {
		if i == 5 || i == 20001 || i == 44444 {
			continue
		}
		v, ok, err := x.Take(fmt.Sprintf("originals/asset_%06d", i))
		require.NoError(t, err)
		require.True(t, ok)
		if i != 7 {
			require.Equal(t, fmt.Sprint(i), string(v))
		}
	}
	_, ok, err = x.Take("originals/asset_000009")
	require.NoError(t, err)
	require.False(t, ok, "taken already")
	var left []string
	require.NoError(t, x.Each(func(key string, _ []byte) error {
		left = append(left, key)
		return nil
	}))
	require.Equal(t, []string{"originals/asset_000005", "originals/asset_020001", "originals/asset_044444",
		"sidecars/asset_000007.xmp"}, left)
	require.NoError(t, x.Close())
	require.NoFileExists(t, path)
}
