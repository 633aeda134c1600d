package people

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"sync"
	"time"

	"github.com/photoctl/photoctl/server/catalog"
	"github.com/photoctl/photoctl/server/store"
)

// KindRecluster is the library task that regroups the machine's clusters
// (Clusterer.Recluster). The clustering schedules it itself (schedule).
const KindRecluster = "recluster"

// ClusterConfig tunes the clustering of faces into people.
type ClusterConfig struct {
	// Threshold is the cosine similarity between a face and a person's
	// centroid from which the face is taken to be that person's
	// (ml/faces.SamePerson is the value measured for its model).
	Threshold float64
	// MinFaces is how many faces a machine cluster needs to be verified
	// (listed without include_unverified).
	MinFaces int
	// ReclusterInterval is how long after the last re-cluster of a library
	// newly clustered faces wait for the next one.
	ReclusterInterval time.Duration
	// ReclusterBurst is how many faces clustered since the last re-cluster
	// bring the next one forward to now.
	ReclusterBurst int
}

// DefaultClusterConfig is the clustering's default: the threshold measured
// for the face model (ml/faces.SamePerson; a test keeps them equal),
// three faces to be verified, and a re-cluster at most hourly while faces
// arrive, or after 500 new ones.
func DefaultClusterConfig() ClusterConfig {
	return ClusterConfig{Threshold: 0.45, MinFaces: 3, ReclusterInterval: time.Hour, ReclusterBurst: 500}
}

// Validate reports every value out of range.
func (c ClusterConfig) Validate() error {
	var errs []error
	if c.Threshold <= 0 || c.Threshold >= 1 {
		errs = append(errs, fmt.Errorf("threshold %g: want a cosine similarity between 0 and 1", c.Threshold))
	}
	if c.MinFaces < 1 {
		errs = append(errs, fmt.Errorf("min_faces %d: want at least 1", c.MinFaces))
	}
	if c.ReclusterInterval <= 0 {
		errs = append(errs, fmt.Errorf("recluster_interval %s: want a positive duration", c.ReclusterInterval))
	}
	if c.ReclusterBurst < 1 {
		errs = append(errs, fmt.Errorf("recluster_burst %d: want at least 1", c.ReclusterBurst))
	}
	return errors.Join(errs...)
}

// Clusterer groups machine faces into people: ClusterAsset places the new
// faces of an asset (the `cluster` task), Recluster regroups a library's
// machine clusters (the `recluster` task). Neither undoes what a user
// decided: names, merges, reassignments, manual faces, hidden people and
// chosen featured faces (store.Clustering says how that is recorded).
//
// Each library's person centroids are held in memory and refreshed from
// the store, which is the source of truth: several processes (serve and
// `photoctl worker`) cluster the same library, and each reads only the
// centroids changed since its last look (store.ClusterState). It is safe
// for concurrent use.
type Clusterer struct {
	st  store.Store
	cfg ClusterConfig
	log *slog.Logger
	now func() time.Time

	mu      sync.Mutex
	indexes map[string]*libraryIndex
}

// NewClusterer checks cfg and returns a Clusterer over st.
func NewClusterer(st store.Store, cfg ClusterConfig, log *slog.Logger, now func() time.Time) (*Clusterer, error) {
	if err := cfg.Validate(); err != nil {
		return nil, fmt.Errorf("people clustering: %w", err)
	}
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	return &Clusterer{st: st, cfg: cfg, log: log.With("component", "clustering"), now: now,
		indexes: map[string]*libraryIndex{}}, nil
}

// schedule makes sure a re-cluster of the library is queued after n more
// faces were clustered: due one interval after the last one (or from now,
// for a library never re-clustered), or now once the faces clustered since
// reach the burst size. An idle library is never re-clustered: nothing
// changed. Runs inside the caller's transaction.
func (c *Clusterer) schedule(ctx context.Context, r store.Repos, libraryID string, n int, now time.Time) error {
	total, err := r.Clustering().CountNewFaces(ctx, libraryID, n)
	if err != nil {
		return err
	}
	due := now
	if total < c.cfg.ReclusterBurst {
		st, err := r.Clustering().State(ctx, libraryID)
		if err != nil {
			return err
		}
		due = now.Add(c.cfg.ReclusterInterval)
		if st.ReclusteredAt != nil {
			due = st.ReclusteredAt.Add(c.cfg.ReclusterInterval)
		}
	}
	return r.Clustering().Schedule(ctx, &catalog.Task{ID: catalog.NewID(catalog.PrefixTask, now), Kind: KindRecluster,
		State: catalog.TaskQueued, LibraryID: libraryID, RunAfter: due, CreatedAt: now})
}

// vface is a face being clustered, with its decoded embedding.
type vface struct {
	store.ClusterFace
	vec []float32
}

// decodeFaces decodes the embeddings of faces, leaving out (and logging)
// those of another length.
func (c *Clusterer) decodeFaces(list []store.ClusterFace) []vface {
	out := make([]vface, 0, len(list))
	for _, f := range list {
		v, err := decodeVec(nil, f.Embedding)
		if err != nil {
			c.log.Warn("face embedding left out of clustering", "face", f.ID, "err", err)
			continue
		}
		f.Embedding = nil
		out = append(out, vface{ClusterFace: f, vec: v})
	}
	return out
}

// appendEvents writes one event per resource id of a type, all with data.
func appendEvents(ctx context.Context, r store.Repos, typ, libraryID string, ids []string, data func(id string) any,
	now time.Time) error {
	for _, id := range ids {
		if err := appendEvent(ctx, r, typ, libraryID, id, data(id), now); err != nil {
			return err
		}
	}
	return nil
}
