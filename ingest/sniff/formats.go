package sniff

import (
	"slices"
)

// format is one supported file format.
type format struct {
	mime    string
	kind    Kind
	ext     string   // the canonical extension
	aliases []string // other extensions the format goes by
}

// MIME types of the RAW formats, as Immich names them.
const (
	mimeCR2 = "image/x-canon-cr2"
	mimeCR3 = "image/x-canon-cr3"
	mimeRAF = "image/x-fuji-raf"
	mimeORF = "image/x-olympus-orf"
	mimeRW2 = "image/x-panasonic-rw2"
)

// formats is the supported set: the photos and videos.
var formats = []format{
	{"image/jpeg", Image, ".jpg", []string{".jpeg"}},
	{"image/png", Image, ".png", nil},
	{"image/webp", Image, ".webp", nil},
	{"image/gif", Image, ".gif", nil},
	{"image/heic", Image, ".heic", nil},
	{"image/heif", Image, ".heif", nil},
	{"image/avif", Image, ".avif", nil},
	{"image/tiff", Image, ".tiff", []string{".tif"}},
	{"image/x-adobe-dng", Image, ".dng", nil},
	{mimeCR2, Image, ".cr2", nil},
	{mimeCR3, Image, ".cr3", nil},
	{"image/x-nikon-nef", Image, ".nef", nil},
	{"image/x-sony-arw", Image, ".arw", nil},
	{mimeORF, Image, ".orf", nil},
	{mimeRW2, Image, ".rw2", nil},
	{mimeRAF, Image, ".raf", nil},
	{"image/x-pentax-pef", Image, ".pef", nil},
	{"image/x-samsung-srw", Image, ".srw", nil},
	{"video/mp4", Video, ".mp4", nil},
	{"video/quicktime", Video, ".mov", nil},
	{"video/x-m4v", Video, ".m4v", nil},
	{"video/x-matroska", Video, ".mkv", nil},
	{"video/webm", Video, ".webm", nil},
	{"video/x-msvideo", Video, ".avi", nil},
	{"video/3gpp", Video, ".3gp", nil},
}

// byMIME indexes formats by MIME type.
var byMIME = func() map[string]format {
	m := make(map[string]format, len(formats))
	for _, f := range formats {
		m[f.mime] = f
	}
	return m
}()

// tiffRAWByExt maps the extensions of RAW formats that are plain TIFF inside
// to their MIME types. ORF and RW2 have their own magic but some cameras
// write ordinary TIFF headers, so they are listed too; CR2 is usually caught
// by its marker first.
var tiffRAWByExt = map[string]string{
	".dng": "image/x-adobe-dng",
	".cr2": mimeCR2,
	".nef": "image/x-nikon-nef",
	".arw": "image/x-sony-arw",
	".orf": mimeORF,
	".rw2": mimeRW2,
	".pef": "image/x-pentax-pef",
	".srw": "image/x-samsung-srw",
}

// MediaTypes lists the supported file extensions, with their leading dots
// and sorted: images and videos. Aliases are included (".jpeg" beside
// ".jpg"). The slices are fresh on every call.
func MediaTypes() (images, videos []string) {
	for _, f := range formats {
		exts := append([]string{f.ext}, f.aliases...)
		if f.kind == Image {
			images = append(images, exts...)
		} else {
			videos = append(videos, exts...)
		}
	}
	slices.Sort(images)
	slices.Sort(videos)
	return images, videos
}
