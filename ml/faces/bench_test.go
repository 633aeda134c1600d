package faces

import (
	"context"
	"image"
	"math"
	"runtime"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/photoctl/photoctl/ml/internal/mltest"
	"github.com/photoctl/photoctl/ml/internal/raster"
)

// BenchmarkDetectFaces runs DetectFaces (detect, landmarks, sanity check,
// align, embed) over the six group photos (1920 px wide, 22 faces) and
// reports faces per CPU-second, i.e. per core: the figure docs/ml.md
// records. The serial run uses one worker; the parallel run one per CPU.
func BenchmarkDetectFaces(b *testing.B) {
	photos := make([]image.Image, len(mltest.GroupPhotos))
	for i, p := range mltest.GroupPhotos {
		photos[i] = mltest.Photo(b, p.Name)
	}
	for _, bc := range []struct {
		name    string
		workers int
	}{{"serial", 1}, {"parallel", runtime.NumCPU()}} {
		b.Run(bc.name, func(b *testing.B) {
			rt := mltest.Runtime(b, bc.workers)
			a, err := New(rt, Config{})
			if err != nil {
				b.Fatal(err)
			}
			ctx := context.Background()
			var faces, images atomic.Int64
			b.ResetTimer()
			cpu0 := mltest.CPUTime()
			for b.Loop() {
				var wg sync.WaitGroup
				next := atomic.Int64{}
				for range bc.workers {
					wg.Go(func() {
						for {
							i := int(next.Add(1) - 1)
							if i >= len(photos) {
								return
							}
							fs, err := a.DetectFaces(ctx, photos[i])
							if err != nil {
								b.Error(err)
								return
							}
							faces.Add(int64(len(fs)))
							images.Add(1)
						}
					})
				}
				wg.Wait()
			}
			cpu := (mltest.CPUTime() - cpu0).Seconds()
			b.ReportMetric(float64(faces.Load())/cpu, "faces/cpu-s")
			b.ReportMetric(float64(images.Load())/cpu, "images/cpu-s")
			b.ReportMetric(float64(faces.Load())/b.Elapsed().Seconds(), "faces/s")
		})
	}
}

// BenchmarkFaceSet runs DetectFaces, one worker, over the face set
// (faceset_test.go: 260 faces in 88 pictures, and 40 face-free
// pictures) and
// reports the share of faces found, the false positives and the time per
// picture: wall and CPU milliseconds, and detector runs.
func BenchmarkFaceSet(b *testing.B) {
	set := faceSetImages(b)
	a, err := New(mltest.Runtime(b, 1), Config{})
	if err != nil {
		b.Fatal(err)
	}
	var faces, hits, falsePos, images int
	b.ResetTimer()
	cpu0 := mltest.CPUTime()
	for b.Loop() {
		f, h, fp, _ := runFaceSet(b, a, set)
		faces, hits, falsePos, images = faces+f, hits+h, falsePos+fp, images+len(set)
	}
	cpu := mltest.CPUTime() - cpu0
	b.ReportMetric(100*float64(hits)/float64(faces), "%recall")
	b.ReportMetric(float64(falsePos)/float64(b.N), "false-pos")
	b.ReportMetric(float64(b.Elapsed().Milliseconds())/float64(images), "ms/image")
	b.ReportMetric(float64(cpu.Milliseconds())/float64(images), "cpu-ms/image")
	reportRuns(b, a, images)
}

// reportRuns reports how many times per image each model ran.
func reportRuns(b *testing.B, a *Analyzer, images int) {
	n := float64(images)
	b.ReportMetric(float64(a.runs.detect.Load())/n, "detect-runs/image")
	b.ReportMetric(float64(a.runs.landmark.Load())/n, "landmark-runs/image")
	b.ReportMetric(float64(a.runs.feature.Load())/n, "embed-runs/image")
}

// BenchmarkDetectFacesBySize runs DetectFaces, one worker, on single
// pictures of the sizes that take different runs (docs/ml.md, "Faces"):
// a small group photo (the whole picture and, small, the second pass), a
// big one (levels of tiles; faces big enough that the second pass does not
// run) and small faces in a big frame (the second pass runs), and reports
// CPU milliseconds per picture.
func BenchmarkDetectFacesBySize(b *testing.B) {
	group := raster.FromImage(mltest.Photo(b, "face-api-sample6.jpg"))
	for _, bc := range []struct {
		name string
		img  image.Image
	}{
		{"group-640x512", group.Scaled(640, 512)},
		{"group-1920x1537", group},
		{"small-faces-1440x1080", mosaic(b, 36)},
	} {
		b.Run(bc.name, func(b *testing.B) {
			a, err := New(mltest.Runtime(b, 1), Config{})
			if err != nil {
				b.Fatal(err)
			}
			ctx := context.Background()
			b.ResetTimer()
			cpu0 := mltest.CPUTime()
			for b.Loop() {
				if _, err := a.DetectFaces(ctx, bc.img); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64((mltest.CPUTime()-cpu0).Milliseconds())/float64(b.N), "cpu-ms/image")
			reportRuns(b, a, b.N)
		})
	}
}

// BenchmarkModelRuns times one run of each model, with what DetectFaces
// does around it (copying the tile, the crop, the warp), in CPU
// milliseconds: with the runs per image the other benchmarks report, what
// each added pass costs.
func BenchmarkModelRuns(b *testing.B) {
	a, err := New(mltest.Runtime(b, 1), Config{})
	if err != nil {
		b.Fatal(err)
	}
	ctx := context.Background()
	src := raster.FromImage(mltest.Photo(b, "pigo-sample.jpg"))
	l := whole(float64(src.W), float64(src.H), math.Max(float64(src.W)/detW, float64(src.H)/detH))
	pic := src.Scaled(l.w, l.h)
	d := detection{x0: 68, y0: 70, x1: 249, y1: 357, score: 1}
	pts, err := a.landmarks(ctx, src, d.square())
	if err != nil {
		b.Fatal(err)
	}
	for _, bc := range []struct {
		name string
		run  func() error
	}{
		{"detect", func() error { _, err := a.detectTile(ctx, pic, l, l.tiles[0]); return err }},
		{"landmark", func() error { _, err := a.landmarks(ctx, src, d.square()); return err }},
		{"embed", func() error { _, _, err := a.embed(ctx, src, points5(pts)); return err }},
	} {
		b.Run(bc.name, func(b *testing.B) {
			cpu0 := mltest.CPUTime()
			for b.Loop() {
				if err := bc.run(); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64((mltest.CPUTime()-cpu0).Microseconds())/1000/float64(b.N), "cpu-ms/run")
		})
	}
}
