package store

import (
	"context"
	"time"

	"github.com/photoctl/photoctl/server/catalog"
)

// AssetTexts stores what the ML steps recorded about assets (the
// asset_text table): the text OCR read and which describer ran. A record
// goes with its asset. Search reads OCRText.
type AssetTexts interface {
	// Get returns the asset's record; ErrNotFound when no step recorded
	// anything yet.
	Get(ctx context.Context, assetID string) (*catalog.AssetText, error)
	// PutOCR sets the text read from an existing asset (lines in reading
	// order; none is an empty text) and the terms search also indexes for
	// it (catalog.AssetText.OCRTerms), keeping its describer.
	PutOCR(ctx context.Context, assetID string, lines []catalog.TextLine, terms string, now time.Time) error
	// PutOCRTerms sets the terms of the asset's text when its text is still
	// text (a text read again meanwhile keeps the terms written with it),
	// and reports whether it did. It leaves UpdatedAt: the terms are the
	// index's, not what the API shows.
	PutOCRTerms(ctx context.Context, assetID, text, terms string) (bool, error)
	// OCRTexts pages the records that hold a text (OCRText not nil), of
	// every library, in asset id order after the id after: AssetID,
	// OCRText and OCRTerms only. For the passes that split the texts
	// again (app/ocr_terms.go).
	OCRTexts(ctx context.Context, after string, limit int) ([]catalog.AssetText, error)
	// PutDescriber records which describer wrote the asset's description,
	// keeping its text.
	PutDescriber(ctx context.Context, assetID, describer string, now time.Time) error
	// PutRan records that step read the rendering whose SHA-256 (hex) is
	// sum ("" forgets it), keeping the rest of the record.
	PutRan(ctx context.Context, assetID, step, sum string, now time.Time) error
}
