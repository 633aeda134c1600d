package blob_test

import (
	"bytes"
	"io"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/photoctl/photoctl/server/blob"
	"github.com/photoctl/photoctl/server/blob/s3test"
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
		store(b, s, "originals/asset_bench/original", data)
	}
}

// store writes data at key through a Writer, as an upload does.
func store(tb testing.TB, s *blob.Store, key string, data []byte) {
	tb.Helper()
	w, err := s.Create(0)
	require.NoError(tb, err)
	_, err = w.ReadFrom(bytes.NewReader(data))
	require.NoError(tb, err)
	require.NoError(tb, w.Commit(key))
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

// BenchmarkWriterThroughputS3 stores the same 64 MiB into a bucket of an
// S3-compatible service on loopback (gofakes3, in memory): temp file with
// the sums, then the PUT (a multipart upload at this size), then reading
// it back whole through Open. The service's own cost is in the figure;
// compare with BenchmarkWriterThroughput for the staging and protocol.
func BenchmarkWriterThroughputS3(b *testing.B) {
	svc := s3test.Start(b, "bench")
	s, err := blob.OpenS3(b.TempDir(), svc.Config("bench", ""))
	require.NoError(b, err)
	data := randomBytes(b, benchSize)
	b.SetBytes(benchSize)
	b.ResetTimer()
	for b.Loop() {
		store(b, s, "originals/asset_bench", data)
		f, err := s.Open("originals/asset_bench")
		require.NoError(b, err)
		n, err := io.Copy(io.Discard, f)
		require.NoError(b, err)
		require.Equal(b, int64(benchSize), n)
		require.NoError(b, f.Close())
	}
}
