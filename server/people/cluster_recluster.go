package people

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"maps"
	"slices"
	"strings"
	"time"

	"github.com/photoctl/photoctl/server/catalog"
	"github.com/photoctl/photoctl/server/store"
)

// reclusterBatch bounds the faces one re-cluster transaction moves, so the
// library's write lock is never held long.
const reclusterBatch = 500

// ReclusterStats says what a re-cluster did.
type ReclusterStats struct {
	Faces    int // faces considered
	Moved    int // faces that went to another person
	Created  int // new machine clusters
	Deleted  int // machine clusters emptied (merged away) or found empty
	Duration time.Duration
}

// regroupMove is faces going from one person (nil: nobody) to another.
type regroupMove struct {
	from  *string
	to    string
	faces []vface
}

// Recluster regroups the library's machine faces (regroup): it merges
// machine clusters that belong together, into each other or into people
// users decided on, splits outliers off, and places faces nobody placed.
// It never undoes a user's decision: it moves only faces the machine
// placed (or nobody did) out of machine clusters, never renames, hides or
// deletes a user's person, and keeps a featured face a user chose. Work
// done meanwhile by users or cluster tasks wins: each move applies only
// to faces still where the re-cluster found them. Idempotent: a second
// run over an unchanged library moves nothing.
func (c *Clusterer) Recluster(ctx context.Context, libraryID string) (ReclusterStats, error) {
	started := time.Now()
	var stats ReclusterStats
	g, err := c.regrouping(ctx, libraryID)
	if err != nil {
		return stats, err
	}
	stats.Faces = len(g.faces)
	final, err := regroup(ctx, g)
	if err != nil {
		return stats, err
	}
	moves := diff(g, final)
	emptied := map[string]string{} // machine clusters moves leave, and where most of their faces went
	for _, m := range moves {
		if m.from != nil && !strings.HasPrefix(m.to, newClusterPrefix) {
			if _, seen := emptied[*m.from]; !seen {
				emptied[*m.from] = m.to
			}
		}
	}
	for _, id := range final {
		delete(emptied, id)
	}
	for _, id := range g.empty {
		emptied[id] = "" // its faces went with their assets, or were found anew
	}
	created := map[string]string{} // regroup's new ids to people ids
	for len(moves) > 0 {
		var batch []regroupMove
		batch, moves = takeBatch(moves)
		var moved int
		err := c.st.InLibraryTx(ctx, libraryID, func(r store.Repos) error {
			var err error
			moved, err = c.applyMoves(ctx, r, libraryID, batch, created)
			return err
		})
		stats.Moved += moved
		if err != nil {
			return stats, fmt.Errorf("re-cluster library %s: %w", libraryID, err)
		}
	}
	stats.Created = len(created)
	err = c.st.InLibraryTx(ctx, libraryID, func(r store.Repos) error {
		now := c.now().UTC()
		n, err := deleteEmptied(ctx, r, libraryID, emptied, now)
		stats.Deleted = n
		if err != nil {
			return err
		}
		return r.Clustering().Reclustered(ctx, libraryID, now)
	})
	stats.Duration = time.Since(started)
	if err == nil {
		c.log.Info("re-clustered library", "library", libraryID, "faces", stats.Faces, "moved", stats.Moved,
			"created", stats.Created, "deleted", stats.Deleted, "took", stats.Duration)
	}
	return stats, err
}

// regrouping reads what the re-cluster works on: the library's movable
// faces, and the centroids of its people that are not machine clusters.
func (c *Clusterer) regrouping(ctx context.Context, libraryID string) (regrouping, error) {
	g := regrouping{threshold: float32(c.cfg.Threshold), anchors: newVecSet()}
	r := c.st.Read().Clustering()
	people, err := r.People(ctx, libraryID)
	if err != nil {
		return g, err
	}
	machine := make(map[string]bool, len(people))
	for _, p := range people {
		machine[p.ID] = p.Machine
		if p.Machine && p.FaceCount == 0 {
			g.empty = append(g.empty, p.ID)
		}
	}
	idx := c.index(libraryID)
	idx.mu.Lock()
	err = c.refresh(ctx, idx)
	if err == nil {
		for i, id := range idx.set.ids {
			if !machine[id] {
				g.anchors.put(id, idx.set.sum(i), idx.set.n[i])
			}
		}
	}
	idx.mu.Unlock()
	if err != nil {
		return g, err
	}
	list, err := r.MovableFaces(ctx, libraryID)
	if err != nil {
		return g, err
	}
	for _, f := range c.decodeFaces(list) {
		switch {
		case f.PersonID == nil:
			g.clusterOf = append(g.clusterOf, "")
		case machine[*f.PersonID]:
			g.clusterOf = append(g.clusterOf, *f.PersonID)
		default:
			continue // a user acted on its person after the people were read
		}
		g.faces = append(g.faces, f)
	}
	return g, nil
}

