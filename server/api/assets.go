package api

import "time"

// Asset is the spec's Asset record. Every field is always present; unknown
// values are null.
type Asset struct {
	ID               string         `json:"id"`
	LibraryID        string         `json:"library_id"`
	ContributorID    string         `json:"contributor_id"`
	DeviceAssetID    string         `json:"device_asset_id"`
	DeviceID         string         `json:"device_id"`
	MediaType        string         `json:"media_type"`
	MIMEType         string         `json:"mime_type"`
	OriginalFileName string         `json:"original_file_name"`
	FileCreatedAt    time.Time      `json:"file_created_at"`
	FileModifiedAt   time.Time      `json:"file_modified_at"`
	LocalDatetime    string         `json:"local_datetime"`
	Checksum         string         `json:"checksum"`
	ChecksumSHA1     *string        `json:"checksum_sha1"`
	CreatedAt        time.Time      `json:"created_at"`
	UpdatedAt        time.Time      `json:"updated_at"`
	Metadata         AssetMetadata  `json:"metadata"`
	Exif             AssetExif      `json:"exif"`
	Metrics          map[string]any `json:"metrics"`
	AssetURLs        AssetURLs      `json:"asset_urls"`
	Description      *string        `json:"description"`
	Faces            []Face         `json:"faces"`
	People           []Person       `json:"people"`
	Width            *int           `json:"width"`
	Height           *int           `json:"height"`
	FileSizeBytes    int64          `json:"file_size_bytes"`
	TrashedAt        *time.Time     `json:"trashed_at"`
	Stack            *AssetStack    `json:"stack"`
}

// AssetDetail is one asset as GET /api/assets/{id} returns it: the Asset
// and what only the one asset's read shows.
type AssetDetail struct {
	Asset
	// OCRText is the text the ocr step read in the picture, its lines in
	// reading order joined by newlines: null until the step ran, "" when it
	// found none.
	OCRText *string `json:"ocr_text"`
}

// AssetStack is set on every member of a stack: the stack, how many
// members listing it (stack_id=) in this asset's state shows, and its cover.
// Collapsed lists (stacks=collapse, the default) show the stack as its
// cover; expanded ones (stacks=expand) show every member, and a member is
// the cover when CoverAssetID is its own id.
type AssetStack struct {
	ID           string `json:"id"`
	AssetCount   int    `json:"asset_count"`
	CoverAssetID string `json:"cover_asset_id"`
}

// AssetURLs names the asset's renderings: images have all four, videos
// only the original.
type AssetURLs struct {
	Original  string  `json:"original"`
	Thumbnail *string `json:"thumbnail,omitempty"`
	Preview   *string `json:"preview,omitempty"`
	Fullsize  *string `json:"fullsize,omitempty"`
}

// MetadataCommon holds the fields shared by metadata and exif.
type MetadataCommon struct {
	AssetID   string `json:"asset_id"`
	CreatedAt string `json:"created_at"`
	UpdatedAt string `json:"updated_at"`
	MetadataValues
}

// MetadataValues are the metadata fields proper.
type MetadataValues struct {
	Make              *string  `json:"make"`
	Model             *string  `json:"model"`
	Orientation       *float64 `json:"orientation"`
	ModifiedDatetime  *string  `json:"modified_datetime"`
	OriginalDatetime  *string  `json:"original_datetime"`
	DigitizedDatetime *string  `json:"digitized_datetime"`
	LensModel         *string  `json:"lens_model"`
	FNumber           *float64 `json:"f_number"`
	FocalLength       *float64 `json:"focal_length"`
	ISO               *float64 `json:"iso"`
	ExposureTime      *float64 `json:"exposure_time"`
	ExposureBias      *float64 `json:"exposure_bias"`
	Latitude          *float64 `json:"latitude"`
	Longitude         *float64 `json:"longitude"`
	Altitude          *float64 `json:"altitude"`
	City              *string  `json:"city"`
	State             *string  `json:"state"`
	Country           *string  `json:"country"`
	Description       *string  `json:"description"`
	FPS               *float64 `json:"fps"`
	LivePhotoCID      *string  `json:"live_photo_cid"`
	ProjectionType    *string  `json:"projection_type"`
	AutoStackID       *string  `json:"auto_stack_id"`
	Rating            *float64 `json:"rating"`
}

// NewMetadataCommon builds the shared part of metadata and exif.
func NewMetadataCommon(assetID, createdAt, updatedAt string, v MetadataValues) MetadataCommon {
	return MetadataCommon{AssetID: assetID, CreatedAt: createdAt, UpdatedAt: updatedAt, MetadataValues: v}
}

// AssetMetadata is the merged metadata view (file, geocoding, user edits).
type AssetMetadata struct {
	MetadataCommon
	CountryCode  *string `json:"country_code"`
	Sublocation  *string `json:"sublocation"`
	PlaceName    *string `json:"place_name"`
	Timezone     *string `json:"timezone"`
	DisplayLabel *string `json:"display_label"`
}

// AssetExif is the deprecated alias of AssetMetadata: the same values
// without the place fields, plus profile_description.
type AssetExif struct {
	MetadataCommon
	ProfileDescription *string `json:"profile_description"`
}

// UploadDuplicate is the 200 body of an upload whose content the library
// already holds.
type UploadDuplicate struct {
	ID     string `json:"id"`
	Status string `json:"status"`
}

// AssetIDs is the body of trash, restore and delete.
type AssetIDs struct {
	IDs []string `json:"ids"`
}

// AssetsDeleted is the 200 body of DELETE /api/assets.
type AssetsDeleted struct {
	Deleted []string `json:"deleted"`
}

// ChecksumCheckRequest is the body of POST /api/assets/check.
type ChecksumCheckRequest struct {
	LibraryID *string  `json:"library_id"`
	Checksums []string `json:"checksums"`
}

// ChecksumCheck answers one checksum.
type ChecksumCheck struct {
	Checksum string  `json:"checksum"`
	AssetID  *string `json:"asset_id"`
}

// ChecksumCheckResponse is the 200 body of POST /api/assets/check.
type ChecksumCheckResponse struct {
	Data []ChecksumCheck `json:"data"`
}

// AssetChange is one asset's metadata edit: an absent field stays, null
// clears the user's value.
type AssetChange struct {
	Description      Optional[string]  `json:"description"`
	Latitude         Optional[float64] `json:"latitude"`
	Longitude        Optional[float64] `json:"longitude"`
	OriginalDatetime Optional[string]  `json:"original_datetime"`
	Rating           Optional[int]     `json:"rating"`
}

// Clear makes the change clear field, so the file's own value shows
// again: rating, description, location (both coordinates) or
// original_datetime. It reports whether field is one of them (the CLI's
// --clear and the MCP edit tool share it).
func (c *AssetChange) Clear(field string) bool {
	switch field {
	case "rating":
		c.Rating = Optional[int]{Set: true}
	case "description":
		c.Description = Optional[string]{Set: true}
	case "location":
		c.Latitude, c.Longitude = Optional[float64]{Set: true}, Optional[float64]{Set: true}
	case "original_datetime":
		c.OriginalDatetime = Optional[string]{Set: true}
	default:
		return false
	}
	return true
}

// AssetUpdate is one item of a bulk update.
type AssetUpdate struct {
	ID     string      `json:"id"`
	Change AssetChange `json:"change"`
}

// BulkUpdateRequest is the body of POST /api/assets/bulk-update.
type BulkUpdateRequest struct {
	Updates []AssetUpdate `json:"updates"`
}

// Empty is the `{}` body of operations that return nothing else.
type Empty struct{}
