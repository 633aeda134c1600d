package variant

import (
	"context"
	"fmt"
	"os"
	"sync"

	"github.com/davidbyttow/govips/v2/vips"
)

// Renderer renders variants with libvips. It is safe for concurrent use;
// at most Config.Concurrency renders decode at once.
type Renderer struct {
	cfg  Config
	sem  chan struct{}
	mu   sync.RWMutex // held for reading by each Render, for writing by Close
	done bool
}

// NewRenderer validates cfg and starts libvips, once per process: its
// settings (no operation cache, one thread per operation, untrusted
// loaders blocked) are the same for every Renderer.
func NewRenderer(cfg Config) (*Renderer, error) {
	if err := cfg.Validate(); err != nil {
		return nil, err
	}
	cfg = cfg.withDefaults()
	startVips()
	return &Renderer{cfg: cfg, sem: make(chan struct{}, cfg.Concurrency)}, nil
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
// shrink-on-load; the thumbnail, from the preview; and, when mime is a
// format browsers do not show, a fullsize, from which the preview is then
// made. Every variant is upright, sRGB and without metadata; Sample holds
// the preview's pixels for the metrics.
//
// The header is checked before decoding: more than Config.MaxPixels is
// ErrTooLarge. A MIME type that is not a still image, content of another
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
	select {
	case r.sem <- struct{}{}:
		defer func() { <-r.sem }()
	case <-ctx.Done():
		return nil, fmt.Errorf("render %s: %w", path, ctx.Err())
	}
	res, err := r.render(ctx, path, f)
	if err != nil {
		return nil, fmt.Errorf("render %s: %w", path, err)
	}
	return res, nil
}

// render does Render's work once a slot is held.
func (r *Renderer) render(ctx context.Context, path string, f format) (*Result, error) {
	orig, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	hdr, err := readHeader(orig, f)
	if err != nil {
		return nil, err
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
		if res.Fullsize, err = r.variant(orig, max(hdr.width, hdr.height), fullFormat); err != nil {
			return nil, fmt.Errorf("fullsize: %w", err)
		}
		res.FullsizeExt = ext(fullFormat)
		src = res.Fullsize
	}
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	if res.Preview, err = r.variant(src, PreviewSize, r.cfg.Format); err != nil {
		return nil, fmt.Errorf("preview: %w", err)
	}
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	if res.Thumbnail, err = r.variant(res.Preview, ThumbnailSize, r.cfg.Format); err != nil {
		return nil, fmt.Errorf("thumbnail: %w", err)
	}
	if res.Sample, err = sample(res.Preview, SampleSize); err != nil {
		return nil, fmt.Errorf("sample: %w", err)
	}
	return res, nil
}

// variant decodes buf to fit size and encodes it in format.
func (r *Renderer) variant(buf []byte, size int, format string) ([]byte, error) {
	img, err := load(buf, size, format == FormatJPEG)
	if err != nil {
		return nil, err
	}
	defer img.Close()
	return encode(img, format, r.cfg.Quality)
}

// ext is the file extension of a format.
func ext(format string) string {
	if format == FormatJPEG {
		return ".jpg"
	}
	return ".webp"
}
