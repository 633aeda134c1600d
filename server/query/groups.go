package query

// AlbumFilter narrows a library's album list.
type AlbumFilter struct {
	LibraryID string
	// AssetID keeps the albums that show this asset (a live member).
	AssetID string
}

// AlbumAssetFilter narrows a library's album-asset links. Zero fields do
// not filter.
type AlbumAssetFilter struct {
	LibraryID string
	AlbumID   string
	AssetID   string
	IDs       []string
}

// StackFilter narrows a library's stack list.
type StackFilter struct {
	LibraryID string
}

// PersonFilter narrows a library's people list. Zero fields do not filter.
type PersonFilter struct {
	LibraryID string
	IDs       []string
	// Name keeps people whose name holds this text, case-insensitively.
	Name string
	// Named keeps named people (true) or unnamed ones (false).
	Named *bool
	// AssetID keeps people with a face in this asset.
	AssetID string
	// AlbumID keeps people with a face in a live asset of this album.
	AlbumID string
	// IncludeUnverified adds machine clusters below the clustering minimum.
	IncludeUnverified bool
}

// FaceFilter narrows a library's face list. Zero fields do not filter.
type FaceFilter struct {
	LibraryID string
	AssetID   string
	PersonID  string
	IDs       []string
}