// diff lists the moves from where the faces are to final, grouped by
// origin and destination, in a fixed order.
func diff(g regrouping, final []string) []regroupMove {
	byKey := map[[2]string]*regroupMove{}
	var out []*regroupMove
	for i, to := range final {
		from := g.clusterOf[i]
		if to == from {
			continue
		}
		key := [2]string{from, to}
		m := byKey[key]
		if m == nil {
			m = &regroupMove{to: to}
			if from != "" {
				m.from = &from
			}
			byKey[key] = m
			out = append(out, m)
		}
		m.faces = append(m.faces, g.faces[i])
	}
	slices.SortFunc(out, func(a, b *regroupMove) int {
		if c := cmp.Compare(len(b.faces), len(a.faces)); c != 0 {
			return c
		}
		return cmp.Compare(a.to, b.to)
	})
	moves := make([]regroupMove, len(out))
	for i, m := range out {
		moves[i] = *m
	}
	return moves
}

// takeBatch takes moves off the front of the list up to reclusterBatch
// faces, splitting a larger move.
func takeBatch(moves []regroupMove) (batch, rest []regroupMove) {
	n := 0
	for len(moves) > 0 && n < reclusterBatch {
		m := moves[0]
		if room := reclusterBatch - n; len(m.faces) > room {
			batch = append(batch, regroupMove{from: m.from, to: m.to, faces: m.faces[:room]})
			moves[0].faces = m.faces[room:]
			return batch, moves
		}
		batch, moves, n = append(batch, m), moves[1:], n+len(m.faces)
	}
	return batch, moves
}

// applyMoves is one re-cluster transaction: new clusters are created on
// their first move (created maps regroup's ids to them), and a move to a
// person deleted meanwhile is dropped.
func (c *Clusterer) applyMoves(ctx context.Context, r store.Repos, libraryID string, batch []regroupMove,
	created map[string]string) (int, error) {
	now := c.now().UTC()
	s := newSettlement()
	made := map[string]string{}
	var n int
	for _, m := range batch {
		to, fresh := m.to, false
		if strings.HasPrefix(to, newClusterPrefix) {
			if id, ok := made[to]; ok {
				to = id
			} else if id, ok := created[to]; ok {
				to = id
			} else {
				id, err := c.newCluster(ctx, r, libraryID, now)
				if err != nil {
					return 0, err
				}
				made[to], to, fresh = id, id, true
				s.created = append(s.created, id)
			}
		} else if ok, err := exists(ctx, r, to); err != nil {
			return 0, err
		} else if !ok {
			continue
		}
		moved, err := move(ctx, r, libraryID, m.from, to, m.faces, now)
		if err != nil {
			return 0, err
		}
		if len(moved) == 0 && fresh {
			// Its faces were placed elsewhere meanwhile: no empty cluster.
			delete(made, m.to)
			s.created = slices.DeleteFunc(s.created, func(id string) bool { return id == to })
			if _, err := deleteEmptied(ctx, r, libraryID, map[string]string{to: ""}, now); err != nil {
				return 0, err
			}
			continue
		}
		s.gain(to, moved)
		n += len(moved)
		if m.from != nil && len(moved) > 0 {
			s.lost = append(s.lost, *m.from)
		}
	}
	if err := c.settle(ctx, r, libraryID, s, now); err != nil {
		return 0, err
	}
	maps.Copy(created, made) // the transaction commits: nothing fails after this
	return n, nil
}

// exists reports whether a person exists.
func exists(ctx context.Context, r store.Repos, personID string) (bool, error) {
	_, err := r.People().Get(ctx, personID)
	if errors.Is(err, catalog.ErrNotFound) {
		return false, nil
	}
	return err == nil, err
}

// deleteEmptied deletes the machine clusters the re-cluster emptied or
// found empty (keys of emptied, with where their faces went or ""), unless
// faces joined them meanwhile, with a person.deleted event each.
func deleteEmptied(ctx context.Context, r store.Repos, libraryID string, emptied map[string]string,
	now time.Time) (int, error) {
	deleted, err := r.Clustering().DeleteEmpty(ctx, slices.Sorted(maps.Keys(emptied)))
	if err != nil {
		return 0, err
	}
	return len(deleted), appendEvents(ctx, r, "person.deleted", libraryID, deleted, func(id string) any {
		if emptied[id] == "" {
			return map[string]any{}
		}
		return map[string]any{"merged_into": emptied[id]}
	}, now)
}
