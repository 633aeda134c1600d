package variant

import (
	"bytes"
	"context"
	"fmt"
	"image"
	"log/slog"
	"os"
	"slices"
	"sync"

	"github.com/davidbyttow/govips/v2/vips"
)

// startOnce starts libvips for the process: govips cannot be restarted
// after vips.Shutdown, so no Renderer ever shuts it down. It must run
// before any other govips call, which would start libvips with govips'
// defaults instead; this package is the module's only govips importer.
var startOnce sync.Once

// startVips starts libvips with the operation cache off (every original is
// read once, so a cache only holds memory) and one worker thread per
// operation: Render runs Config.Concurrency operations side by side, which
// uses the cores better than splitting each small image between threads.
// Untrusted loaders (ImageMagick, MATLAB, FITS, ...) are blocked unless the
// environment already chose: photoctl decodes uploads from strangers. The
// C allocator is tuned for libvips' large buffers (malloc_linux.go).
func startVips() {
	startOnce.Do(func() {
		if _, set := os.LookupEnv("VIPS_BLOCK_UNTRUSTED"); !set {
			_ = os.Setenv("VIPS_BLOCK_UNTRUSTED", "1") // read by vips_init; cannot fail for this name
		}
		tuneMalloc()
		vips.LoggingSettings(logVips, vips.LogLevelWarning)
		vips.Startup(&vips.Config{ConcurrencyLevel: 1, MaxCacheFiles: 0, MaxCacheMem: 0, MaxCacheSize: 0})
	})
}

// logVips sends libvips' warnings to slog.
func logVips(domain string, level vips.LogLevel, msg string) {
	lvl := slog.LevelWarn
	if level == vips.LogLevelError || level == vips.LogLevelCritical {
		lvl = slog.LevelError
	}
	slog.Log(context.Background(), lvl, "libvips", "component", "variant", "domain", domain, "detail", msg)
}

// header is what the file's header says, before any pixel is decoded.
type header struct {
	width, height int // after orientation
	orientation   int // the EXIF orientation the content carries, 0 when none
}

// readHeader opens buf lazily (libvips reads only the header), checks that
// the content is one of the types f may load, and returns the oriented size.
func readHeader(buf []byte, f format) (header, error) {
	img, err := vips.LoadImageFromBuffer(buf, vips.NewImportParams())
	if err != nil {
		return header{}, fmt.Errorf("read header: %v: %w", err, ErrUnsupported)
	}
	defer img.Close()
	if !slices.Contains(f.loads, img.OriginalFormat()) {
		return header{}, fmt.Errorf("read header: content is %s: %w", vips.ImageTypes[img.OriginalFormat()], ErrUnsupported)
	}
	h := header{width: img.Width(), height: img.Height(), orientation: img.Orientation()}
	if img.Orientation() >= 5 { // 5..8 turn the image a quarter
		h.width, h.height = h.height, h.width
	}
	return h, nil
}

// load decodes buf scaled to fit size×size (never enlarged), upright, in
// 8-bit sRGB (or sRGB with alpha). flatten removes the alpha channel, onto
// white, for formats without one. long is the image's long side when the
// caller knows it (0 otherwise): a JPEG at least twice size is then decoded
// by libjpeg at 1/2, 1/4 or 1/8 of its size (jpegShrink) and reduced from
// there, which libvips' own thumbnail does not do before a reduction of 2 to
// 4: a 12 MP photo's 1440 px preview costs about a fifth less CPU so
// (BenchmarkRender12MP), the default of sharp, which Immich uses, too.
func load(buf []byte, size, long int, flatten bool) (*vips.ImageRef, error) {
	if shrink := jpegShrink(long, size); shrink > 1 && vips.DetermineImageType(buf) == vips.ImageTypeJPEG {
		return loadShrunk(buf, shrink, size, flatten)
	}
	img, err := vips.LoadThumbnailFromBuffer(buf, size, size, vips.InterestingNone, vips.SizeDown, nil)
	if err != nil {
		return nil, fmt.Errorf("decode: %w", err)
	}
	return finish(img, 0, flatten)
}

