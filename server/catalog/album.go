package catalog

import "time"

// Album is a user-curated collection of a library's assets. Album names are
// unique within a library (compared as NameKey).
type Album struct {
	ID          string
	LibraryID   string
	Name        string
	Description string
	// CoverAssetID is the cover the user chose; nil lets the album pick one
	// (see Cover). A chosen cover is always a member: removing it from the
	// album clears it.
	CoverAssetID *string
	CreatedAt    time.Time
	UpdatedAt    time.Time

	// Derived on every read from the album's live (not trashed) members, so
	// they follow additions, removals, trash, restore, deletion and capture
	// time edits without being written.

	// AssetCount counts the live members.
	AssetCount int
	// StartDate and EndDate are the earliest and latest capture times of the
	// live members (by wall clock); nil when the album shows no asset.
	StartDate, EndDate *CaptureTime
	// Cover is the cover shown: the chosen one while it is live, else the
	// most recently captured live member; nil when the album shows no asset.
	Cover *AlbumCover
}

// AlbumCover names the asset an album shows as its cover.
type AlbumCover struct {
	AssetID   string
	MediaType MediaType
}

// AlbumAsset is the link between an album and one of its assets. An asset
// is linked to an album at most once; links go with the album or the asset.
type AlbumAsset struct {
	ID        string
	AlbumID   string
	AssetID   string
	LibraryID string
	CreatedAt time.Time
	UpdatedAt time.Time
}
