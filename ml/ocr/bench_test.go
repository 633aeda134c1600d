package ocr

import (
	"context"
	"fmt"
	"image"
	"testing"

	"golang.org/x/image/font/gofont/goregular"

	"github.com/photoctl/photoctl/ml/internal/mltest"
)

// BenchmarkReadText reads a 1440×1080 picture (the size of a preview)
// holding twelve lines of rendered text, and reports lines per
// CPU-second, i.e. per core: the figure docs/ml.md records.
func BenchmarkReadText(b *testing.B) {
	var lines []drawn
	for i := range 12 {
		lines = append(lines, drawn{fmt.Sprintf("Line %d of the benchmark page, 2025-06-%02d", i+1, i+1), 30, image.Pt(60, 80+i*80), goregular.TTF})
	}
	img := render(b, 1440, 1080, lines)
	r := newReader(b)
	ctx := context.Background()
	var read int
	b.ResetTimer()
	cpu0 := mltest.CPUTime()
	for b.Loop() {
		got, err := r.ReadText(ctx, img)
		if err != nil {
			b.Fatal(err)
		}
		read += len(got)
	}
	cpu := (mltest.CPUTime() - cpu0).Seconds()
	b.ReportMetric(float64(read)/float64(b.N), "lines/op")
	b.ReportMetric(float64(read)/cpu, "lines/cpu-s")
}
