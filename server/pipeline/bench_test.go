package pipeline_test

import (
	"context"
	"os/exec"
	"path/filepath"
	"strconv"
	"syscall"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/photoctl/photoctl/server/assets"
	"github.com/photoctl/photoctl/server/servertest"
)

// BenchmarkSteps12MP runs each step over camera-like 12 MP JPEGs with EXIF
// and GPS (made by scripts/benchingest gen) and reports, per file, the CPU
// time of this process (libvips, metrics, SQLite; exiftool runs in its own
// long-lived processes and is not counted). The end-to-end comparison with
// vipsthumbnail and exiftool is scripts/bench-ingest.
func BenchmarkSteps12MP(b *testing.B) {
	dir := b.TempDir()
	out, err := exec.Command("go", "run", "../../scripts/benchingest", "gen", "-n", "4", "-dir", dir).CombinedOutput()
	require.NoError(b, err, "%s", out)
	files, err := filepath.Glob(filepath.Join(dir, "photo-*.jpg"))
	require.NoError(b, err)
	e := newEnv(b)
	var ids []string
	for _, f := range files {
		a := e.upload(f, "", assets.UploadInput{})
		e.ingest(a.ID)
		ids = append(ids, a.ID)
	}
	steps := []struct {
		name string
		run  func(ctx context.Context, id string) error
	}{{"metadata", e.p.Metadata}, {"variants", e.p.Variants}, {"geocode", e.p.Geocode}, {"metrics", e.p.Metrics}}
	for _, step := range steps {
		b.Run(step.name, func(b *testing.B) {
			cpu := selfCPU(b)
			i := 0
			for b.Loop() {
				require.NoError(b, step.run(e.ctx, ids[i%len(ids)]))
				i++
			}
			b.ReportMetric(float64((selfCPU(b)-cpu).Microseconds())/1000/float64(b.N), "cpu-ms/file")
		})
	}
}

func selfCPU(b *testing.B) time.Duration {
	var ru syscall.Rusage
	require.NoError(b, syscall.Getrusage(syscall.RUSAGE_SELF, &ru))
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// BenchmarkIngestThroughTheServer uploads camera-like 12 MP JPEGs to the
// real server (servertest) and waits for their task chains to end: the
// in-process form of scripts/bench-ingest's photoctl run, for profiling
// (-cpuprofile). It reports files/s and this process's CPU time per file
// (exiftool's own processes excluded).
func BenchmarkIngestThroughTheServer(b *testing.B) {
	dir := b.TempDir()
	const n = 16
	out, err := exec.Command("go", "run", "../../scripts/benchingest", "gen", "-n", strconv.Itoa(n), "-dir", dir).CombinedOutput()
	require.NoError(b, err, "%s", out)
	files, err := filepath.Glob(filepath.Join(dir, "photo-*.jpg"))
	require.NoError(b, err)
	data := make([][]byte, len(files))
	for i, f := range files {
		data[i] = readFile(b, f)
	}
	cpu := selfCPU(b)
	var total time.Duration
	for b.Loop() {
		s := servertest.Start(b, servertest.WithPipeline)
		_, session := s.Session()
		start := time.Now()
		var ids []string
		for i, d := range data {
			ids = append(ids, s.UploadAsset(session, filepath.Base(files[i]), d, nil).ID)
		}
		for _, id := range ids {
			for _, task := range s.WaitForTasks(session, id, 5*time.Minute) {
				require.Equal(b, "succeeded", task.State, "%s: %v", task.Kind, task.Error)
			}
		}
		total += time.Since(start)
	}
	b.ReportMetric(float64(b.N*n)/total.Seconds(), "files/s")
	b.ReportMetric(float64((selfCPU(b)-cpu).Milliseconds())/float64(b.N*n), "cpu-ms/file")
}
