package people

import (
	"cmp"
	"context"
	"maps"
	"math"
	"slices"
	"strconv"
)

// regrouping is the re-cluster's input, all in memory: the faces the
// machine may move, where each sits now, and the people it may not touch.
type regrouping struct {
	faces []vface
	// clusterOf is the machine cluster of each face, "" for none.
	clusterOf []string
	// anchors are the centroids of the people users decided on (named,
	// hidden, edited, merged into, ...): faces may join them, never leave.
	anchors *vecSet
	// threshold is the cosine similarity to join a centroid.
	threshold float32
	// empty are the machine clusters left without faces (not regrouped:
	// the re-cluster deletes them).
	empty []string
}

// newClusterPrefix marks the ids regroup makes up for new clusters.
const newClusterPrefix = "+"

// regroup returns the person each face should be with: an anchor, a
// machine cluster, or a new cluster ("+1", "+2", ...). It
//
//  1. splits outliers off the machine clusters: a face whose similarity to
//     the rest of its cluster is below the threshold leaves it (the face
//     most like the whole stays, so a cluster keeps its id);
//  2. merges clusters, largest first, into the most similar anchor or
//     larger cluster at or above the threshold (centroid linkage), unless
//     both hold a face of one photo;
//  3. places the faces split off and those nobody placed the same way,
//     face by face, starting new clusters for those that match nothing.
//
// Each step is one search of the centroids (vecSet) per cluster or face;
// BenchmarkRecluster measures 100k faces (about 5 s).
func regroup(ctx context.Context, g regrouping) ([]string, error) {
	final := make([]string, len(g.faces))
	members := map[string][]int{}
	var pool []int
	for i, id := range g.clusterOf {
		if id == "" {
			pool = append(pool, i)
		} else {
			members[id] = append(members[id], i)
		}
	}
	kept := newVecSet()
	for i, id := range g.anchors.ids {
		kept.put(id, g.anchors.sum(i), g.anchors.n[i])
	}
	assets := map[string]map[string]bool{} // of kept clusters; anchors' are not known
	clusters := slices.Sorted(maps.Keys(members))
	sums := map[string][]float32{}
	for _, id := range clusters {
		var out []int
		members[id], out = splitOutliers(g, members[id])
		pool = append(pool, out...)
		sums[id] = sumOf(g.faces, members[id])
	}
	slices.SortStableFunc(clusters, func(a, b string) int { return cmp.Compare(len(members[b]), len(members[a])) })
	for n, id := range clusters {
		if n%256 == 0 && ctx.Err() != nil {
			return nil, ctx.Err() // a scan per cluster: the runner may be stopping
		}
		q := unit(sums[id])
		own := assetSet(g.faces, members[id])
		target := g.best(kept, q, own, assets)
		if target == "" {
			target = id
			kept.put(id, sums[id], len(members[id]))
			assets[id] = own
		} else {
			kept.merge(kept.pos[target], sums[id], len(members[id]))
			mergeSets(assets, target, own)
		}
		for _, i := range members[id] {
			final[i] = target
		}
	}
	slices.SortFunc(pool, func(a, b int) int { return cmp.Compare(g.faces[a].ID, g.faces[b].ID) })
	var created int
	for n, i := range pool {
		if n%256 == 0 && ctx.Err() != nil {
			return nil, ctx.Err()
		}
		f := g.faces[i]
		own := map[string]bool{f.AssetID: true}
		target := g.best(kept, f.vec, own, assets)
		if target == "" {
			created++
			target = newClusterPrefix + strconv.Itoa(created)
			kept.put(target, f.vec, 1)
			assets[target] = own
		} else {
			kept.merge(kept.pos[target], f.vec, 1)
			mergeSets(assets, target, own)
		}
		final[i] = target
	}
	return final, nil
}

// best returns the kept entry most similar to the unit vector q at or
// above the threshold whose photos are not among own's, or "".
func (g regrouping) best(kept *vecSet, q []float32, own map[string]bool, assets map[string]map[string]bool) string {
	for _, h := range kept.nearest(q, candidates) {
		if h.sim < g.threshold {
			break
		}
		id := kept.ids[h.at]
		if !overlaps(assets[id], own) {
			return id
		}
	}
	return ""
}

// splitOutliers parts a cluster's members into those that stay and those
// less similar to the rest of the cluster than the threshold.
func splitOutliers(g regrouping, members []int) (stay, out []int) {
	if len(members) < 2 {
		return members, nil
	}
	sum := sumOf(g.faces, members)
	sq := dot(sum, sum)
	core, coreSim := -1, float32(-2)
	for _, i := range members {
		if s := dot(g.faces[i].vec, sum); s > coreSim {
			core, coreSim = i, s
		}
	}
	for _, i := range members {
		// The rest of the cluster: sum − e, with |e| = 1.
		d := dot(g.faces[i].vec, sum)
		rest := sq - 2*d + 1
		if i != core && rest > 1e-6 && (d-1)/float32(math.Sqrt(float64(rest))) < g.threshold {
			out = append(out, i)
		} else {
			stay = append(stay, i)
		}
	}
	return stay, out
}

func sumOf(faces []vface, members []int) []float32 {
	sum := make([]float32, dim)
	for _, i := range members {
		addVec(sum, faces[i].vec, 1)
	}
	return sum
}

func unit(v []float32) []float32 {
	out := slices.Clone(v)
	inv := invNorm(v)
	for i := range out {
		out[i] *= inv
	}
	return out
}

func assetSet(faces []vface, members []int) map[string]bool {
	out := make(map[string]bool, len(members))
	for _, i := range members {
		out[faces[i].AssetID] = true
	}
	return out
}

func overlaps(a, b map[string]bool) bool {
	if len(a) > len(b) {
		a, b = b, a
	}
	for k := range a {
		if b[k] {
			return true
		}
	}
	return false
}

func mergeSets(sets map[string]map[string]bool, id string, add map[string]bool) {
	if sets[id] == nil {
		return // an anchor: its photos are not tracked
	}
	for k := range add {
		sets[id][k] = true
	}
}
