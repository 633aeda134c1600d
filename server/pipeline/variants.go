package pipeline

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"path"
	"path/filepath"
	"strings"

	"golang.org/x/sync/errgroup"

	"github.com/photoctl/photoctl/ingest/variant"
	"github.com/photoctl/photoctl/ingest/video"
	"github.com/photoctl/photoctl/server/assets"
	"github.com/photoctl/photoctl/server/catalog"
	"github.com/photoctl/photoctl/server/store"
)

// PosterKey is the blob key of a video's poster frame: a JPEG for internal
// use (face detection, search, the metrics), never listed in asset_urls.
// It lives among the asset's variants, so a permanent deletion removes it
// with them.
func PosterKey(assetID string) string { return assets.VariantKey(assetID, "poster", ".jpg") }

// variantExts are the extensions a rendering may be stored under.
var variantExts = []string{".webp", ".jpg"}

// Variants renders an image's thumbnail and preview, and a fullsize in a
// browser format when the original is not one (HEIC, HEIF, AVIF, TIFF,
// RAW); for a JPEG, PNG, WebP or GIF the original itself is the fullsize.
// For a video it writes the poster frame. Every rendering is upright, sRGB,
// without metadata, and written atomically; a re-run replaces them, and
// removes renderings of another format or no longer needed. A camera RAW
// that libvips cannot decode is rendered from the JPEG the camera embedded.
//
// When libvips reads the image's displayed size differently from exiftool
// (or exiftool had none), the asset's width and height take libvips'.
// The quality metrics (Metrics) are measured here too, on the preview
// Render decoded at metrics size (a video's, on its poster frame), and
// stored with the sizes in one transaction. Idempotent.
func (p *Pipeline) Variants(ctx context.Context, assetID string) error {
	return p.settle(ctx, assetID, p.variants(ctx, assetID))
}

func (p *Pipeline) variants(ctx context.Context, id string) error {
	a, err := p.asset(ctx, id)
	if err != nil {
		return err
	}
	orig, err := p.d.Blobs.OpenLocal(catalog.OriginalKey(id))
	if err != nil {
		return err
	}
	defer orig.Close()
	if a.MediaType == catalog.MediaVideo {
		poster, err := p.poster(ctx, id, orig.Path)
		if err != nil {
			return err
		}
		m, err := p.measureEncoded(ctx, poster)
		if err != nil {
			return err
		}
		return p.updateThen(ctx, id, "variants", func(a *catalog.Asset) { setMetrics(a, m.values) }, m.putCrops(ctx, id))
	}
	res, embedded, err := p.render(ctx, a, orig.Path)
	if err != nil {
		return err
	}
	// The files' fsyncs wait on the disk while the metrics use the CPU:
	// about 5 ms each, overlapped.
	stored := make(chan error, 1)
	go func() { stored <- p.storeVariants(id, res) }()
	var m *measures
	if res.Sample != nil {
		m = measure(res.Sample)
	}
	if err := <-stored; err != nil {
		return err
	}
	// A deletion that committed while rendering may have removed the
	// folder before these files arrived: check, and clean up after it.
	if _, err := p.asset(ctx, id); errors.Is(err, errVanished) {
		_ = p.d.Blobs.RemoveAll(path.Dir(assets.VariantKey(id, "thumbnail", "")))
		return errVanished
	}
	var putCrops func(store.Repos) error
	if m != nil {
		putCrops = m.putCrops(ctx, id)
	}
	return p.updateThen(ctx, id, "variants", func(a *catalog.Asset) {
		// An embedded JPEG may be smaller than the RAW: its size stands
		// in only when exiftool found none.
		if !embedded || a.Width == nil || a.Height == nil {
			w, h := res.Width, res.Height
			a.Width, a.Height = &w, &h
		}
		if m != nil {
			setMetrics(a, m.values)
		}
	}, putCrops)
}

// render renders an image. A camera RAW file, which libvips cannot
// decode, is rendered from the largest JPEG embedded in it (embedded is
// then true), turned by the RAW's orientation (from the file layer the
// metadata step wrote).
func (p *Pipeline) render(ctx context.Context, a *catalog.Asset, path string) (res *variant.Result, embedded bool, err error) {
	res, err = p.d.Renderer.Render(ctx, path, a.MIMEType)
	if err == nil || !isRAW(a.MIMEType) || !errors.Is(err, variant.ErrUnsupported) || p.d.Embedded == nil {
		return res, false, err
	}
	jpeg, embErr := p.d.Embedded.EmbeddedImage(ctx, path)
	if embErr != nil {
		return nil, false, fmt.Errorf("%w; no embedded JPEG either: %w", err, embErr)
	}
	orientation := 0
	if o := a.FileMeta.Orientation; o != nil {
		orientation = int(*o)
	}
	res, err = p.d.Renderer.RenderEmbedded(ctx, jpeg, orientation)
	return res, true, err
}

// isRAW reports whether mime is a camera RAW format (ingest/sniff names
// them image/x-<vendor>-<format>).
func isRAW(mime string) bool { return strings.HasPrefix(mime, "image/x-") }

// storeVariants writes the renderings, then removes those a previous run
// left under another extension (or a fullsize no longer needed), which
// would otherwise shadow or outlive them. The files are written side by
// side: each write waits for its fsyncs, which the disk then overlaps.
func (p *Pipeline) storeVariants(id string, res *variant.Result) error {
	files := []struct {
		name, ext string
		data      []byte
	}{{"preview", res.Ext, res.Preview}, {"thumbnail", res.Ext, res.Thumbnail}, {"fullsize", res.FullsizeExt, res.Fullsize}}
	var g errgroup.Group
	for _, f := range files {
		if f.data != nil {
			g.Go(func() error {
				if err := p.d.Blobs.Put(assets.VariantKey(id, f.name, f.ext), bytes.NewReader(f.data)); err != nil {
					return fmt.Errorf("store %s: %w", f.name, err)
				}
				return nil
			})
		}
	}
	if err := g.Wait(); err != nil {
		return err
	}
	for _, f := range files {
		for _, ext := range variantExts {
			if f.data == nil || ext != f.ext {
				if err := p.d.Blobs.Remove(assets.VariantKey(id, f.name, ext)); err != nil {
					return fmt.Errorf("remove stale %s: %w", f.name, err)
				}
			}
		}
	}
	return nil
}

// poster writes a video's poster frame: 10% in (the first frame of a clip
// shorter than a second), upright, at most video.PosterMaxSide px. It
// returns the frame's JPEG.
func (p *Pipeline) poster(ctx context.Context, id, path string) ([]byte, error) {
	dir, err := os.MkdirTemp("", "photoctl-poster-*")
	if err != nil {
		return nil, err
	}
	defer os.RemoveAll(dir)
	out := filepath.Join(dir, "poster.jpg")
	if err := video.Poster(ctx, path, out, -1); err != nil {
		return nil, err
	}
	frame, err := os.ReadFile(out)
	if err != nil {
		return nil, err
	}
	if err := p.d.Blobs.Put(PosterKey(id), bytes.NewReader(frame)); err != nil {
		return nil, fmt.Errorf("store poster: %w", err)
	}
	if _, err := p.asset(ctx, id); errors.Is(err, errVanished) {
		_ = p.d.Blobs.Remove(PosterKey(id))
		return nil, errVanished
	}
	return frame, nil
}
