package pipeline

import (
	"context"
	"errors"

	"github.com/photoctl/photoctl/server/catalog"
	"github.com/photoctl/photoctl/server/people"
	"github.com/photoctl/photoctl/server/tasks"
)

// The people clustering's kinds: cluster places an asset's new faces
// (after faces), recluster regroups a library's machine clusters (a
// library task that the clustering schedules itself).
const (
	KindCluster   = "cluster"
	KindRecluster = people.KindRecluster
)

// Cluster places the machine faces of an asset that nobody placed yet
// into people (people.Clusterer.ClusterAsset). An asset deleted meanwhile
// is a success.
func (p *Pipeline) Cluster(ctx context.Context, assetID string) error {
	return p.settle(ctx, assetID, p.d.Clusterer.ClusterAsset(ctx, assetID))
}

// recluster runs a library's re-cluster task (people.Clusterer.Recluster).
func (p *Pipeline) recluster(ctx context.Context, t *catalog.Task) error {
	if t.AssetID != "" {
		return tasks.Permanent(errors.New("a re-cluster task is a library's, not an asset's"))
	}
	_, err := p.d.Clusterer.Recluster(ctx, t.LibraryID)
	return err
}
