package pipeline

import (
	"context"
	"errors"
	"fmt"
	"image"
	"io"
	"math"

	"github.com/photoctl/photoctl/ingest/metrics"
	"github.com/photoctl/photoctl/server/assets"
	"github.com/photoctl/photoctl/server/catalog"
	"github.com/photoctl/photoctl/server/store"
)

// maxRenderingBytes bounds a stored preview or poster read into memory
// (a 1440 px rendering is a few hundred kilobytes).
const maxRenderingBytes = 32 << 20

// Metrics measures the asset's quality from its stored preview (a
// video's, from its poster frame) and writes the metrics keys (measure).
// The variants step measures while it renders, so the ingest chain does
// not run this step; it stays a task kind for tasks queued before that and
// to measure again. It needs the variants step to have run: a missing
// rendering is an error, retried. Idempotent.
func (p *Pipeline) Metrics(ctx context.Context, assetID string) error {
	return p.settle(ctx, assetID, p.metrics(ctx, assetID))
}

func (p *Pipeline) metrics(ctx context.Context, id string) error {
	a, err := p.asset(ctx, id)
	if err != nil {
		return err
	}
	buf, err := p.rendering(a)
	if err != nil {
		return err
	}
	m, err := p.measureEncoded(ctx, buf)
	if err != nil {
		return err
	}
	return p.updateThen(ctx, id, "metrics", func(a *catalog.Asset) { setMetrics(a, m.values) }, m.putCrops(ctx, id))
}

// measureEncoded decodes a rendering photoctl made (preview, poster) at
// metrics size and measures it.
func (p *Pipeline) measureEncoded(ctx context.Context, buf []byte) (*measures, error) {
	img, err := p.d.Renderer.Sample(ctx, buf)
	if err != nil {
		return nil, err
	}
	return measure(img), nil
}

// measures are an asset's metrics keys and the perceptual hashes of its
// crops, which image search indexes beside the metrics' phash (store
// Search.PutPHashes) to find crops of the picture.
type measures struct {
	values map[string]any
	crops  []store.KindPHash
}

// putCrops writes the crops' hashes of asset id, in the transaction that
// writes its metrics: even when the metrics did not change, since an asset
// measured before the crops were hashed has none (measuring again is how
// it gets them).
func (m *measures) putCrops(ctx context.Context, id string) func(store.Repos) error {
	return func(r store.Repos) error { return r.Search().PutPHashes(ctx, id, m.crops) }
}

// measure returns the metrics keys decisions.md lists, measured on a
// rendering decoded at variant.SampleSize: sharpness, exposure, contrast,
// colorfulness, noise, quality (0..1, to four decimals), phash (16 hex
// digits) and colors (the colour signature, 64 hex digits, for image
// search), and the crops' hashes.
func measure(img *image.NRGBA) *measures {
	m := metrics.Compute(img)
	crops := make([]store.KindPHash, len(m.Crops))
	for i, c := range m.Crops {
		crops[i] = store.KindPHash{Kind: c.Kind, PHash: c.PHash}
	}
	return &measures{crops: crops, values: map[string]any{
		"sharpness": round4(m.Sharpness), "exposure": round4(m.Exposure), "contrast": round4(m.Contrast),
		"colorfulness": round4(m.Colorfulness), "noise": round4(m.Noise), "quality": round4(m.Quality),
		"phash": m.PHash,
		// The colour signature beside the pHash: image search compares both.
		"colors": metrics.ColorSignature(img),
	}}
}

// setMetrics writes values into the asset's metrics, keeping its other
// keys.
func setMetrics(a *catalog.Asset, values map[string]any) {
	merged := make(map[string]any, len(a.Metrics)+len(values))
	for k, v := range a.Metrics {
		merged[k] = v
	}
	for k, v := range values {
		merged[k] = v
	}
	a.Metrics = merged
}

// rendering reads the preview of an image, or the poster of a video.
func (p *Pipeline) rendering(a *catalog.Asset) ([]byte, error) {
	keys := []string{PosterKey(a.ID)}
	if a.MediaType == catalog.MediaImage {
		keys = keys[:0]
		for _, ext := range variantExts {
			keys = append(keys, assets.VariantKey(a.ID, "preview", ext))
		}
	}
	for _, key := range keys {
		f, err := p.d.Blobs.Open(key)
		if errors.Is(err, catalog.ErrNotFound) {
			continue
		}
		if err != nil {
			return nil, err
		}
		defer f.Close()
		buf, err := io.ReadAll(io.LimitReader(f, maxRenderingBytes+1))
		if err != nil {
			return nil, fmt.Errorf("read %s: %w", key, err)
		}
		if len(buf) > maxRenderingBytes {
			return nil, fmt.Errorf("read %s: larger than %d bytes", key, maxRenderingBytes)
		}
		return buf, nil
	}
	return nil, fmt.Errorf("asset %s has no rendering to measure yet (the variants step makes it)", a.ID)
}

func round4(v float64) float64 { return math.Round(v*1e4) / 1e4 }
