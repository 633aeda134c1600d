package app

import (
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/photoctl/photoctl/server/blob"
	"github.com/photoctl/photoctl/server/blob/s3test"
	"github.com/photoctl/photoctl/server/servertest/scale"
)

// BenchmarkCopyBlobsScale copies the blobs of COPY_ASSETS (default 2,000)
// assets, four small files each (an original, a sidecar, two variants),
// into a bucket of an in-memory service in another process (so the heap
// measured is the copy's alone), then runs again with everything in place.
// It reports each run's time and the most heap it held, which must not
// grow with the library.
func BenchmarkCopyBlobsScale(b *testing.B) {
	n := scale.Size(b, "COPY_ASSETS", 2000)
	cfg := Defaults(b.TempDir())
	local, err := blob.Open(cfg.DataDir)
	require.NoError(b, err)
	require.NoError(b, local.Close())
	for i := range n {
		id := fmt.Sprintf("asset_%026d", i)
		scale.AssetFiles(b, cfg.DataDir, id, []byte(id))
	}
	for b.Loop() {
		cfg.Storage.S3 = bucketOf(s3test.StartProcess(b, "photos"), "photos", "lib/")
		for _, phase := range []struct {
			name   string
			copied int
		}{{"first", 4 * n}, {"again", 0}} {
			stop := scale.SampleHeap()
			start := time.Now()
			st, err := CopyBlobsToBucket(context.Background(), cfg, 8, nil)
			took, peak := time.Since(start), stop()
			require.NoError(b, err, phase.name)
			b.ReportMetric(took.Seconds(), phase.name+"-s")
			b.ReportMetric(float64(peak)/(1<<20), phase.name+"-peak-heap-MiB")
			require.Equal(b, phase.copied, st.Copied, phase.name)
			require.Equal(b, 4*n, st.Blobs, phase.name)
		}
	}
}
