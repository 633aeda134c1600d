package variant_test

import (
	"bytes"
	"fmt"
	"image"
	"image/jpeg"
	"os"
	"os/exec"
	"path/filepath"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/davidbyttow/govips/v2/vips"
	"github.com/stretchr/testify/require"
	"golang.org/x/image/draw"

	"github.com/photoctl/photoctl/ingest/variant"
)

// photo12MP is a 4000×3000 JPEG shared by the benchmarks (made once: the
// Go encoder takes a second).
var photo12MP = sync.OnceValue(func() []byte {
	var buf bytes.Buffer
	if err := jpeg.Encode(&buf, scene(4000, 3000, 42), &jpeg.Options{Quality: 90}); err != nil {
		panic(err)
	}
	return buf.Bytes()
})

// photos writes n copies of the 12 MP JPEG, under distinct names.
func photos(b *testing.B, n int) []string {
	b.Helper()
	dir := b.TempDir()
	paths := make([]string, n)
	for i := range paths {
		paths[i] = writeFile(b, dir, fmt.Sprintf("photo%d.jpg", i), photo12MP())
	}
	return paths
}

// report adds files/s and the CPU time spent per file, user and system,
// in every thread: on a shared machine wall time drifts with the load,
// CPU time much less.
func report(b *testing.B, files int, cpu time.Duration) {
	b.ReportMetric(float64(files)/b.Elapsed().Seconds(), "files/s")
	b.ReportMetric(float64(cpu.Milliseconds())/float64(files), "cpu-ms/file")
}

// watchRSS samples the process's resident memory every 5 ms until the
// returned stop is called, which reports the highest sample as
// peak-rss-MiB (Linux; nothing elsewhere).
func watchRSS(b *testing.B) (stop func()) {
	var peak atomic.Int64
	done := make(chan struct{})
	var wg sync.WaitGroup
	wg.Go(func() {
		tick := time.NewTicker(5 * time.Millisecond)
		defer tick.Stop()
		for {
			if rss := residentBytes(); rss > peak.Load() {
				peak.Store(rss)
			}
			select {
			case <-done:
				return
			case <-tick.C:
			}
		}
	})
	return func() {
		close(done)
		wg.Wait()
		if peak.Load() > 0 {
			b.ReportMetric(float64(peak.Load())/(1<<20), "peak-rss-MiB")
		}
	}
}

// residentBytes reads the resident set size from /proc, or 0.
func residentBytes() int64 {
	statm, err := os.ReadFile("/proc/self/statm")
	if err != nil {
		return 0
	}
	var size, resident int64
	if _, err := fmt.Sscan(string(statm), &size, &resident); err != nil {
		return 0
	}
	return resident * int64(os.Getpagesize())
}

// minorFaults is how many pages this process has faulted in so far
// without reading a disk: fresh memory touched for the first time (on the
// benchmark machine's virtual CPUs several microseconds each).
func minorFaults(b *testing.B) int64 {
	var ru syscall.Rusage
	require.NoError(b, syscall.Getrusage(syscall.RUSAGE_SELF, &ru))
	return ru.Minflt
}

