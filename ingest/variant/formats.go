package variant

import (
	"strings"

	"github.com/davidbyttow/govips/v2/vips"
)

// format is how Render treats one MIME type.
type format struct {
	// loads are the libvips loaders (as govips names them) that may decode
	// it; the content must match one, so a PNG named .heic, or an SVG
	// passed off as anything, is refused before a loader runs.
	loads []vips.ImageType
	// fullsize is true for formats browsers do not show.
	fullsize bool
}

// formats lists the still-image MIME types photoctl accepts (see
// ingest/sniff) that libvips decodes here. GIF and WebP animations are
// rendered from their first frame.
var formats = map[string]format{
	"image/jpeg": {loads: []vips.ImageType{vips.ImageTypeJPEG}},
	"image/png":  {loads: []vips.ImageType{vips.ImageTypePNG}},
	"image/webp": {loads: []vips.ImageType{vips.ImageTypeWEBP}},
	"image/gif":  {loads: []vips.ImageType{vips.ImageTypeGIF}},
	"image/heic": {loads: heifTypes, fullsize: true},
	"image/heif": {loads: heifTypes, fullsize: true},
	"image/avif": {loads: heifTypes, fullsize: true},
	"image/tiff": {loads: []vips.ImageType{vips.ImageTypeTIFF}, fullsize: true},
}

// heifTypes: govips calls a file AVIF or HEIF by its major brand alone, and
// libheif decodes both.
var heifTypes = []vips.ImageType{vips.ImageTypeHEIF, vips.ImageTypeAVIF}

// isRAW reports whether mime is a camera RAW format (ingest/sniff names
// them image/x-<vendor>-<format>). libvips 8.14 has no RAW loader: its TIFF
// loader would read a TIFF-based RAW's first directory, a small thumbnail or
// undemosaiced sensor data, so RAW files are refused and the pipeline uses
// the preview the camera embedded.
func isRAW(mime string) bool {
	return strings.HasPrefix(mime, "image/x-")
}
