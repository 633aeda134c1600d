package api

import "time"

// Album is an album record. asset_count, start_date, end_date and the cover
// are derived from the album's live (not trashed) members.
type Album struct {
	ID          string `json:"id"`
	LibraryID   string `json:"library_id"`
	Name        string `json:"name"`
	Description string `json:"description"`
	AssetCount  int    `json:"asset_count"`
	// CoverAssetID is the cover shown: the chosen one while it is live,
	// else the most recently captured live member; null for an empty album.
	CoverAssetID  *string `json:"cover_asset_id"`
	AlbumCoverURL *string `json:"album_cover_url"`
	// StartDate and EndDate are the earliest and latest member capture
	// times, formatted as local_datetime.
	StartDate *string   `json:"start_date"`
	EndDate   *string   `json:"end_date"`
	CreatedAt time.Time `json:"created_at"`
	UpdatedAt time.Time `json:"updated_at"`
}

// AlbumCreateRequest is the body of POST /api/albums (a named create).
type AlbumCreateRequest struct {
	LibraryID   *string `json:"library_id"`
	Name        string  `json:"name"`
	Description *string `json:"description"`
}

// AlbumUpdateRequest is the body of PATCH /api/albums/{id}: an absent field
// stays; a null description empties it.
type AlbumUpdateRequest struct {
	Name        Optional[string] `json:"name"`
	Description Optional[string] `json:"description"`
}

// AlbumAssetsRequest is the body of POST and DELETE /api/albums/{id}/assets.
type AlbumAssetsRequest struct {
	AssetIDs []string `json:"asset_ids"`
}

// AlbumCoverRequest is the body of PUT /api/albums/{id}/cover: a member's
// id, or null for the automatic cover.
type AlbumCoverRequest struct {
	AssetID Optional[string] `json:"asset_id"`
}

// AlbumAsset is the link record between an album and an asset.
type AlbumAsset struct {
	ID        string    `json:"id"`
	AlbumID   string    `json:"album_id"`
	AssetID   string    `json:"asset_id"`
	CreatedAt time.Time `json:"created_at"`
	UpdatedAt time.Time `json:"updated_at"`
}
