// Package pipeline turns an uploaded file into a described asset, one step
// per task kind: metadata (exiftool, and ffprobe for videos) → variants
// (thumbnail, preview and, for formats browsers do not show, fullsize; a
// poster frame for videos) → metrics (quality measures of the preview) →
// burst (automatic stacks of bursts, burst.go) and geocode (the place of
// the asset's position).
//
// Every step is idempotent: it reads the asset, works from the original
// file, and writes only what it owns — the file metadata layer and the
// columns derived from it, the renderings, the geocoding layer, the
// metrics — inside one transaction with an "asset.updated" event, and only
// when something changed. The user-edit layer is never touched, so a user's
// edit survives any re-run. An asset deleted meanwhile is a success: there
// is nothing left to do.
package pipeline

import (
	"context"
	"errors"
	"fmt"
	"image"
	"io"
	"log/slog"
	"time"

	"github.com/photoctl/photoctl/ingest/exif"
	"github.com/photoctl/photoctl/ingest/geocode"
	"github.com/photoctl/photoctl/ingest/variant"
	"github.com/photoctl/photoctl/server/blob"
	"github.com/photoctl/photoctl/server/catalog"
	"github.com/photoctl/photoctl/server/people"
	"github.com/photoctl/photoctl/server/stacks"
	"github.com/photoctl/photoctl/server/store"
)

// MetadataReader reads a file's metadata, with an optional XMP sidecar
// whose values win (ingest/exif's Pool). It must be safe for concurrent use.
type MetadataReader interface {
	Read(ctx context.Context, path, sidecar string) (*exif.Metadata, error)
}

// Renderer makes the renderings of a still image and decodes the sample the
// metrics read (ingest/variant's Renderer). It must be safe for concurrent
// use and bound its own concurrency.
type Renderer interface {
	Render(ctx context.Context, path, mime string) (*variant.Result, error)
	// RenderEmbedded renders a RAW file from its embedded JPEG, turned
	// by the RAW's EXIF orientation.
	RenderEmbedded(ctx context.Context, jpeg []byte, orientation int) (*variant.Result, error)
	Sample(ctx context.Context, buf []byte) (*image.NRGBA, error)
}

// Geocoder names the place at a position (ingest/geocode's Geocoder);
// ok is false where nothing is known. Load loads its data (once) and says
// whether that failed, which Lookup alone cannot tell from "nowhere".
type Geocoder interface {
	Load() error
	Lookup(lat, lon float64) (place geocode.Place, ok bool)
}

// EmbeddedImages extracts the largest JPEG a camera embedded in a RAW
// file (ingest/exif's Pool), for formats libvips cannot decode.
type EmbeddedImages interface {
	EmbeddedImage(ctx context.Context, path string) ([]byte, error)
}

// Deps are what a Pipeline works with. Store, Blobs, Metadata, Renderer
// and Geocoder are required; Embedded (RAW previews), Log and Now are
// optional.
type Deps struct {
	Store    store.Store
	Blobs    *blob.Store
	Metadata MetadataReader
	Renderer Renderer
	Geocoder Geocoder
	Embedded EmbeddedImages
	Log      *slog.Logger
	Now      func() time.Time
	// Closers are released by Close, in order (the exiftool pool, the
	// renderer): whoever builds the Pipeline hands their ownership over.
	Closers []io.Closer
	// Stacks makes the automatic stacks of bursts (optional: a stack
	// service over Store); Burst tunes burst detection.
	Stacks *stacks.Service
	Burst  BurstConfig
	// Clusterer groups faces into people (the cluster and recluster
	// kinds; optional: one with people.DefaultClusterConfig over Store).
	Clusterer *people.Clusterer
	// ML holds the faces, ocr and describe steps' tools (faces.go); the
	// zero value skips faces and ocr and describes with describe.Builtin.
	ML ML
}

// Pipeline runs the ingest steps. It is safe for concurrent use: each step
// bounds its own work through the tools it uses (exiftool processes,
// libvips slots).
type Pipeline struct {
	d   Deps
	log *slog.Logger
}

// New checks deps and returns a Pipeline.
func New(deps Deps) (*Pipeline, error) {
	switch {
	case deps.Store == nil:
		return nil, errors.New("pipeline: a store is required")
	case deps.Blobs == nil:
		return nil, errors.New("pipeline: a blob store is required")
	case deps.Metadata == nil:
		return nil, errors.New("pipeline: a metadata reader is required")
	case deps.Renderer == nil:
		return nil, errors.New("pipeline: a renderer is required")
	case deps.Geocoder == nil:
		return nil, errors.New("pipeline: a geocoder is required")
	}
	if deps.Now == nil {
		deps.Now = time.Now
	}
	if err := deps.Burst.Validate(); err != nil {
		return nil, fmt.Errorf("pipeline: %w", err)
	}
	if deps.Stacks == nil {
		deps.Stacks = stacks.NewService(deps.Store, nil, deps.Now)
	}
	if deps.Clusterer == nil {
		c, err := people.NewClusterer(deps.Store, people.DefaultClusterConfig(), deps.Log, deps.Now)
		if err != nil {
			return nil, err
		}
		deps.Clusterer = c
	}
	log := deps.Log
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	return &Pipeline{d: deps, log: log.With("component", "pipeline")}, nil
}

// Close releases the tools handed over in Deps.Closers.
func (p *Pipeline) Close() error {
	var errs []error
	for _, c := range p.d.Closers {
		errs = append(errs, c.Close())
	}
	return errors.Join(errs...)
}

// errVanished stops a step whose asset was deleted while it ran; the
// step then reports success.
var errVanished = errors.New("asset vanished")

// asset reads an asset from the reader pool; a deleted one is errVanished.
func (p *Pipeline) asset(ctx context.Context, id string) (*catalog.Asset, error) {
	a, err := p.d.Store.Read().Assets().Get(ctx, id)
	if errors.Is(err, catalog.ErrNotFound) {
		return nil, errVanished
	}
	return a, err
}

// settle turns the outcome of a step into its result: nil when the asset
// is gone (whatever failed, there is nothing left to do), else err.
func (p *Pipeline) settle(ctx context.Context, id string, err error) error {
	if err == nil || errors.Is(err, errVanished) {
		return nil
	}
	if _, gone := p.asset(ctx, id); errors.Is(gone, errVanished) {
		return nil
	}
	return err
}
