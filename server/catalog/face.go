package catalog

import (
	"math"
	"time"
)

// FaceSource says how a face was found.
type FaceSource string

// Face sources (decisions.md, "Assets"): detected by the face model, or
// drawn by a user.
const (
	FaceMachine FaceSource = "machine"
	FaceManual  FaceSource = "manual"
)

// BoundingBox locates a face as fractions (0..1) of its image's upright
// width and height: the top-left corner (X, Y) and the size.
type BoundingBox struct {
	X, Y, Width, Height float64
}

// boxSlack absorbs the rounding of decimal fractions, so a box whose
// corner plus size is 1 up to float error (0.7 + 0.3) is accepted.
const boxSlack = 1e-9

// Validate reports every way the box leaves the image or is empty, each
// located at loc followed by the field name ("x", "y", "width", "height").
func (b BoundingBox) Validate(loc ...any) error {
	var fields []FieldError
	bad := func(name, typ, msg string, v float64, ctx map[string]any) {
		fields = append(fields, FieldError{Loc: append(append([]any(nil), loc...), name), Msg: msg, Type: typ,
			Input: v, Ctx: ctx})
	}
	for _, c := range []struct {
		name string
		v    float64
	}{{"x", b.X}, {"y", b.Y}} {
		switch {
		case math.IsNaN(c.v) || math.IsInf(c.v, 0):
			bad(c.name, "finite_number", c.name+" must be a finite number", c.v, nil)
		case c.v < 0:
			bad(c.name, "greater_than_equal", c.name+" must be at least 0", c.v, map[string]any{"ge": 0})
		case c.v >= 1:
			bad(c.name, "less_than", c.name+" must be less than 1", c.v, map[string]any{"lt": 1})
		}
	}
	for _, c := range []struct {
		name, corner string
		v, start     float64
	}{{"width", "x", b.Width, b.X}, {"height", "y", b.Height, b.Y}} {
		switch {
		case math.IsNaN(c.v) || math.IsInf(c.v, 0):
			bad(c.name, "finite_number", c.name+" must be a finite number", c.v, nil)
		case c.v <= 0:
			bad(c.name, "greater_than", c.name+" must be greater than 0", c.v, map[string]any{"gt": 0})
		case c.start >= 0 && c.start+c.v > 1+boxSlack:
			bad(c.name, "value_error", c.corner+" + "+c.name+" must be at most 1: the box must lie within the image",
				c.v, map[string]any{"le": 1 - c.start})
		}
	}
	if len(fields) > 0 {
		return &ValidationError{Fields: fields}
	}
	return nil
}

// Face is a face in an asset: found by the face model or drawn by a user,
// and assigned to a person or not.
type Face struct {
	ID        string
	AssetID   string
	LibraryID string
	PersonID  *string
	Box       BoundingBox
	Source    FaceSource
	// Confidence is the detector's score, 0..1; nil for a manual face.
	Confidence *float64
	// TimestampMS is the position of the face in a video, in milliseconds.
	TimestampMS *int64
	// Embedding is the recognition model's vector, nil for a manual face.
	// It is never shown by the API.
	Embedding []byte
	// AssetMediaType is the media type of the face's asset (read only),
	// enough to address its renderings.
	AssetMediaType MediaType
	CreatedAt      time.Time
	UpdatedAt      time.Time
}
