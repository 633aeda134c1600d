package ml

import (
	"context"
	"image"
)

// TextLine is one line of text read from an image.
type TextLine struct {
	Text string
	// Box bounds the line, axis-aligned, as fractions of the image.
	Box Box
	// Quad is the line's detected outline, clockwise from the top-left
	// corner as the text reads; it is tilted when the text is.
	Quad [4]Point
	// Score is the recogniser's mean confidence over the line's
	// characters, 0..1.
	Score float64
}

// TextReader reads the text in images. Implementations are safe for
// concurrent use, honour ctx while waiting and between model runs, and
// return ErrUnavailable (wrapped) when their models cannot run.
type TextReader interface {
	// ReadText returns the lines of text in img in reading order: top to
	// bottom, and left to right within a row. No text is an empty slice.
	ReadText(ctx context.Context, img image.Image) ([]TextLine, error)
}
