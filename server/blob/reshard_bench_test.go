package blob_test

import (
	"fmt"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/photoctl/photoctl/server/blob"
	"github.com/photoctl/photoctl/server/servertest/scale"
)

// BenchmarkReshard times the first Open of a data directory in the flat
// layout of photoctl before the shard directories: RESHARD_ASSETS (default
// 20,000) assets, each an original, a sidecar and a directory of two
// variants, moved into the shards. It reports the time per asset; a second
// Open of the same directory (what every later start pays) is reported as
// reopen-ns.
func BenchmarkReshard(b *testing.B) {
	n := scale.Size(b, "RESHARD_ASSETS", 20000)
	for b.Loop() {
		b.StopTimer()
		root := b.TempDir()
		for _, d := range []string{"originals", "sidecars", "variants"} {
			require.NoError(b, os.MkdirAll(filepath.Join(root, "blobs", d), 0o700))
		}
		for i := range n {
			id := fmt.Sprintf("asset_01jx%022d", i)
			v := filepath.Join(root, "blobs", "variants", id)
			require.NoError(b, os.Mkdir(v, 0o700))
			for _, p := range []string{filepath.Join(root, "blobs", "originals", id),
				filepath.Join(root, "blobs", "sidecars", id+".xmp"),
				filepath.Join(v, "thumbnail.webp"), filepath.Join(v, "preview.webp")} {
				require.NoError(b, os.WriteFile(p, nil, 0o600))
			}
		}
		b.StartTimer()
		s, err := blob.Open(root)
		require.NoError(b, err)
		b.StopTimer()
		_ = s.Close()
		const reopens = 100
		start := time.Now()
		for range reopens {
			s, err := blob.Open(root)
			require.NoError(b, err)
			_ = s.Close()
		}
		b.ReportMetric(float64(time.Since(start).Nanoseconds())/reopens, "reopen-ns")
		b.StartTimer()
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*n), "ns/asset")
}