// processCPU is the CPU time this process has used so far.
func processCPU(b *testing.B) time.Duration {
	var ru syscall.Rusage
	require.NoError(b, syscall.Getrusage(syscall.RUSAGE_SELF, &ru))
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// BenchmarkRender12MP renders the thumbnail and preview of a 12 MP JPEG:
// one file at a time ("serial") and with one render per CPU ("parallel",
// the pipeline's throughput).
func BenchmarkRender12MP(b *testing.B) {
	path := photos(b, 1)[0]
	for _, format := range []string{variant.FormatWebP, variant.FormatJPEG} {
		r := newRenderer(b, variant.Config{Format: format})
		b.Run(format+"/serial", func(b *testing.B) {
			defer watchRSS(b)()
			cpu, faults := processCPU(b), minorFaults(b)
			for b.Loop() {
				if _, err := r.Render(b.Context(), path, "image/jpeg"); err != nil {
					b.Fatal(err)
				}
			}
			report(b, b.N, processCPU(b)-cpu)
			b.ReportMetric(float64(minorFaults(b)-faults)/float64(b.N), "faults/file")
		})
		b.Run(format+"/parallel", func(b *testing.B) {
			defer watchRSS(b)()
			cpu, faults := processCPU(b), minorFaults(b)
			b.SetParallelism(1) // GOMAXPROCS goroutines, as many as the renderer's slots
			b.RunParallel(func(pb *testing.PB) {
				for pb.Next() {
					if _, err := r.Render(b.Context(), path, "image/jpeg"); err != nil {
						b.Error(err)
						return
					}
				}
			})
			report(b, b.N, processCPU(b)-cpu)
			b.ReportMetric(float64(minorFaults(b)-faults)/float64(b.N), "faults/file")
		})
	}
}

// BenchmarkVipsThumbnailCLI is the yardstick: libvips' own vipsthumbnail
// writing the same two sizes for the same file, in batches of 8 files per
// run so process start-up is spread out (vipsthumbnail threads each image
// over every CPU).
func BenchmarkVipsThumbnailCLI(b *testing.B) {
	if _, err := exec.LookPath("vipsthumbnail"); err != nil {
		b.Skip("vipsthumbnail is not installed (Debian: libvips-tools)")
	}
	const batch = 8
	paths := photos(b, batch)
	out := b.TempDir()
	for _, format := range []struct{ name, ext string }{{"webp", ".webp[Q=82,strip]"}, {"jpeg", ".jpg[Q=82,strip,optimize_coding]"}} {
		b.Run(format.name, func(b *testing.B) {
			var cpu time.Duration
			for b.Loop() {
				for _, size := range []struct {
					px   string
					name string
				}{{"1440", "preview"}, {"250", "thumbnail"}} {
					args := append([]string{"-s", size.px, "-o", filepath.Join(out, "%s_"+size.name+format.ext)}, paths...)
					cmd := exec.Command("vipsthumbnail", args...)
					if msg, err := cmd.CombinedOutput(); err != nil {
						b.Fatalf("vipsthumbnail: %v: %s", err, msg)
					}
					cpu += cmd.ProcessState.UserTime() + cmd.ProcessState.SystemTime()
				}
			}
			report(b, b.N*batch, cpu)
		})
	}
}

// BenchmarkDecode12MP compares the decoders for a 1440 px preview of a
// 12 MP JPEG, without encoding: libvips with shrink-on-load against the
// standard library's decoder and golang.org/x/image/draw.
func BenchmarkDecode12MP(b *testing.B) {
	src := photo12MP()
	b.Run("govips-shrink-on-load", func(b *testing.B) {
		cpu := processCPU(b)
		for b.Loop() {
			img, err := vips.LoadThumbnailFromBuffer(src, 1440, 1440, vips.InterestingNone, vips.SizeDown, nil)
			require.NoError(b, err)
			_, err = img.Average() // evaluate the pipeline, cheaply
			require.NoError(b, err)
			img.Close()
		}
		report(b, b.N, processCPU(b)-cpu)
	})
	for name, scaler := range map[string]draw.Scaler{
		"image-jpeg+x-image-draw-bilinear":   draw.ApproxBiLinear, // fast, aliases
		"image-jpeg+x-image-draw-catmullrom": draw.CatmullRom,     // near libvips' lanczos3
	} {
		b.Run(name, func(b *testing.B) {
			cpu := processCPU(b)
			for b.Loop() {
				img, err := jpeg.Decode(bytes.NewReader(src))
				require.NoError(b, err)
				dst := image.NewRGBA(image.Rect(0, 0, 1440, 1080))
				scaler.Scale(dst, dst.Bounds(), img, img.Bounds(), draw.Src, nil)
			}
			report(b, b.N, processCPU(b)-cpu)
		})
	}
}
