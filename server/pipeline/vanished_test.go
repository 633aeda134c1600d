package pipeline_test

import (
	"context"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/photoctl/photoctl/ingest/variant"
	"github.com/photoctl/photoctl/server/assets"
	"github.com/photoctl/photoctl/server/pipeline"
)

func TestStepsOnADeletedAssetSucceedAndLeaveNothing(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	a := e.upload(halves(t, 64, 48), "", assets.UploadInput{})
	_, err := e.assets.Delete(e.ctx, e.user, []string{a.ID})
	require.NoError(t, err)
	for _, kind := range []string{pipeline.KindMetadata, pipeline.KindVariants, pipeline.KindGeocode, pipeline.KindMetrics} {
		for _, k := range e.p.Kinds() {
			if k.Name == kind {
				require.NoError(t, k.Run(e.ctx, taskFor(kind, a.ID)), kind)
			}
		}
	}
	require.Empty(t, e.blobFiles(), "no file written for a deleted asset")
}

// deletingRenderer is the real renderer, with the asset deleted while it
// renders: the deletion's journal drain runs before the variants are
// written, as it may in production.
type deletingRenderer struct {
	pipeline.Renderer
	onRender func()
}

func (r deletingRenderer) Render(ctx context.Context, path, mime string) (*variant.Result, error) {
	res, err := r.Renderer.Render(ctx, path, mime)
	r.onRender()
	return res, err
}

func TestVariantsOfAnAssetDeletedWhileRenderingAreRemoved(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	a := e.upload(halves(t, 64, 48), "", assets.UploadInput{})
	p, err := pipeline.New(pipeline.Deps{Store: e.st, Blobs: e.blobs, Metadata: e.pool, Geocoder: sharedGeocoder(),
		Renderer: deletingRenderer{Renderer: e.renderer, onRender: func() {
			_, err := e.assets.Delete(e.ctx, e.user, []string{a.ID})
			require.NoError(t, err)
		}}})
	require.NoError(t, err)
	require.NoError(t, p.Variants(e.ctx, a.ID), "a vanished asset is a success")
	require.Empty(t, e.blobFiles(), "the renderings written after the deletion are removed")
}

// blobFiles lists every stored blob.
func (e *env) blobFiles() []string {
	e.t.Helper()
	var out []string
	require.NoError(e.t, e.blobs.Walk("", func(key string, _ int64) error {
		out = append(out, key)
		return nil
	}))
	return out
}
