package ml

import (
	"context"
	"image"
	"math"
)

// EmbeddingSize is the length of a face Embedding.
const EmbeddingSize = 512

// Face is a face in an image: where it is, how sure the detector is, its
// 68 landmarks (the iBUG 300-W layout: jaw 0–16, brows 17–26, nose 27–35,
// eyes 36–47, mouth 48–67), all as fractions of the image, and who it is.
type Face struct {
	Box Box
	// Score is the detector's confidence, 0..1; 1 for a face located in a
	// box that a person drew (FaceAnalyzer.LocateFace).
	Score     float64
	Landmarks [68]Point
	// Embedding is nil until the face is embedded.
	Embedding Embedding
}

// Points5 returns the five points faces are aligned on: the centres of
// the left and right eye (as seen in the picture), the nose tip and the
// left and right mouth corners.
func (f Face) Points5() [5]Point {
	mean := func(idx ...int) Point {
		var p Point
		for _, i := range idx {
			p.X += f.Landmarks[i].X
			p.Y += f.Landmarks[i].Y
		}
		return Point{X: p.X / float64(len(idx)), Y: p.Y / float64(len(idx))}
	}
	return [5]Point{
		mean(36, 37, 38, 39, 40, 41),
		mean(42, 43, 44, 45, 46, 47),
		f.Landmarks[30],
		mean(48, 60),
		mean(54, 64),
	}
}

// Embedding is a face's identity vector: EmbeddingSize numbers of unit
// length. Faces of one person point the same way; compare with Cosine.
type Embedding []float32

// Cosine returns the cosine similarity of two embeddings, -1..1 (their
// dot product, as both have unit length). Unequal lengths give 0.
func (e Embedding) Cosine(o Embedding) float64 {
	if len(e) != len(o) {
		return 0
	}
	var dot float64
	for i := range e {
		dot += float64(e[i]) * float64(o[i])
	}
	return math.Max(-1, math.Min(1, dot))
}

// FaceAnalyzer finds faces and tells people apart. Implementations are
// safe for concurrent use and bound how many model runs go at once; every
// method honours ctx while it waits and between model runs, and returns
// ErrUnavailable (wrapped) when its models cannot run.
//
// Embeddings: the same face in another photo — scaled, mirrored, cropped —
// embeds close by; different people stay apart (the implementation says
// which Cosine separates them).
type FaceAnalyzer interface {
	// DetectFaces returns the faces in img with their embeddings, highest
	// score first, after discarding detections whose landmarks are not
	// those of a human face. No face is an empty slice, not an error.
	DetectFaces(ctx context.Context, img image.Image) ([]Face, error)
	// LocateFace fits landmarks to the face in box, a box drawn by a
	// person rather than found by the detector, and embeds it.
	LocateFace(ctx context.Context, img image.Image, box Box) (Face, error)
}
