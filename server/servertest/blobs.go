package servertest

import (
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/photoctl/photoctl/server/blob"
)

// BlobFile is where the blob at key lives in the data directory dataDir
// (blob.Path: "originals/asset_x" is dataDir/blobs/originals/3f/asset_x).
func BlobFile(t testing.TB, dataDir, key string) string {
	t.Helper()
	p, err := blob.Path(dataDir, key)
	require.NoError(t, err)
	return p
}

// BlobNames lists, sorted, the names of what the data directory dataDir
// holds of one kind of blob ("originals": asset ids), across its shard
// directories; nothing when there is none.
func BlobNames(t testing.TB, dataDir, kind string) []string {
	t.Helper()
	shards, err := os.ReadDir(filepath.Join(dataDir, "blobs", kind))
	if os.IsNotExist(err) {
		return nil
	}
	require.NoError(t, err)
	var names []string
	for _, sh := range shards {
		entries, err := os.ReadDir(filepath.Join(dataDir, "blobs", kind, sh.Name()))
		require.NoError(t, err)
		for _, e := range entries {
			names = append(names, e.Name())
		}
	}
	slices.Sort(names)
	return names
}
