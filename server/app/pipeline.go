package app

import (
	"errors"
	"fmt"
	"io"
	"log/slog"
	"runtime/debug"
	"time"

	"github.com/photoctl/photoctl/ingest/exif"
	"github.com/photoctl/photoctl/ingest/geocode"
	"github.com/photoctl/photoctl/ingest/variant"
	"github.com/photoctl/photoctl/server/blob"
	"github.com/photoctl/photoctl/server/people"
	"github.com/photoctl/photoctl/server/pipeline"
	"github.com/photoctl/photoctl/server/stacks"
	"github.com/photoctl/photoctl/server/store"
	"github.com/photoctl/photoctl/server/tasks"
)

// IngestConfig tunes the ingest pipeline's tools. Zero values take the
// tools' defaults.
type IngestConfig struct {
	// ExiftoolProcesses is the number of long-lived exiftool processes
	// (default 2); ExiftoolTimeout bounds one file (default 30s).
	ExiftoolProcesses int           `koanf:"exiftool_processes"`
	ExiftoolTimeout   time.Duration `koanf:"exiftool_timeout"`
	// RenderConcurrency is how many images libvips decodes at once
	// (default: the number of CPUs).
	RenderConcurrency int `koanf:"render_concurrency"`
	// VariantFormat is "webp" (default) or "jpeg"; VariantQuality 1..100
	// (default 82).
	VariantFormat  string `koanf:"variant_format"`
	VariantQuality int    `koanf:"variant_quality"`
	// MaxPixels refuses images larger than this many pixels (default
	// 100,000,000), read from the header before any decoding.
	MaxPixels int64 `koanf:"max_pixels"`
	// TaskTimeout bounds one run of one ingest task (default 10m): a file
	// that hangs a tool fails its task for good instead of holding a worker.
	TaskTimeout time.Duration `koanf:"task_timeout"`
	// BurstGap is the longest time between two shots of one burst
	// (default 1s); BurstMaxDistance the most pHash bits of 64 in which
	// neighbouring shots of a burst may differ (default 16, see
	// pipeline.DefaultBurstMaxDistance).
	BurstGap         time.Duration `koanf:"burst_gap"`
	BurstMaxDistance int           `koanf:"burst_max_distance"`
}

// DefaultTaskTimeout is ingest.task_timeout when unset.
const DefaultTaskTimeout = 10 * time.Minute

func (c IngestConfig) taskTimeout() time.Duration {
	if c.TaskTimeout == 0 {
		return DefaultTaskTimeout
	}
	return c.TaskTimeout
}

func (c IngestConfig) burst() pipeline.BurstConfig {
	return pipeline.BurstConfig{Gap: c.BurstGap, MaxDistance: c.BurstMaxDistance}
}

func (c IngestConfig) exif() exif.Config {
	return exif.Config{Processes: c.ExiftoolProcesses, Timeout: c.ExiftoolTimeout}
}

func (c IngestConfig) variant() variant.Config {
	// Render decodes the preview it made once more, at metrics size: the
	// variants step measures the quality from it.
	return variant.Config{Concurrency: c.RenderConcurrency, Format: c.VariantFormat, Quality: c.VariantQuality,
		MaxPixels: c.MaxPixels}
}

// Validate reports the first problem of each tool's settings.
func (c IngestConfig) Validate() error {
	var errs []error
	if err := c.exif().Validate(); err != nil {
		errs = append(errs, fmt.Errorf("ingest: %w", err))
	}
	if c.RenderConcurrency < 0 || c.MaxPixels < 0 || c.TaskTimeout < 0 {
		errs = append(errs, errors.New("ingest: render_concurrency, max_pixels and task_timeout must not be negative"))
	} else if err := c.variant().Validate(); err != nil {
		errs = append(errs, fmt.Errorf("ingest: %w", err))
	}
	if err := c.burst().Validate(); err != nil {
		errs = append(errs, fmt.Errorf("ingest: %w", err))
	}
	return errors.Join(errs...)
}

// newPipeline builds the ingest pipeline over st and blobs — exiftool
// processes, the libvips renderer, the offline geocoder — and returns its
// task kinds, the function that stops its tools, and warm, which loads the
// place and time zone data (startTasks runs it in the background when the
// runner runs tasks, so the first uploads do not wait for them).
func newPipeline(cfg Config, st store.Store, blobs *blob.Store, log *slog.Logger, now func() time.Time) (kinds []tasks.Kind, closeKinds func() error, warm func(), err error) {
	pool, err := exif.NewPool(cfg.Ingest.exif())
	if err != nil {
		return nil, nil, nil, err
	}
	renderer, err := variant.NewRenderer(cfg.Ingest.variant())
	if err != nil {
		return nil, nil, nil, errors.Join(err, pool.Close())
	}
	// The places and the time zones load on first use (geocode step,
	// metadata of a photo with a position but no offset), or in the
	// background once a runner starts (warm): together they keep about
	// 25 MB of heap (40 MB resident with the embedded data read) that a
	// serve running no tasks never needs.
	geo := geocode.New()
	clusterer, err := people.NewClusterer(st, cfg.People.cluster(), log, now)
	if err != nil {
		return nil, nil, nil, errors.Join(err, renderer.Close(), pool.Close())
	}
	mlTools, closeML, err := openML(cfg.ML, cfg.DataDir, log) // ml.go
	if err != nil {
		return nil, nil, nil, errors.Join(err, renderer.Close(), pool.Close())
	}
	p, err := pipeline.New(pipeline.Deps{Store: st, Blobs: blobs, Metadata: pool, Renderer: renderer,
		Geocoder: geo, Embedded: pool, Log: log, Now: now, Closers: []io.Closer{renderer, pool, closeML},
		Stacks: stacks.NewService(st, nil, now), Burst: cfg.Ingest.burst(), Clusterer: clusterer, ML: mlTools})
	if err != nil {
		return nil, nil, nil, errors.Join(err, renderer.Close(), pool.Close(), closeML.Close())
	}
	return p.Kinds(), p.Close, func() { warmIngestData(geo, log) }, nil
}

// warmIngestData loads the places and the time zones the metadata and
// geocode steps look up (about half a second of one core), so that the
// first photos of an import, on a process just started, do not wait for
// them. It logs "places and time zones loaded" when they are, which the
// benchmarks wait for before they measure.
func warmIngestData(geo *geocode.Geocoder, log *slog.Logger) {
	start := time.Now()
	if err := errors.Join(geo.Load(), exif.LoadTimeZones()); err != nil {
		// The steps that need them fail with the same error, task by task.
		log.Error("load places and time zones", "err", err)
		return
	}
	// Reading them leaves about as much garbage as they keep: hand it back
	// now, once, rather than carry it in an idle server's footprint until
	// the collector, paced loosely, gets to it.
	debug.FreeOSMemory()
	log.Info("places and time zones loaded", "took", time.Since(start).Round(time.Millisecond))
}
