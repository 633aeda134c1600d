package metrics_test

import (
	"image"
	"image/draw"
	"testing"

	"github.com/photoctl/photoctl/ingest/metrics"
)

// BenchmarkMetrics computes every metric on what the pipeline passes, the
// preview's 512 px sample (NRGBA, as ingest/variant decodes it), and on a
// whole 1440 px preview, which is reduced first.
func BenchmarkMetrics(b *testing.B) {
	for name, size := range map[string]image.Point{"sample-512": {512, 384}, "preview-1440": {1440, 1080}} {
		src := noisy(render(size.X, size.Y, landscape), 2, 1)
		img := image.NewNRGBA(src.Bounds())
		draw.Draw(img, img.Bounds(), src, image.Point{}, draw.Src)
		b.Run(name, func(b *testing.B) {
			for b.Loop() {
				metrics.Compute(img)
			}
		})
	}
}
