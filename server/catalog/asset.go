package catalog

import "time"

// MediaType is the kind of an asset.
type MediaType string

// Media types.
const (
	MediaImage MediaType = "image"
	MediaVideo MediaType = "video"
)

// Metadata is one layer of asset metadata: the file's own (exiftool), the
// reverse-geocoding result, or the user's edits. A nil field is absent from
// the layer; the merged view takes each field from the highest layer that
// has it (user > geocoding > file).
type Metadata struct {
	Make, Model                        *string
	Orientation                        *float64
	ModifiedDatetime, OriginalDatetime *string
	DigitizedDatetime                  *string
	LensModel                          *string
	FNumber, FocalLength, ISO          *float64
	ExposureTime, ExposureBias         *float64
	Latitude, Longitude, Altitude      *float64
	City, State, Country, CountryCode  *string
	Sublocation, PlaceName, Timezone   *string
	DisplayLabel                       *string
	Description                        *string
	FPS                                *float64
	LivePhotoCID                       *string
	ProjectionType                     *string
	AutoStackID                        *string
	Rating                             *float64
	ProfileDescription                 *string
	// CaptureSource, SerialNumber and BurstID are the file layer's camera
	// evidence for burst detection, not shown by the API. CaptureSource
	// names the tag the capture time came from ("DateTimeOriginal",
	// "CreationDate", "CreateDate", "creation_time") or CaptureFromFile
	// when the file recorded none; nil means the file was read by a
	// version that did not record it.
	CaptureSource, SerialNumber, BurstID *string
}

// CaptureFromFile is Metadata.CaptureSource when no capture tag was found
// and the capture time is the upload's file time.
const CaptureFromFile = "file"

// Asset is a photo or video in a library.
type Asset struct {
	ID               string
	LibraryID        string
	ContributorID    string
	DeviceAssetID    string
	DeviceID         string
	MediaType        MediaType
	MIMEType         string
	OriginalFileName string
	FileCreatedAt    time.Time
	FileModifiedAt   time.Time
	Capture          CaptureTime
	Checksum         []byte // SHA-256 of the original
	ChecksumSHA1     []byte // SHA-1 of the original; nil for older assets
	Width, Height    *int
	OriginalSize     int64
	FileSizeBytes    int64 // size of the current rendering
	CurrentVersionID *string
	// Layers of metadata; Merged() gives the view the API shows.
	FileMeta, GeoMeta, UserMeta Metadata
	Metrics                     map[string]any
	// Description is the AI-generated one: nil = not run, "" = refused.
	Description *string
	// StackID names the asset's stack. Only the stack store writes it
	// (asset writes leave it alone); StackSize (the stack's members in the
	// asset's own state, live or trashed: what listing the stack in that
	// state shows), StackSource and StackCoverID (the stack's cover, which
	// collapsed lists show for it) are read with it.
	StackID      *string
	StackSize    int
	StackSource  StackSource
	StackCoverID string
	TrashedAt    *time.Time
	CreatedAt    time.Time
	UpdatedAt    time.Time
}

// OriginalKey is the blob key of the original file of asset id.
func OriginalKey(id string) string { return "originals/" + id }
