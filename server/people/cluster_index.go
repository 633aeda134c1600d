package people

import (
	"context"
	"errors"
	"fmt"
	"sync"

	"github.com/photoctl/photoctl/server/catalog"
	"github.com/photoctl/photoctl/server/store"
)

// libraryIndex is one library's person centroids in memory, as of the
// library's clustering generation gen (and epoch).
type libraryIndex struct {
	mu         sync.Mutex
	libraryID  string
	loaded     bool
	gen, epoch int64
	set        *vecSet
}

// index returns the library's index (empty until refreshed).
func (c *Clusterer) index(libraryID string) *libraryIndex {
	c.mu.Lock()
	defer c.mu.Unlock()
	idx := c.indexes[libraryID]
	if idx == nil {
		idx = &libraryIndex{libraryID: libraryID, set: newVecSet()}
		c.indexes[libraryID] = idx
	}
	return idx
}

// refresh brings idx up to date with the store: stale centroids are summed
// anew first, then the rows changed since idx.gen are read — all of them
// when a row was deleted since (the epoch moved), which a version cannot
// show. The caller holds idx.mu.
func (c *Clusterer) refresh(ctx context.Context, idx *libraryIndex) error {
	r := c.st.Read().Clustering()
	stale, err := r.StaleCentroids(ctx, idx.libraryID)
	if err != nil {
		return err
	}
	if len(stale) > 0 {
		err := c.st.InLibraryTx(ctx, idx.libraryID, func(r store.Repos) error {
			return resumStale(ctx, r, idx.libraryID)
		})
		if err != nil {
			return fmt.Errorf("sum stale centroids: %w", err)
		}
	}
	// The state is read first: rows that change after it are read again
	// next time, never missed.
	state, err := r.State(ctx, idx.libraryID)
	if err != nil {
		return err
	}
	if state.Generation == idx.gen && state.Epoch == idx.epoch && idx.loaded {
		return nil
	}
	since := idx.gen
	if !idx.loaded || state.Epoch != idx.epoch {
		since, idx.set = 0, newVecSet()
	}
	rows, err := r.Centroids(ctx, idx.libraryID, since)
	if err != nil {
		return err
	}
	var v []float32
	for _, row := range rows {
		if row.Stale || row.N == 0 {
			idx.set.remove(row.PersonID) // unknown until summed anew
			continue
		}
		if v, err = decodeVec(v, row.Sum); err != nil {
			return fmt.Errorf("centroid of person %s: %w", row.PersonID, err)
		}
		idx.set.put(row.PersonID, v, row.N)
	}
	idx.gen, idx.epoch, idx.loaded = state.Generation, state.Epoch, true
	return nil
}

// resumStale sums anew, from their faces, the library's centroids that
// other changes (users, deleted assets) made stale.
func resumStale(ctx context.Context, r store.Repos, libraryID string) error {
	stale, err := r.Clustering().StaleCentroids(ctx, libraryID)
	if err != nil {
		return err
	}
	for _, personID := range stale {
		if err := resum(ctx, r, libraryID, personID); err != nil {
			return err
		}
	}
	return nil
}

// resum sets a person's centroid to the sum of its faces' embeddings.
func resum(ctx context.Context, r store.Repos, libraryID, personID string) error {
	faces, err := r.Clustering().PersonFaces(ctx, personID)
	if err != nil {
		return err
	}
	sum := make([]float32, dim)
	var n int
	var v []float32
	for _, f := range faces {
		if v, err = decodeVec(v, f.Embedding); err != nil {
			continue // left out of clustering (decodeFaces logs it)
		}
		addVec(sum, v, 1)
		n++
	}
	_, err = r.Clustering().PutCentroid(ctx, store.Centroid{PersonID: personID, LibraryID: libraryID,
		Sum: encodeVec(sum), N: n})
	return err
}

// centroidBefore reads a person's centroid sum inside a transaction before
// the clustering moves faces: nil when it must be summed anew afterwards
// (stale, or unknown).
func centroidBefore(ctx context.Context, r store.Repos, personID string) ([]float32, int, error) {
	c, err := r.Clustering().Centroid(ctx, personID)
	switch {
	case errors.Is(err, catalog.ErrNotFound):
		return make([]float32, dim), 0, nil // no face with an embedding yet
	case err != nil:
		return nil, 0, err
	case c.Stale:
		return nil, 0, nil
	case c.N == 0:
		return make([]float32, dim), 0, nil
	}
	sum, err := decodeVec(nil, c.Sum)
	if err != nil {
		return nil, 0, nil
	}
	return sum, c.N, nil
}
