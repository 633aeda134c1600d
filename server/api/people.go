package api

import "time"

// Person is the spec's Person record. name and birth_date are null when
// unknown; thumbnail_face_id, thumbnail_face_url and asset_urls (the
// renderings of the featured face's asset) are null while the person has
// no face.
type Person struct {
	ID               string     `json:"id"`
	LibraryID        string     `json:"library_id"`
	Name             *string    `json:"name"`
	BirthDate        *string    `json:"birth_date"`
	IsHidden         bool       `json:"is_hidden"`
	IsFavorite       bool       `json:"is_favorite"`
	AssetCount       int        `json:"asset_count"`
	ThumbnailFaceID  *string    `json:"thumbnail_face_id"`
	ThumbnailFaceURL *string    `json:"thumbnail_face_url"`
	AssetURLs        *AssetURLs `json:"asset_urls"`
	CreatedAt        time.Time  `json:"created_at"`
	UpdatedAt        time.Time  `json:"updated_at"`
}

// BoundingBox is a face's box as fractions (0..1) of the upright image:
// the top-left corner and the size.
type BoundingBox struct {
	X      float64 `json:"x"`
	Y      float64 `json:"y"`
	Width  float64 `json:"width"`
	Height float64 `json:"height"`
}

// Face is the spec's Face record. source is machine or manual; confidence
// is null for a manual face; timestamp_ms is set for faces in videos.
type Face struct {
	ID           string      `json:"id"`
	AssetID      string      `json:"asset_id"`
	LibraryID    string      `json:"library_id"`
	PersonID     *string     `json:"person_id"`
	BoundingBox  BoundingBox `json:"bounding_box"`
	Source       string      `json:"source"`
	Confidence   *float64    `json:"confidence"`
	TimestampMS  *int64      `json:"timestamp_ms"`
	ThumbnailURL string      `json:"thumbnail_url"`
	AssetURLs    AssetURLs   `json:"asset_urls"`
	CreatedAt    time.Time   `json:"created_at"`
	UpdatedAt    time.Time   `json:"updated_at"`
}

// PersonCreateRequest is the body of POST /api/people (a named create).
// Optional fields that are sent must agree with an existing person of the
// same name, else 409.
type PersonCreateRequest struct {
	Name       string  `json:"name"`
	LibraryID  *string `json:"library_id,omitempty"`
	BirthDate  *string `json:"birth_date,omitempty"`
	IsHidden   *bool   `json:"is_hidden,omitempty"`
	IsFavorite *bool   `json:"is_favorite,omitempty"`
}

// PersonUpdateRequest is the body of PATCH /api/people/{id}. name and
// birth_date may be null (cleared); the others may not.
type PersonUpdateRequest struct {
	Name            Optional[string] `json:"name"`
	BirthDate       Optional[string] `json:"birth_date"`
	IsHidden        Optional[bool]   `json:"is_hidden"`
	IsFavorite      Optional[bool]   `json:"is_favorite"`
	ThumbnailFaceID Optional[string] `json:"thumbnail_face_id"`
}

// PersonMergeRequest is the body of POST /api/people/{id}/merge: the people
// (1 to 100) whose faces move to {id} and who are then deleted.
type PersonMergeRequest struct {
	IDs []string `json:"ids"`
}

// PersonReassignRequest is the body of POST /api/people/{id}/reassign: the
// faces (1 to 100) to give to {id}.
type PersonReassignRequest struct {
	FaceIDs []string `json:"face_ids"`
}

// BoundingBoxInput is a face box in a request; every field is required.
type BoundingBoxInput struct {
	X      *float64 `json:"x"`
	Y      *float64 `json:"y"`
	Width  *float64 `json:"width"`
	Height *float64 `json:"height"`
}

// FaceCreateRequest is the body of POST /api/faces (a manual face).
type FaceCreateRequest struct {
	AssetID     string            `json:"asset_id"`
	BoundingBox *BoundingBoxInput `json:"bounding_box"`
	PersonID    *string           `json:"person_id,omitempty"`
	TimestampMS *int64            `json:"timestamp_ms,omitempty"`
	LibraryID   *string           `json:"library_id,omitempty"`
}
