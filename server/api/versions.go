package api

import "time"

// Version is one rendering of an asset: the original (is_original) or an
// edited version appended later. Exactly one version of an asset is
// current; the asset's file_size_bytes is the current one's size.
type Version struct {
	ID            string    `json:"id"`
	AssetID       string    `json:"asset_id"`
	IsOriginal    bool      `json:"is_original"`
	IsCurrent     bool      `json:"is_current"`
	MIMEType      string    `json:"mime_type"`
	FileName      string    `json:"file_name"`
	FileSizeBytes int64     `json:"file_size_bytes"`
	Checksum      string    `json:"checksum"`
	ContributorID string    `json:"contributor_id"`
	FileURL       string    `json:"file_url"`
	CreatedAt     time.Time `json:"created_at"`
	UpdatedAt     time.Time `json:"updated_at"`
}
