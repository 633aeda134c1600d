// Package scale holds what the benchmarks of work at a library's scale
// share: the size they run at, from the environment; an asset's files in a
// data directory; and the most heap the work held, which must not grow
// with the library.
package scale

import (
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"sync"
	"testing"
	"time"

	"github.com/photoctl/photoctl/server/blob"
)

// Size is the number in the environment variable env, or def when it is
// unset; a value that is no positive number fails the benchmark.
func Size(tb testing.TB, env string, def int) int {
	tb.Helper()
	v, ok := os.LookupEnv(env)
	if !ok || v == "" {
		return def
	}
	n, err := strconv.Atoi(v)
	if err != nil || n < 1 {
		tb.Fatalf("%s=%q is not a positive number", env, v)
	}
	return n
}

// SampleHeap collects garbage, then samples the heap in use every 10 ms
// until the returned function is called, which returns the largest sample.
func SampleHeap() (stop func() uint64) {
	runtime.GC()
	done := make(chan struct{})
	var peak uint64
	var wg sync.WaitGroup
	wg.Go(func() {
		t := time.NewTicker(10 * time.Millisecond)
		defer t.Stop()
		var ms runtime.MemStats
		for {
			runtime.ReadMemStats(&ms)
			peak = max(peak, ms.HeapInuse)
			select {
			case <-done:
				return
			case <-t.C:
			}
		}
	})
	return func() uint64 { close(done); wg.Wait(); return peak }
}

// AssetFiles writes the files a data directory at root holds for the asset
// id: an original, an XMP sidecar and two variants, each holding content.
func AssetFiles(tb testing.TB, root, id string, content []byte) {
	tb.Helper()
	for _, key := range []string{"originals/" + id, "sidecars/" + id + ".xmp",
		"variants/" + id + "/thumbnail.webp", "variants/" + id + "/preview.webp"} {
		p, err := blob.Path(root, key)
		if err == nil {
			if err = os.MkdirAll(filepath.Dir(p), 0o700); err == nil {
				err = os.WriteFile(p, content, 0o600)
			}
		}
		if err != nil {
			tb.Fatal(err)
		}
	}
}
