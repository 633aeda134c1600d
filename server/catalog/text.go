package catalog

import "time"

// TextLine is one line of text read from an asset's image by OCR.
type TextLine struct {
	Text string
	// Box bounds the line as fractions of the upright image.
	Box BoundingBox
	// Score is the recogniser's confidence, 0..1.
	Score float64
}

// AssetText is what the ML steps recorded about an asset beside its row:
// the text OCR read and which describer wrote Asset.Description.
type AssetText struct {
	AssetID string
	// OCRText is the lines' text joined by newlines in reading order: nil
	// until OCR ran, "" when it found none.
	OCRText  *string
	OCRLines []TextLine
	// OCRTerms are the words search also finds the text by: the parts of
	// its run-together words ("NOPARKING": "no parking"), space-separated;
	// "" when none splits, nil until split (ingest/wordsplit). Not shown.
	OCRTerms *string
	// Describer names the describer that wrote the description ("builtin",
	// "openai:<model>"); nil until one ran.
	Describer *string
	// Ran maps the steps that read the asset's rendering ("faces", "ocr")
	// to the SHA-256 (hex) of the rendering they last read.
	Ran       map[string]string
	UpdatedAt time.Time
}
