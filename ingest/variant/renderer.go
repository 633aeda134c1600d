package variant

import (
	"context"
	"fmt"
	"image"
	"io"
	"os"
	"sync"

	"github.com/davidbyttow/govips/v2/vips"
)

// Renderer renders variants with libvips. It is safe for concurrent use;
// at most Config.Concurrency renders decode at once.
type Renderer struct {
	cfg   Config
	sem   chan struct{}
	reads chan []byte  // buffers originals were read into, kept for the next renders
	mu    sync.RWMutex // held for reading by each Render, for writing by Close
	done  bool
}

// maxKeptRead is the largest original-sized buffer a Renderer keeps for
// the next render; larger originals get a buffer of their own.
const maxKeptRead = 64 << 20

// NewRenderer validates cfg and starts libvips, once per process: its
// settings (no operation cache, one thread per operation, untrusted
// loaders blocked) are the same for every Renderer.
func NewRenderer(cfg Config) (*Renderer, error) {
	if err := cfg.Validate(); err != nil {
		return nil, err
	}
	cfg = cfg.withDefaults()
	startVips()
	return &Renderer{cfg: cfg, sem: make(chan struct{}, cfg.Concurrency), reads: make(chan []byte, cfg.Concurrency)}, nil
}

// Close waits for the renders in progress, then makes Render fail with
// ErrClosed. libvips stays loaded: it cannot be started twice in a process,
// and its operation cache, which vips.ClearCache would tear down for good, is
// kept empty from the start.
func (r *Renderer) Close() error {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.done = true
	return nil
}

// Render decodes the original at path, whose sniffed MIME type is mime, and
// encodes its variants: the preview, decoded once from the original with
// shrink-on-load; Sample, the preview decoded at SampleSize for the
// metrics; the thumbnail, from Sample's pixels; and, when mime is a format
// browsers do not show, a fullsize, from which the preview is then made.
// Every variant is upright, sRGB and without metadata.
//
// The file is checked before decoding: a JPEG or PNG that ends early is
// ErrTruncated, a header of more than Config.MaxPixels ErrTooLarge. A MIME
// type that is not a still image, content of another
// type, or a camera RAW format is ErrUnsupported. ctx is checked between
// steps and while waiting for a slot; a libvips step runs to its end.
// Render is idempotent: with the same libvips, the same original gives the
// same variants.
func (r *Renderer) Render(ctx context.Context, path string, mime string) (*Result, error) {
	r.mu.RLock()
	defer r.mu.RUnlock()
	if r.done {
		return nil, ErrClosed
	}
	f, ok := formats[mime]
	switch {
	case isRAW(mime):
		return nil, fmt.Errorf("render %s: libvips %s has no loader for %s: %w", path, vips.Version, mime, ErrUnsupported)
	case !ok:
		return nil, fmt.Errorf("render %s: %s is not a still image: %w", path, mime, ErrUnsupported)
	}
	if err := r.acquire(ctx); err != nil {
		return nil, fmt.Errorf("render %s: %w", path, err)
	}
	defer r.release()
	orig, err := r.readOriginal(path)
	if err != nil {
		return nil, fmt.Errorf("render %s: %w", path, err)
	}
	defer r.keepRead(orig)
	if err := checkComplete(orig, mime); err != nil {
		return nil, fmt.Errorf("render %s: %w", path, err)
	}
	res, err := r.render(ctx, orig, f, 0)
	if err != nil {
		return nil, fmt.Errorf("render %s: %w", path, err)
	}
	return res, nil
}

// RenderEmbedded renders a camera RAW file from the JPEG embedded in it
// (ingest/exif's EmbeddedImage): thumbnail, preview and a fullsize, since
// the RAW itself is no browser format. orientation is the RAW file's EXIF
// orientation (1–8, 0 when unknown); it is applied when the JPEG carries
// none of its own, as embedded previews usually do not. Width and Height
// are the embedded image's, upright. Errors are Render's.
func (r *Renderer) RenderEmbedded(ctx context.Context, jpeg []byte, orientation int) (*Result, error) {
	r.mu.RLock()
	defer r.mu.RUnlock()
	if r.done {
		return nil, ErrClosed
	}
	if err := r.acquire(ctx); err != nil {
		return nil, fmt.Errorf("render embedded image: %w", err)
	}
	defer r.release()
	if err := checkComplete(jpeg, "image/jpeg"); err != nil {
		return nil, fmt.Errorf("render embedded image: %w", err)
	}
	res, err := r.render(ctx, jpeg, format{loads: formats["image/jpeg"].loads, fullsize: true}, orientation)
	if err != nil {
		return nil, fmt.Errorf("render embedded image: %w", err)
	}
	return res, nil
}

