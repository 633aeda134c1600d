package immich

// Asset is an asset as search results and albums list it.
type Asset struct {
	ID               string    `json:"id"`
	DeviceAssetID    string    `json:"deviceAssetId"`
	DeviceID         string    `json:"deviceId"`
	OwnerID          string    `json:"ownerId"`
	LibraryID        *string   `json:"libraryId"`
	Type             string    `json:"type"` // IMAGE or VIDEO
	OriginalPath     string    `json:"originalPath"`
	OriginalFileName string    `json:"originalFileName"`
	OriginalMimeType string    `json:"originalMimeType"`
	Thumbhash        *string   `json:"thumbhash"`
	FileCreatedAt    string    `json:"fileCreatedAt"`
	FileModifiedAt   string    `json:"fileModifiedAt"`
	LocalDateTime    string    `json:"localDateTime"`
	CreatedAt        string    `json:"createdAt"`
	UpdatedAt        string    `json:"updatedAt"`
	IsFavorite       bool      `json:"isFavorite"`
	IsArchived       bool      `json:"isArchived"`
	IsTrashed        bool      `json:"isTrashed"`
	IsOffline        bool      `json:"isOffline"`
	Visibility       string    `json:"visibility"`
	Duration         string    `json:"duration"`
	Checksum         string    `json:"checksum"`
	Rating           *int      `json:"rating"`
	ExifInfo         *ExifInfo `json:"exifInfo,omitempty"`
	LivePhotoVideoID *string   `json:"livePhotoVideoId"`
	StackCount       *int      `json:"stackCount"`
	DuplicateID      *string   `json:"duplicateId"`
	HasMetadata      bool      `json:"hasMetadata"`
	Resized          bool      `json:"resized"`
	Tags             []Tag     `json:"tags"`
	People           []any     `json:"people"`
}

// ExifInfo is the metadata block of an Asset.
type ExifInfo struct {
	Make             *string  `json:"make"`
	Model            *string  `json:"model"`
	ExifImageWidth   *int     `json:"exifImageWidth"`
	ExifImageHeight  *int     `json:"exifImageHeight"`
	FileSizeInByte   int64    `json:"fileSizeInByte"`
	Orientation      *string  `json:"orientation"`
	DateTimeOriginal *string  `json:"dateTimeOriginal"`
	ModifyDate       *string  `json:"modifyDate"`
	TimeZone         *string  `json:"timeZone"`
	LensModel        *string  `json:"lensModel"`
	FNumber          *float64 `json:"fNumber"`
	FocalLength      *float64 `json:"focalLength"`
	ISO              *float64 `json:"iso"`
	ExposureTime     *string  `json:"exposureTime"`
	Latitude         *float64 `json:"latitude"`
	Longitude        *float64 `json:"longitude"`
	City             *string  `json:"city"`
	State            *string  `json:"state"`
	Country          *string  `json:"country"`
	Description      string   `json:"description"`
	ProjectionType   *string  `json:"projectionType"`
	Rating           *int     `json:"rating"`
}

// SearchRequest is the body of POST /api/search/metadata, the filters the
// layer applies; other Immich filters are ignored (see docs/api.md).
type SearchRequest struct {
	Page          *PageNumber `json:"page"`
	Size          *int        `json:"size"`
	WithExif      *bool       `json:"withExif"`
	WithDeleted   *bool       `json:"withDeleted"`
	Visibility    *string     `json:"visibility"`
	Order         *string     `json:"order"`
	Type          *string     `json:"type"`
	IsFavorite    *bool       `json:"isFavorite"`
	IsTrashed     *bool       `json:"isTrashed"`
	TrashedAfter  *string     `json:"trashedAfter"`
	TrashedBefore *string     `json:"trashedBefore"`
}

// SearchResponse answers a metadata search. NextPage is a string of digits
// or null, never a number.
type SearchResponse struct {
	Assets SearchAssets `json:"assets"`
	Albums SearchAlbums `json:"albums"`
}

// SearchAssets is one page of a search.
type SearchAssets struct {
	Total    int     `json:"total"`
	Count    int     `json:"count"`
	Items    []Asset `json:"items"`
	Facets   []any   `json:"facets"`
	NextPage *string `json:"nextPage"`
}

// SearchAlbums is the (always empty) album part of a search answer.
type SearchAlbums struct {
	Total  int   `json:"total"`
	Count  int   `json:"count"`
	Items  []any `json:"items"`
	Facets []any `json:"facets"`
}

// Album is an album as GET and POST /api/albums answer it.
type Album struct {
	ID                         string  `json:"id"`
	AlbumName                  string  `json:"albumName"`
	Description                string  `json:"description"`
	OwnerID                    string  `json:"ownerId"`
	Owner                      User    `json:"owner"`
	AlbumThumbnailAssetID      *string `json:"albumThumbnailAssetId"`
	CreatedAt                  string  `json:"createdAt"`
	UpdatedAt                  string  `json:"updatedAt"`
	StartDate                  *string `json:"startDate"`
	EndDate                    *string `json:"endDate"`
	LastModifiedAssetTimestamp *string `json:"lastModifiedAssetTimestamp"`
	AssetCount                 int     `json:"assetCount"`
	Assets                     []Asset `json:"assets"`
	Shared                     bool    `json:"shared"`
	HasSharedLink              bool    `json:"hasSharedLink"`
	IsActivityEnabled          bool    `json:"isActivityEnabled"`
	Order                      string  `json:"order"`
	AlbumUsers                 []any   `json:"albumUsers"`
}

// CreateAlbumRequest is the body of POST /api/albums.
type CreateAlbumRequest struct {
	AlbumName   string   `json:"albumName"`
	Description *string  `json:"description"`
	AssetIDs    []string `json:"assetIds"`
	AlbumUsers  []any    `json:"albumUsers"`
}

// BulkIDs is the body of PUT /api/albums/{id}/assets.
type BulkIDs struct {
	IDs []string `json:"ids"`
}

// BulkIDResult is one id's outcome; Error is duplicate, not_found,
// no_permission or unknown.
type BulkIDResult struct {
	ID      string  `json:"id"`
	Success bool    `json:"success"`
	Error   *string `json:"error,omitempty"`
}
