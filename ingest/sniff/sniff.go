// Package sniff tells what an uploaded file is from its content: which of
// the supported photo and video formats, or none. The byte signatures come
// from github.com/gabriel-vasile/mimetype; this package narrows its answers
// to the formats photoctl accepts and adds the camera RAW formats it does
// not know.
package sniff

import (
	"bytes"
	"path/filepath"
	"strings"

	"github.com/gabriel-vasile/mimetype"
)

// Kind is the media kind of an asset.
type Kind string

// The two kinds of asset.
const (
	Image Kind = "image"
	Video Kind = "video"
)

// Result is what sniffing found: the MIME type, the kind and the canonical
// file extension (with its leading dot) of the format.
type Result struct {
	MIME string
	Kind Kind
	Ext  string
}

// minHead is the fewest bytes any supported file has; shorter input is
// rejected before any signature is tried (a 3-byte "\xff\xd8\xff" is not a
// JPEG, whatever a signature table says).
const minHead = 12

// Detect identifies a file from its first bytes (head, up to 8 KiB, may be
// shorter) and its name. The content decides: a file named .jpg whose bytes
// are PNG is PNG. The name is used only to tell apart formats whose bytes
// are alike — TIFF-based RAW files (.dng .cr2 .nef .arw .orf .rw2 .pef
// .srw), which without it are plain TIFF. RAF ("FUJIFILMCCD-RAW"), CR3
// (ISO-BMFF brand "crx "), CR2 (the "CR" marker), ORF and RW2 (their own
// TIFF variants) are recognised by content alone; HEIC, HEIF and AVIF by
// their ftyp brands. ok is false for anything not supported: text, HTML,
// SVG, PDF, archives, executables, audio, truncated or unknown data.
func Detect(head []byte, name string) (Result, bool) {
	if len(head) < minHead {
		return Result{}, false
	}
	if mime := rawByContent(head); mime != "" {
		return result(mime)
	}
	major, compat, isBMFF := ftypBrands(head)
	if isBMFF && major == "crx " {
		return result(mimeCR3)
	}
	switch mime := mimetype.Detect(head).String(); mime {
	case "image/jpeg":
		// A JPEG starts with SOI (FF D8) and then a marker, FF Cx..FE.
		if head[3] < 0xc0 {
			return Result{}, false
		}
		return result(mime)
	case "image/png", "image/vnd.mozilla.apng":
		return result("image/png")
	case "image/gif", "image/webp",
		"video/mp4", "video/quicktime", "video/x-m4v", "video/3gpp",
		"video/x-matroska", "video/webm", "video/x-msvideo":
		return result(mime)
	case "image/heic", "image/heic-sequence", "image/heif", "image/heif-sequence", "image/avif":
		if !isBMFF {
			return Result{}, false
		}
		return result(heifFamily(major, compat))
	case "image/tiff":
		if bytes.HasPrefix(head, []byte("II*\x00")) && bytes.Equal(head[8:12], []byte("CR\x02\x00")) {
			return result(mimeCR2)
		}
		if mime, ok := tiffRAWByExt[strings.ToLower(filepath.Ext(name))]; ok {
			return result(mime)
		}
		return result("image/tiff")
	}
	return Result{}, false
}

// result looks up a supported format by its MIME type.
func result(mime string) (Result, bool) {
	f, ok := byMIME[mime]
	if !ok {
		return Result{}, false
	}
	return Result{MIME: f.mime, Kind: f.kind, Ext: f.ext}, true
}
