package pipeline_test

import (
	"fmt"
	"testing"
	"time"

	"github.com/photoctl/photoctl/server/catalog"
	"github.com/photoctl/photoctl/server/pipeline"
	"github.com/photoctl/photoctl/server/query"
	"github.com/photoctl/photoctl/server/store"
)

// BenchmarkSplitOCRTexts runs the split pass over 3,000 OCR texts of a
// seeded library (sign texts, half of them with a run-together word),
// stored without terms as before migration 0020: the first pass, reported
// as ms/written (per text it wrote), then each op a pass of a new version
// that finds every text's terms current (us/text-current), as every
// dictionary change's pass does for most texts.
func BenchmarkSplitOCRTexts(b *testing.B) {
	const n = 3000
	e, lib := seededEnv(b, n)
	f := query.AssetFilter{LibraryID: lib, State: query.StateAll, WithStacked: true}
	pg := query.Page{Limit: 500}
	i := 0
	for {
		list, more, err := e.st.Read().Assets().List(e.ctx, f, pg)
		if err != nil {
			b.Fatal(err)
		}
		err = e.st.InTx(e.ctx, func(r store.Repos) error {
			for _, a := range list {
				sign := "OPEN DAILY 7AM - 8PM\nFresh bread and coffee"
				if i++; i%2 == 0 {
					sign = "HARVESTMOONBAKERY\nOPEN DAILY 7AM - 8PM\nNOPARKING AT ALLTIMES"
				}
				// "" is a pass's to write as nil is: both differ from the
				// terms of a text that splits.
				if err := r.AssetTexts().PutOCR(e.ctx, a.ID, []catalog.TextLine{{Text: sign}}, "x", time.Now()); err != nil {
					return err
				}
			}
			return nil
		})
		if err != nil {
			b.Fatal(err)
		}
		if !more || len(list) == 0 {
			break
		}
		pg.AfterID = list[len(list)-1].ID
	}
	start := time.Now()
	written, err := pipeline.SplitOCRTexts(e.ctx, e.st, "v0", time.Now())
	if err != nil || written != n {
		b.Fatalf("first pass: %d written of %d: %v", written, n, err)
	}
	first := time.Since(start)
	v := 0
	for b.Loop() {
		v++
		if written, err := pipeline.SplitOCRTexts(e.ctx, e.st, fmt.Sprint("v", v), time.Now()); err != nil || written != 0 {
			b.Fatalf("%d written: %v", written, err)
		}
	}
	b.ReportMetric(float64(b.Elapsed().Microseconds())/float64(b.N)/n, "us/text-current")
	// After the loop: ResetTimer, which b.Loop calls, drops reported metrics.
	b.ReportMetric(float64(first.Microseconds())/1000/float64(written), "ms/written")
}
