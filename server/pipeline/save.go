package pipeline

import (
	"context"
	"encoding/json"
	"errors"
	"reflect"
	"slices"

	"github.com/photoctl/photoctl/server/catalog"
	"github.com/photoctl/photoctl/server/store"
)

// inAssetTx runs fn in a write transaction of asset id's library
// (store.AssetsLibrary), beside the other libraries' writes: a step writes
// its asset and what hangs on it (faces, texts, stacks, events), all of the
// asset's library.
func (p *Pipeline) inAssetTx(ctx context.Context, id string, fn func(store.Repos) error) error {
	return p.d.Store.InLibraryTx(ctx, store.AssetsLibrary(ctx, p.d.Store, id), fn)
}

// update applies change to the asset's current row inside one write
// transaction. When the row changed, it is written with an "asset.updated"
// event whose data names the step and the fields the API shows that
// changed; when nothing changed nothing is written, so a re-run is silent.
// A deleted asset is errVanished.
func (p *Pipeline) update(ctx context.Context, id, step string, change func(a *catalog.Asset)) error {
	return p.updateThen(ctx, id, step, change, nil)
}

// updateThen is update followed, in its transaction, by then (unless nil),
// whether the row changed or not: then writes what hangs on the asset.
func (p *Pipeline) updateThen(ctx context.Context, id, step string, change func(a *catalog.Asset), then func(store.Repos) error) error {
	return p.inAssetTx(ctx, id, func(r store.Repos) error {
		a, err := r.Assets().Get(ctx, id)
		if errors.Is(err, catalog.ErrNotFound) {
			return errVanished
		}
		if err != nil {
			return err
		}
		before := snapshotOf(a)
		change(a)
		fields, changed := before.diff(snapshotOf(a))
		if then != nil {
			if err := then(r); err != nil {
				return err
			}
		}
		if !changed {
			return nil
		}
		a.UpdatedAt = p.d.Now().UTC()
		if err := r.Assets().Update(ctx, a); err != nil {
			return err
		}
		data, err := json.Marshal(map[string]any{"fields": fields, "step": step})
		if err != nil {
			return err
		}
		return r.Events().Append(ctx, &catalog.Event{ID: catalog.NewID(catalog.PrefixEvent, a.UpdatedAt),
			Type: "asset.updated", LibraryID: a.LibraryID, ResourceID: a.ID, Data: data, CreatedAt: a.UpdatedAt})
	})
}

// snapshot is what the pipeline may change on an asset.
type snapshot struct {
	file, geo     catalog.Metadata
	merged        catalog.Metadata
	width, height *int
	capture       string // CaptureTime.String: wall and offset
	metrics       map[string]any
}

func snapshotOf(a *catalog.Asset) snapshot {
	return snapshot{file: a.FileMeta, geo: a.GeoMeta, merged: a.Merged(), width: a.Width, height: a.Height,
		capture: a.Capture.String(), metrics: a.Metrics}
}

// diff reports whether anything stored differs, and the API fields that
// show it (sorted): a layer the user's edit hides changes the row without
// changing the API.
func (s snapshot) diff(t snapshot) ([]string, bool) {
	fields := []string{}
	if !reflect.DeepEqual(s.merged, t.merged) {
		fields = append(fields, "metadata")
	}
	if !reflect.DeepEqual(s.width, t.width) {
		fields = append(fields, "width")
	}
	if !reflect.DeepEqual(s.height, t.height) {
		fields = append(fields, "height")
	}
	if s.capture != t.capture {
		fields = append(fields, "local_datetime")
	}
	if !reflect.DeepEqual(s.metrics, t.metrics) && !(len(s.metrics) == 0 && len(t.metrics) == 0) {
		fields = append(fields, "metrics")
	}
	slices.Sort(fields)
	changed := len(fields) > 0 || !reflect.DeepEqual(s.file, t.file) || !reflect.DeepEqual(s.geo, t.geo)
	return fields, changed
}
