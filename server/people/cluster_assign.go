package people

import (
	"cmp"
	"context"
	"errors"
	"maps"
	"slices"

	"github.com/photoctl/photoctl/server/catalog"
	"github.com/photoctl/photoctl/server/store"
)

// candidates is how many nearest people each face keeps: when two faces
// of one photo want the same person, the weaker one tries its next.
const candidates = 4

// candidate is a person a face may join, and their similarity.
type candidate struct {
	personID string
	sim      float32
}

// ClusterAsset places the asset's machine faces that nobody has placed:
// each joins the person whose centroid it is most similar to, at or above
// the threshold, else starts a new unverified machine cluster. Two faces
// of one photo never join the same person, nor a person already in it.
// Idempotent: a placed face is not pending any more.
//
// The nearest people are found in the library's in-memory index without
// holding the library's write lock; the transaction then compares the faces with the
// centroids that changed since (another task's new cluster), so two tasks
// seeing the same new person at once end with one cluster.
func (c *Clusterer) ClusterAsset(ctx context.Context, assetID string) error {
	plan, err := c.plan(ctx, assetID)
	if err != nil || plan == nil {
		return err
	}
	return c.st.InLibraryTx(ctx, plan.libraryID, func(r store.Repos) error { return c.place(ctx, r, plan) })
}

// assetPlan is an asset's pending faces with their nearest people as of
// the library's generation gen.
type assetPlan struct {
	libraryID, assetID string
	faces              []vface
	cands              [][]candidate
	gen                int64
}

// plan finds the asset's pending faces and their nearest people in the
// library's index; nil when there is nothing to place.
func (c *Clusterer) plan(ctx context.Context, assetID string) (*assetPlan, error) {
	list, err := c.st.Read().Clustering().PendingFaces(ctx, assetID)
	if err != nil {
		return nil, err
	}
	faces := c.decodeFaces(list)
	if len(faces) == 0 {
		return nil, nil
	}
	p := &assetPlan{libraryID: faces[0].LibraryID, assetID: assetID, faces: faces, cands: make([][]candidate, len(faces))}
	idx := c.index(p.libraryID)
	idx.mu.Lock()
	defer idx.mu.Unlock()
	if err := c.refresh(ctx, idx); err != nil {
		return nil, err
	}
	for i, f := range faces {
		for _, h := range idx.set.nearest(f.vec, candidates) {
			p.cands[i] = append(p.cands[i], candidate{personID: idx.set.ids[h.at], sim: h.sim})
		}
	}
	p.gen = idx.gen
	return p, nil
}

// place is ClusterAsset's transaction.
func (c *Clusterer) place(ctx context.Context, r store.Repos, p *assetPlan) error {
	now := c.now().UTC()
	libraryID := p.libraryID
	still, err := r.Clustering().PendingFaces(ctx, p.assetID)
	if err != nil {
		return err
	}
	faces, cands := stillPending(p.faces, p.cands, still)
	if err := c.compareNewer(ctx, r, libraryID, p.gen, faces, cands); err != nil {
		return err
	}
	chosen, err := c.choose(ctx, r, p.assetID, faces, cands)
	if err != nil {
		return err
	}
	groups := map[string][]vface{}
	s := newSettlement()
	for i, f := range faces {
		personID := chosen[i]
		if personID == "" {
			if personID, err = c.newCluster(ctx, r, libraryID, now); err != nil {
				return err
			}
			s.created = append(s.created, personID)
		}
		groups[personID] = append(groups[personID], f)
	}
	var n int
	for _, personID := range slices.Sorted(maps.Keys(groups)) {
		moved, err := move(ctx, r, libraryID, nil, personID, groups[personID], now)
		if err != nil {
			return err
		}
		s.gain(personID, moved)
		n += len(moved)
	}
	if n == 0 {
		return nil
	}
	if err := c.settle(ctx, r, libraryID, s, now); err != nil {
		return err
	}
	return c.schedule(ctx, r, libraryID, n, now)
}

// stillPending keeps the faces (and their candidates) that are still
// pending: a re-run or the re-cluster may have placed some meanwhile.
func stillPending(faces []vface, cands [][]candidate, still []store.ClusterFace) ([]vface, [][]candidate) {
	var fs []vface
	var cs [][]candidate
	for i, f := range faces {
		if slices.ContainsFunc(still, func(s store.ClusterFace) bool { return s.ID == f.ID }) {
			fs, cs = append(fs, f), append(cs, cands[i])
		}
	}
	return fs, cs
}

// compareNewer adds to each face's candidates the people whose centroid
// changed after generation gen, with their current similarity.
func (c *Clusterer) compareNewer(ctx context.Context, r store.Repos, libraryID string, gen int64, faces []vface,
	cands [][]candidate) error {
	rows, err := r.Clustering().Centroids(ctx, libraryID, gen)
	if err != nil {
		return err
	}
	var sum []float32
	for _, row := range rows {
		if row.Stale || row.N == 0 {
			continue
		}
		if sum, err = decodeVec(sum, row.Sum); err != nil {
			continue
		}
		inv := invNorm(sum)
		for i, f := range faces {
			sim := dot(f.vec, sum) * inv
			at := slices.IndexFunc(cands[i], func(c candidate) bool { return c.personID == row.PersonID })
			if at >= 0 {
				cands[i][at].sim = sim
			} else {
				cands[i] = append(cands[i], candidate{personID: row.PersonID, sim: sim})
			}
		}
	}
	return nil
}

// choose picks each face's person, "" for a new cluster: the most similar
// pairs first, each person at most once per photo and never one already
// in it, only at or above the threshold, only people that still exist.
func (c *Clusterer) choose(ctx context.Context, r store.Repos, assetID string, faces []vface,
	cands [][]candidate) ([]string, error) {
	type pair struct {
		face int
		candidate
	}
	var pairs []pair
	for i := range faces {
		for _, cd := range cands[i] {
			if float64(cd.sim) >= c.cfg.Threshold {
				pairs = append(pairs, pair{face: i, candidate: cd})
			}
		}
	}
	slices.SortStableFunc(pairs, func(a, b pair) int { return cmp.Compare(b.sim, a.sim) })
	taken := map[string]bool{}
	inAsset, err := r.People().ForAssets(ctx, []string{assetID})
	if err != nil {
		return nil, err
	}
	for _, pe := range inAsset[assetID] {
		taken[pe.ID] = true
	}
	chosen := make([]string, len(faces))
	for _, p := range pairs {
		if chosen[p.face] != "" || taken[p.personID] {
			continue
		}
		if _, err := r.People().Get(ctx, p.personID); errors.Is(err, catalog.ErrNotFound) {
			continue // deleted since the index was read
		} else if err != nil {
			return nil, err
		}
		chosen[p.face], taken[p.personID] = p.personID, true
	}
	return chosen, nil
}
