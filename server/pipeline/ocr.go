package pipeline

import (
	"context"
	"errors"
	"math"
	"strings"

	"github.com/photoctl/photoctl/ingest/wordsplit"
	"github.com/photoctl/photoctl/server/catalog"
	"github.com/photoctl/photoctl/server/store"
	"github.com/photoctl/photoctl/server/tasks"
)

// OCR reads the text in an image's preview, or a video's poster frame,
// and stores it with its lines (boxes as fractions of the upright image,
// confidences) in the asset's text record (store.AssetTexts, which search
// indexes with the parts of its run-together words, wordsplit.Terms), with
// an asset.updated event (step "ocr", no API field) when it changed: a
// re-run that reads the same writes nothing (but the parts, when stored
// without or by another dictionary), and one on the rendering it read last
// time reads nothing. No text is an empty text.
// Without the ML runtime or models, or with ML off, it is skipped
// (tasks.Skip). Idempotent.
func (p *Pipeline) OCR(ctx context.Context, assetID string) error {
	if off := p.ocrOff(); off != "" {
		return tasks.Skip(off)
	}
	return p.settle(ctx, assetID, p.ocr(ctx, assetID))
}

func (p *Pipeline) ocr(ctx context.Context, id string) error {
	img, sum, err := p.unreadOf(ctx, id, KindOCR)
	if err != nil || img == nil {
		return err
	}
	read, err := p.d.ML.Text.ReadText(ctx, img)
	if err != nil {
		return mlFailure(err, "read text")
	}
	lines := make([]catalog.TextLine, len(read))
	texts := make([]string, len(read))
	for i, l := range read {
		lines[i] = catalog.TextLine{Text: l.Text, Score: l.Score,
			Box: catalog.BoundingBox{X: l.Box.X, Y: l.Box.Y, Width: l.Box.Width, Height: l.Box.Height}}
		texts[i] = l.Text
	}
	text := strings.Join(texts, "\n") // as the store joins them
	terms := wordsplit.Terms(text)
	return p.inAssetTx(ctx, id, func(r store.Repos) error {
		a, err := r.Assets().Get(ctx, id)
		if errors.Is(err, catalog.ErrNotFound) {
			return errVanished
		}
		if err != nil {
			return err
		}
		now := p.d.Now().UTC()
		if err := r.AssetTexts().PutRan(ctx, id, KindOCR, sum, now); err != nil {
			return err
		}
		old, err := r.AssetTexts().Get(ctx, id)
		if err != nil {
			return err
		}
		if old.OCRText != nil && sameLines(old.OCRLines, lines) {
			if old.OCRTerms == nil || *old.OCRTerms != terms { // not split yet, or by another dictionary
				_, err = r.AssetTexts().PutOCRTerms(ctx, id, *old.OCRText, terms)
			}
			return err
		}
		if err := r.AssetTexts().PutOCR(ctx, id, lines, terms, now); err != nil {
			return err
		}
		return mlEvent(ctx, r, "asset.updated", a.LibraryID, id,
			map[string]any{"fields": []string{}, "step": "ocr"}, now)
	})
}

// sameLines reports whether two readings are the same text in the same
// places.
func sameLines(a, b []catalog.TextLine) bool {
	if len(a) != len(b) {
		return false
	}
	close := func(x, y float64) bool { return math.Abs(x-y) <= sameBox }
	for i := range a {
		p, q := a[i], b[i]
		if p.Text != q.Text || !close(p.Score, q.Score) || !close(p.Box.X, q.Box.X) || !close(p.Box.Y, q.Box.Y) ||
			!close(p.Box.Width, q.Box.Width) || !close(p.Box.Height, q.Box.Height) {
			return false
		}
	}
	return true
}
