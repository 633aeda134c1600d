// Package describe writes the description of a photo or video that the
// API shows as an asset's top-level `description`: what it shows (people,
// text, place, time of day), its quality (sharpness, exposure) and its
// composition (orientation, where the people are, close-ups).
//
// Two Describers: Builtin composes a sentence from the signals the other
// steps computed, offline and deterministically; OpenAI asks a vision
// model behind an OpenAI-compatible chat-completions endpoint (OpenAI,
// Ollama, llama.cpp's server, vLLM) about the preview image.
//
// Like the rest of ml, it never imports server packages: the pipeline
// gathers the Input.
package describe

import (
	"context"
	"time"

	"github.com/photoctl/photoctl/ml"
)

// Describer describes assets. Implementations are safe for concurrent use.
type Describer interface {
	// Name says which describer wrote a description, as recorded beside
	// it: "builtin", or "openai:" and the model.
	Name() string
	// Describe returns the description of the asset in. An empty string
	// means the model refused to describe it (a stored answer, not a
	// failure); an error means it could not answer now (a network or
	// server error) and the caller may try again later.
	Describe(ctx context.Context, in Input) (string, error)
}

// Input is what is known about an asset when it is described.
type Input struct {
	// Image is the asset's preview (a video's poster frame), encoded as
	// ImageType ("image/webp", "image/jpeg"); nil when there is none.
	Image     []byte
	ImageType string
	// Video is true for a video (its Image is a frame of it).
	Video bool
	// Width and Height are the upright size in pixels; 0 when unknown.
	Width, Height int
	// Faces are the faces in the image, with their people's names.
	Faces []Face
	// Text is the text read in the image, one line per line; "" for none.
	Text string
	// Place names where it was taken ("Paris, France"); "" when unknown.
	Place string
	// Taken is the local wall-clock time it was taken, as if in UTC
	// (10:00 in Paris is 10:00Z); the zero time when unknown.
	Taken time.Time
	// Sharpness and Exposure are the quality metrics (0..1, see
	// ingest/metrics); nil when not measured.
	Sharpness, Exposure *float64
}

// Face is a face in the image: where it is and whose it is.
type Face struct {
	Box ml.Box
	// Name is the name of the face's person; "" when the face has no
	// person or the person no name.
	Name string
}
