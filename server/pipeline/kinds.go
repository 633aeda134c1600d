package pipeline

import (
	"context"
	"errors"

	"github.com/photoctl/photoctl/ingest/variant"
	"github.com/photoctl/photoctl/ingest/video"
	"github.com/photoctl/photoctl/server/catalog"
	"github.com/photoctl/photoctl/server/tasks"
)

// Task kinds of the ingest chain: an upload enqueues metadata; each kind
// names the ones that follow it.
const (
	KindMetadata = tasks.KindMetadata
	KindVariants = "variants"
	KindGeocode  = tasks.KindGeocode
	KindMetrics  = "metrics"
	KindBurst    = "burst"
)

// Kinds returns the pipeline's task kinds for a tasks.Runner:
// metadata → variants (which measures the quality too) → burst and geocode
// (burst detection and everything after see the quality measures);
// geocode → faces → cluster → ocr → describe (faces.go); a step this
// process would skip (ML off or missing) is recorded as skipped when it is
// due, without a run (tasks.Kind.Off). metrics measures
// again from the stored rendering; no chain enqueues it any more (tasks
// queued by an older version still run, then go on like variants). Each handler runs its step
// on the task's asset; a file no tool can decode fails at once
// (tasks.Permanent) instead of being retried.
func (p *Pipeline) Kinds() []tasks.Kind {
	step := func(run func(context.Context, string) error) tasks.Handler {
		return func(ctx context.Context, t *catalog.Task) error {
			if t.AssetID == "" {
				return tasks.Permanent(errors.New("an ingest task needs an asset"))
			}
			return classify(run(ctx, t.AssetID))
		}
	}
	return []tasks.Kind{
		{Name: KindMetadata, Run: step(p.Metadata), Next: []string{KindVariants}},
		{Name: KindVariants, Run: step(p.Variants), Next: []string{KindBurst, KindGeocode}},
		{Name: KindGeocode, Run: step(p.Geocode), Next: []string{KindFaces}},
		{Name: KindMetrics, Run: step(p.Metrics), Next: []string{KindBurst, KindGeocode}},
		{Name: KindBurst, Run: step(p.Burst)},
		{Name: KindFaces, Run: step(p.Faces), Next: []string{KindCluster}, Off: p.facesOff},
		{Name: KindCluster, Run: step(p.Cluster), Next: []string{KindOCR}, Off: p.clusterOff},
		{Name: KindOCR, Run: step(p.OCR), Next: []string{KindDescribe}, Off: p.ocrOff},
		{Name: KindDescribe, Run: step(p.Describe)},
		{Name: KindRecluster, Run: p.recluster},
		{Name: KindRestack, Run: p.restack},
		{Name: KindRegeocode, Run: p.regeocode},
	}
}

// classify marks the failures retrying cannot fix: content libvips cannot
// decode or refuses as too large or truncated, a video ffmpeg cannot read or without a
// video stream.
func classify(err error) error {
	if errors.Is(err, variant.ErrUnsupported) || errors.Is(err, variant.ErrTooLarge) || errors.Is(err, variant.ErrTruncated) ||
		errors.Is(err, video.ErrNoVideoStream) || errors.Is(err, video.ErrUnreadable) {
		return tasks.Permanent(err)
	}
	return err
}
