// Package variant renders the derived images of a photo with libvips: a
// thumbnail (250 px on the long side), a preview (1440 px) and, for formats
// browsers do not show (HEIC, HEIF, AVIF, TIFF, RAW), a fullsize copy in a
// browser format. Every variant is upright (EXIF orientation applied), in
// sRGB and without metadata. The original is decoded once, with
// shrink-on-load; the thumbnail and the small sample the quality metrics
// read are made from the encoded preview.
//
// Rendering is a pure function of the original's bytes and the Config, so
// variants can be deleted and made again. The package returns bytes; the
// caller stores them (atomically) wherever it keeps variants.
//
// It needs libvips 8.10 or later with its headers at build time (Debian:
// libvips-dev, which brings libheif for HEIC/AVIF) and is the only importer
// of github.com/davidbyttow/govips in the module.
package variant

import (
	"errors"
	"fmt"
	"image"
	"runtime"
)

// The long side, in pixels, of each variant. Images smaller than a size are
// never enlarged.
const (
	ThumbnailSize = 250
	PreviewSize   = 1440
	// SampleSize is the long side of Result.Sample, the pixels the quality
	// metrics are computed on.
	SampleSize = 512
)

// Output formats for Config.Format.
const (
	FormatWebP = "webp"
	FormatJPEG = "jpeg"
)

// webpMaxSide is the largest width or height a WebP image can have; a
// fullsize of a larger original is written as JPEG.
const webpMaxSide = 16383

// ErrUnsupported is wrapped by the error Render returns for a file it cannot
// decode: a MIME type that is not a still image, content libvips does not
// recognise as that type, or a camera RAW format this libvips cannot load
// (the pipeline then falls back to the preview embedded in the RAW file).
var ErrUnsupported = errors.New("unsupported image format")

// ErrTooLarge is wrapped by the error Render returns for an image whose
// header declares more pixels than Config.MaxPixels (a decompression bomb,
// or simply too big). Nothing is decoded.
var ErrTooLarge = errors.New("image too large")

// ErrTruncated is wrapped by the error Render returns for a JPEG or PNG
// that ends before its image does (an interrupted copy or download).
// libvips would render the part that is there and fill the rest with grey;
// a thumbnail that looks right at a glance but is half grey is worse than
// none, so the file is refused and stays downloadable as it is.
var ErrTruncated = errors.New("the file ends before its image does")

// ErrClosed is returned by Render after Close.
var ErrClosed = errors.New("renderer closed")

// Config tunes a Renderer. The zero value of a field means its default.
type Config struct {
	// Concurrency is how many Render calls decode at once; more wait.
	// Default: the number of CPUs.
	Concurrency int
	// MaxPixels is the largest width×height accepted, checked on the
	// header before any pixel is decoded. Default: 100,000,000. A fullsize
	// holds about 4 bytes a pixel while it is encoded, so MaxPixels ×
	// Concurrency × 4 bounds that memory.
	MaxPixels int64
	// Quality is the encoder quality, 1..100. Default: 82.
	Quality int
	// Format is the variants' format: FormatWebP (default) or FormatJPEG.
	Format string
}

// withDefaults returns c with zero fields set to their defaults.
func (c Config) withDefaults() Config {
	if c.Concurrency == 0 {
		c.Concurrency = runtime.NumCPU()
	}
	if c.MaxPixels == 0 {
		c.MaxPixels = 100_000_000
	}
	if c.Quality == 0 {
		c.Quality = 82
	}
	if c.Format == "" {
		c.Format = FormatWebP
	}
	return c
}

// Validate reports the first field of c (after defaults) that is out of
// range.
func (c Config) Validate() error {
	c = c.withDefaults()
	switch {
	case c.Concurrency < 1:
		return fmt.Errorf("variant concurrency %d: must be at least 1", c.Concurrency)
	case c.MaxPixels < 1:
		return fmt.Errorf("variant max pixels %d: must be at least 1", c.MaxPixels)
	case c.Quality < 1 || c.Quality > 100:
		return fmt.Errorf("variant quality %d: must be 1..100", c.Quality)
	case c.Format != FormatWebP && c.Format != FormatJPEG:
		return fmt.Errorf("variant format %q: must be %q or %q", c.Format, FormatWebP, FormatJPEG)
	}
	return nil
}

// Result is what Render made from one original.
type Result struct {
	// Thumbnail and Preview are encoded in Config.Format; their file
	// extension, with its dot, is Ext (".webp" or ".jpg").
	Thumbnail []byte
	Preview   []byte
	Ext       string
	// Fullsize is the whole image in a browser format, for originals that
	// browsers cannot show; nil means serve the original itself. Its
	// extension is FullsizeExt: Ext, except ".jpg" for a WebP
	// configuration when a side exceeds WebP's 16383 px.
	Fullsize    []byte
	FullsizeExt string
	// Width and Height are the original's, after orientation.
	Width, Height int
	// Sample is the preview decoded and scaled to at most SampleSize px on
	// the long side: sRGB, non-premultiplied, opaque unless the original
	// has transparency. The quality metrics read it, and the thumbnail is
	// made from it.
	Sample *image.NRGBA
}
