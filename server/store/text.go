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
	// order; none is an empty text), keeping its describer.
	PutOCR(ctx context.Context, assetID string, lines []catalog.TextLine, now time.Time) error
	// PutDescriber records which describer wrote the asset's description,
	// keeping its text.
	PutDescriber(ctx context.Context, assetID, describer string, now time.Time) error
	// PutRan records that step read the rendering whose SHA-256 (hex) is
	// sum ("" forgets it), keeping the rest of the record.
	PutRan(ctx context.Context, assetID, step, sum string, now time.Time) error
}
