package api

import "time"

// Stack is a stack record: its members (asset_ids, earliest capture first,
// trashed members included), its cover and how it was made (auto|manual).
type Stack struct {
	ID           string    `json:"id"`
	LibraryID    string    `json:"library_id"`
	CoverAssetID string    `json:"cover_asset_id"`
	AssetIDs     []string  `json:"asset_ids"`
	AssetCount   int       `json:"asset_count"`
	Source       string    `json:"source"`
	CreatedAt    time.Time `json:"created_at"`
	UpdatedAt    time.Time `json:"updated_at"`
}

// StackCreateRequest is the body of POST /api/stacks.
type StackCreateRequest struct {
	LibraryID    *string  `json:"library_id"`
	AssetIDs     []string `json:"asset_ids"`
	CoverAssetID *string  `json:"cover_asset_id"`
}

// StackUpdateRequest is the body of PATCH /api/stacks/{id}.
type StackUpdateRequest struct {
	CoverAssetID   *string  `json:"cover_asset_id"`
	AddAssetIDs    []string `json:"add_asset_ids"`
	RemoveAssetIDs []string `json:"remove_asset_ids"`
}