// readOriginal reads the file at path whole, into a buffer an earlier
// render kept when one is large enough: a fresh buffer for every 12 MP
// original cost its page faults and zeroing again, 3% of a render's CPU
// on this project's benchmark machine. The caller hands it back with
// keepRead once no libvips image refers to it.
func (r *Renderer) readOriginal(path string) ([]byte, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil {
		return nil, err
	}
	var buf []byte
	select {
	case buf = <-r.reads:
	default:
	}
	size := fi.Size()
	if int64(cap(buf)) < size {
		buf = make([]byte, size)
	}
	buf = buf[:size]
	if _, err := io.ReadFull(f, buf); err != nil {
		return nil, fmt.Errorf("read %d bytes: %w", size, err)
	}
	return buf, nil
}

// keepRead keeps buf for a later readOriginal, unless it is too large or
// enough are kept already.
func (r *Renderer) keepRead(buf []byte) {
	if cap(buf) > maxKeptRead {
		return
	}
	select {
	case r.reads <- buf[:0]:
	default:
	}
}

// acquire takes one of the Config.Concurrency slots; release gives it back.
func (r *Renderer) acquire(ctx context.Context) error {
	select {
	case r.sem <- struct{}{}:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

func (r *Renderer) release() { <-r.sem }

// Sample decodes an encoded image that photoctl made itself (a stored
// preview, a video poster frame) into at most SampleSize px on the long
// side, exactly as Result.Sample is made, for the quality metrics. It takes
// one of the Config.Concurrency slots, so the metrics never add decodes
// beyond the configured bound.
func (r *Renderer) Sample(ctx context.Context, buf []byte) (*image.NRGBA, error) {
	r.mu.RLock()
	defer r.mu.RUnlock()
	if r.done {
		return nil, ErrClosed
	}
	if err := r.acquire(ctx); err != nil {
		return nil, fmt.Errorf("sample: %w", err)
	}
	defer r.release()
	img, _, err := sample(buf, SampleSize)
	if err != nil {
		return nil, fmt.Errorf("sample: %w", err)
	}
	return img, nil
}

// render does Render's work once a slot is held. orientation, when
// above 1, is applied to an original that carries no orientation of its
// own (RenderEmbedded); f must then ask for a fullsize, which is made
// upright so the later steps need no orientation.
func (r *Renderer) render(ctx context.Context, orig []byte, f format, orientation int) (*Result, error) {
	hdr, err := readHeader(orig, f)
	if err != nil {
		return nil, err
	}
	if hdr.orientation > 1 || orientation < 2 || orientation > 8 {
		orientation = 0
	}
	if orientation >= 5 {
		hdr.width, hdr.height = hdr.height, hdr.width
	}
	if px := int64(hdr.width) * int64(hdr.height); px > r.cfg.MaxPixels {
		return nil, fmt.Errorf("%dx%d is %d pixels, over the limit of %d: %w",
			hdr.width, hdr.height, px, r.cfg.MaxPixels, ErrTooLarge)
	}
	res := &Result{Ext: ext(r.cfg.Format), Width: hdr.width, Height: hdr.height}
	src := orig // what the preview is made from
	if f.fullsize {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		fullFormat := r.cfg.Format
		if fullFormat == FormatWebP && max(hdr.width, hdr.height) > webpMaxSide {
			fullFormat = FormatJPEG
		}
		if res.Fullsize, err = r.variant(orig, max(hdr.width, hdr.height), 0, fullFormat, orientation); err != nil {
			return nil, fmt.Errorf("fullsize: %w", err)
		}
		res.FullsizeExt = ext(fullFormat)
		src = res.Fullsize
	}
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	long := max(hdr.width, hdr.height)
	if res.Preview, err = r.variant(src, PreviewSize, long, r.cfg.Format, 0); err != nil {
		return nil, fmt.Errorf("preview: %w", err)
	}
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	px, opaque, err := sample(res.Preview, SampleSize)
	if err != nil {
		return nil, fmt.Errorf("sample: %w", err)
	}
	if res.Thumbnail, err = thumbnail(px, opaque, ThumbnailSize, r.cfg.Format, r.cfg.Quality); err != nil {
		return nil, fmt.Errorf("thumbnail: %w", err)
	}
	res.Sample = px
	return res, nil
}

// variant decodes buf to fit size and encodes it in format; long is its
// long side, 0 when unknown (see load). An EXIF orientation above 1 turns
// it further; it is only asked for with the fullsize (size at least buf's
// long side), which is then decoded whole, since turning needs random
// access to the pixels.
func (r *Renderer) variant(buf []byte, size, long int, format string, orientation int) ([]byte, error) {
	load := load
	if orientation > 1 {
		load = func(buf []byte, _, _ int, flatten bool) (*vips.ImageRef, error) { return loadWhole(buf, flatten) }
	}
	img, err := load(buf, size, long, format == FormatJPEG)
	if err != nil {
		return nil, err
	}
	defer img.Close()
	if err := orient(img, orientation); err != nil {
		return nil, err
	}
	return encode(img, format, r.cfg.Quality)
}

// ext is the file extension of a format.
func ext(format string) string {
	if format == FormatJPEG {
		return ".jpg"
	}
	return ".webp"
}