// jpegShrink is the largest factor libjpeg can decode at (8, 4 or 2) that
// leaves at least size px on a long side of long px; 1 when none does.
func jpegShrink(long, size int) int {
	for shrink := 8; shrink > 1; shrink /= 2 {
		if long >= size*shrink {
			return shrink
		}
	}
	return 1
}

// loadShrunk is load for a JPEG decoded at 1/shrink of its size, then
// reduced with the Lanczos 3 kernel libvips' thumbnail uses, and converted
// to sRGB at the final size.
func loadShrunk(buf []byte, shrink, size int, flatten bool) (*vips.ImageRef, error) {
	params := vips.NewImportParams()
	params.JpegShrinkFactor.Set(shrink)
	params.AutoRotate.Set(true)
	img, err := vips.LoadImageFromBuffer(buf, params)
	if err != nil {
		return nil, fmt.Errorf("decode: %w", err)
	}
	return finish(img, size, flatten)
}

// loadWhole decodes buf at full size with random access, for the
// operations a sequential decode cannot feed (quarter turns, flips), in
// 8-bit sRGB like load.
func loadWhole(buf []byte, flatten bool) (*vips.ImageRef, error) {
	params := vips.NewImportParams()
	params.AutoRotate.Set(false)
	img, err := vips.LoadImageFromBuffer(buf, params)
	if err != nil {
		return nil, fmt.Errorf("decode: %w", err)
	}
	return finish(img, 0, flatten)
}

// finish reduces a decoded img to size px on its long side (0: keeps its
// size), then converts it to sRGB (toSRGB), on the fewer pixels; on
// failure it closes img.
func finish(img *vips.ImageRef, size int, flatten bool) (*vips.ImageRef, error) {
	var err error
	if size > 0 {
		err = fit(img, size)
	}
	if err == nil {
		err = toSRGB(img, flatten)
	}
	if err != nil {
		img.Close()
		return nil, err
	}
	return img, nil
}

// fit reduces img to size px on its long side; a smaller image is left as
// it is. libvips rounds the scaled sides to the nearest pixel.
func fit(img *vips.ImageRef, size int) error {
	long := max(img.Width(), img.Height())
	if long <= size {
		return nil
	}
	if err := img.Resize(float64(size)/float64(long), vips.KernelLanczos3); err != nil {
		return fmt.Errorf("resize to %d px: %w", size, err)
	}
	return nil
}

// toSRGB converts img to 8-bit sRGB. An embedded profile other than sRGB
// (Display P3 from phones, Adobe RGB from cameras) is applied, since the
// variants are written without one and browsers then assume sRGB.
func toSRGB(img *vips.ImageRef, flatten bool) error {
	if img.HasICCProfile() && !isSRGBProfile(img.GetICCProfile()) {
		if err := img.TransformICCProfile(vips.SRGBIEC6196621ICCProfilePath); err != nil {
			return fmt.Errorf("convert to sRGB: %w", err)
		}
	}
	if img.Interpretation() != vips.InterpretationSRGB || img.BandFormat() != vips.BandFormatUchar {
		if err := img.ToColorSpace(vips.InterpretationSRGB); err != nil {
			return fmt.Errorf("convert to sRGB: %w", err)
		}
		if img.BandFormat() != vips.BandFormatUchar {
			if err := img.Cast(vips.BandFormatUchar); err != nil {
				return fmt.Errorf("convert to 8 bits: %w", err)
			}
		}
	}
	if flatten && img.HasAlpha() {
		if err := img.Flatten(&vips.Color{R: 255, G: 255, B: 255}); err != nil {
			return fmt.Errorf("flatten alpha: %w", err)
		}
	}
	return nil
}

// isSRGBProfile reports whether an ICC profile is sRGB by its description,
// sparing a colour transform that would change nothing. Every sRGB profile
// in common use names itself so ("sRGB IEC61966-2.1", "sRGB built-in").
func isSRGBProfile(icc []byte) bool {
	return bytes.Contains(icc, []byte("sRGB"))
}

