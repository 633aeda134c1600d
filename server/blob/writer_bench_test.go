package blob_test

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/photoctl/photoctl/server/blob"
)

// benchSize is what each iteration of the write benchmarks stores.
const benchSize = 64 << 20

// BenchmarkWriterThroughput stores 64 MiB through Writer.ReadFrom and
// Commit: temp file, SHA-256, SHA-1, fsync, rename, directory fsync.
// Compare with BenchmarkRawFileWrite to see what hashing and committing cost.
func BenchmarkWriterThroughput(b *testing.B) {
	s, err := blob.Open(b.TempDir())
	require.NoError(b, err)
	data := randomBytes(b, benchSize)
	b.SetBytes(benchSize)
	b.ResetTimer()
	for b.Loop() {
		w, err := s.Create(0)
		require.NoError(b, err)
		_, err = w.ReadFrom(bytes.NewReader(data))
		require.NoError(b, err)
		require.NoError(b, w.Commit("originals/asset_bench/original"))
	}
}

// BenchmarkRawFileWrite is the baseline: the same 64 MiB written to a plain
// os.File in 256 KiB chunks, then fsynced, with no hashing.
func BenchmarkRawFileWrite(b *testing.B) {
	path := filepath.Join(b.TempDir(), "raw")
	data := randomBytes(b, benchSize)
	b.SetBytes(benchSize)
	b.ResetTimer()
	for b.Loop() {
		f, err := os.Create(path)
		require.NoError(b, err)
		for off := 0; off < len(data); off += 256 << 10 {
			_, err = f.Write(data[off:min(off+256<<10, len(data))])
			require.NoError(b, err)
		}
		require.NoError(b, f.Sync())
		require.NoError(b, f.Close())
	}
}