// encode writes img in the given format without metadata.
func encode(img *vips.ImageRef, format string, quality int) ([]byte, error) {
	var (
		out []byte
		err error
	)
	switch format {
	case FormatJPEG:
		out, _, err = img.ExportJpeg(&vips.JpegExportParams{StripMetadata: true, Quality: quality, OptimizeCoding: true})
	default:
		out, _, err = img.ExportWebp(&vips.WebpExportParams{StripMetadata: true, Quality: quality, ReductionEffort: webpEffort})
		if err == nil {
			out, err = stripWebP(out)
		}
	}
	if err != nil {
		return nil, fmt.Errorf("encode %s: %w", format, err)
	}
	return out, nil
}

// webpEffort is libwebp's method (0 fast .. 6 small). Measured on a 12 MP
// camera JPEG rendered to 1440 px at Q82: effort 2 costs the same CPU as 0
// and a third less than 4 (libvips' default), for files 3% larger than 4's
// and 9% smaller than 0's.
const webpEffort = 2

// sample decodes an encoded variant into at most size px on the long side
// as non-premultiplied RGBA pixels; opaque is false when the variant has an
// alpha channel.
func sample(buf []byte, size int) (img *image.NRGBA, opaque bool, err error) {
	ref, err := load(buf, size, 0, false)
	if err != nil {
		return nil, false, err
	}
	defer ref.Close()
	opaque = !ref.HasAlpha()
	if opaque {
		if err := ref.BandJoinConst([]float64{255}); err != nil {
			return nil, false, fmt.Errorf("add alpha: %w", err)
		}
	}
	w, h := ref.Width(), ref.Height()
	pix, err := ref.ToBytes()
	if err != nil {
		return nil, false, fmt.Errorf("read pixels: %w", err)
	}
	if len(pix) != w*h*4 {
		return nil, false, fmt.Errorf("read pixels: %d bytes for %dx%d RGBA", len(pix), w, h)
	}
	return &image.NRGBA{Pix: pix, Stride: 4 * w, Rect: image.Rect(0, 0, w, h)}, opaque, nil
}

// thumbnail encodes pixels a sample holds, reduced to size px on the long
// side, in format: the thumbnail is made from the sample's 512 px rather
// than by decoding the preview again. opaque drops the alpha channel the
// sample adds to images without one.
func thumbnail(px *image.NRGBA, opaque bool, size int, format string, quality int) ([]byte, error) {
	img, err := vips.NewImageFromGoImage(px)
	if err != nil {
		return nil, fmt.Errorf("import pixels: %w", err)
	}
	if opaque {
		if err := img.ExtractBand(0, 3); err != nil {
			img.Close()
			return nil, fmt.Errorf("drop alpha: %w", err)
		}
	}
	if img, err = finish(img, size, format == FormatJPEG); err != nil {
		return nil, err
	}
	defer img.Close()
	return encode(img, format, quality)
}

// orient turns img as EXIF orientation o (2–8) asks for display: the
// mirrorings and quarter turns of the EXIF specification. Other values
// leave it as it is.
func orient(img *vips.ImageRef, o int) error {
	steps := map[int][]func() error{
		2: {func() error { return img.Flip(vips.DirectionHorizontal) }},
		3: {func() error { return img.Rotate(vips.Angle180) }},
		4: {func() error { return img.Flip(vips.DirectionVertical) }},
		5: {func() error { return img.Rotate(vips.Angle90) }, func() error { return img.Flip(vips.DirectionHorizontal) }},
		6: {func() error { return img.Rotate(vips.Angle90) }},
		7: {func() error { return img.Rotate(vips.Angle270) }, func() error { return img.Flip(vips.DirectionHorizontal) }},
		8: {func() error { return img.Rotate(vips.Angle270) }},
	}[o]
	for _, step := range steps {
		if err := step(); err != nil {
			return fmt.Errorf("apply orientation %d: %w", o, err)
		}
	}
	return nil
}
