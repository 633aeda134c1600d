package people

import (
	"math/rand/v2"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/photoctl/photoctl/ml/faces"
	"github.com/photoctl/photoctl/server/query"
	"github.com/photoctl/photoctl/server/store"
)

func TestDefaultThresholdIsTheOneMeasuredForTheFaceModel(t *testing.T) {
	require.Equal(t, faces.SamePerson, DefaultClusterConfig().Threshold)
}

func TestClusterAssetGroupsFacesByPersonAndKeepsPeopleApart(t *testing.T) {
	f := newFixture(t)
	c := f.clusterer(3)
	rng := rand.New(rand.NewPCG(1, 2))
	centers := [][]float32{SynthCenter(rng), SynthCenter(rng), SynthCenter(rng)}
	who := map[string]int{} // face → identity
	for round := range 5 {
		for id, center := range centers {
			asset, ids := f.asset(SynthFace(rng, center, 0.8))
			who[ids[0]] = id
			require.NoError(t, c.ClusterAsset(f.ctx, asset), "round %d", round)
		}
	}
	// A group photo of all three.
	group, ids := f.asset(SynthFace(rng, centers[0], 0.8), SynthFace(rng, centers[1], 0.8), SynthFace(rng, centers[2], 0.8))
	for i, id := range ids {
		who[id] = i
	}
	require.NoError(t, c.ClusterAsset(f.ctx, group))
	require.NoError(t, c.ClusterAsset(f.ctx, group), "a re-run places nothing twice")

	personOf := map[int]string{}
	for face, id := range who {
		p := f.personOf(face)
		require.NotEmpty(t, p)
		if personOf[id] == "" {
			personOf[id] = p
		}
		require.Equal(t, personOf[id], p, "every face of identity %d with one person", id)
	}
	require.Len(t, f.people(), 3)
	for _, p := range f.people() {
		require.True(t, p.Machine)
		require.True(t, p.Verified)
		require.Equal(t, 6, p.FaceCount)
	}
	requireExactCentroids(t, f)
}

// requireExactCentroids checks every stored centroid against the sum of
// its person's faces.
func requireExactCentroids(t *testing.T, f *fixture) {
	t.Helper()
	rows, err := f.st.Read().Clustering().Centroids(f.ctx, f.lib, 0)
	require.NoError(t, err)
	for _, row := range rows {
		require.False(t, row.Stale, "person %s", row.PersonID)
		list, err := f.st.Read().Clustering().PersonFaces(f.ctx, row.PersonID)
		require.NoError(t, err)
		require.Equal(t, len(list), row.N, "person %s", row.PersonID)
		if row.N == 0 {
			continue
		}
		want := make([]float32, dim)
		for _, face := range list {
			v, err := decodeVec(nil, face.Embedding)
			require.NoError(t, err)
			addVec(want, v, 1)
		}
		got, err := decodeVec(nil, row.Sum)
		require.NoError(t, err)
		for i := range want {
			require.InDelta(t, want[i], got[i], 1e-4, "person %s", row.PersonID)
		}
	}
}

func TestTwoTasksThatSeeOneNewPersonAtOnceMakeOneCluster(t *testing.T) {
	f := newFixture(t)
	// Two processes: each has its own index.
	c1, c2 := f.clusterer(3), f.clusterer(3)
	rng := rand.New(rand.NewPCG(3, 4))
	x := SynthCenter(rng)
	a1, f1 := f.asset(SynthFace(rng, x, 0.8))
	a2, f2 := f.asset(SynthFace(rng, x, 0.8))

	// Both look before either writes: neither index knows anyone.
	p1, err := c1.plan(f.ctx, a1)
	require.NoError(t, err)
	p2, err := c2.plan(f.ctx, a2)
	require.NoError(t, err)
	require.Empty(t, p1.cands[0])
	require.Empty(t, p2.cands[0])

	require.NoError(t, f.st.InTx(f.ctx, func(r store.Repos) error { return c1.place(f.ctx, r, p1) }))
	require.NoError(t, f.st.InTx(f.ctx, func(r store.Repos) error { return c2.place(f.ctx, r, p2) }))
	require.Equal(t, f.personOf(f1[0]), f.personOf(f2[0]), "the second joins the cluster the first made")
	require.Len(t, f.people(), 1)
	requireExactCentroids(t, f)
}

func TestCentroidsFollowChangesMadeOutsideTheClustering(t *testing.T) {
	f := newFixture(t)
	c := f.clusterer(1)
	rng := rand.New(rand.NewPCG(5, 6))
	x, y := SynthCenter(rng), SynthCenter(rng)
	var xs, ys []string
	for range 3 {
		a, ids := f.asset(SynthFace(rng, x, 0.8))
		require.NoError(t, c.ClusterAsset(f.ctx, a))
		xs = append(xs, ids[0])
		a, ids = f.asset(SynthFace(rng, y, 0.8))
		require.NoError(t, c.ClusterAsset(f.ctx, a))
		ys = append(ys, ids[0])
	}
	px, py := f.personOf(xs[0]), f.personOf(ys[0])
	require.NotEqual(t, px, py)

	// A user moves a face of x to y, and an asset of y goes.
	require.NoError(t, f.st.InTx(f.ctx, func(r store.Repos) error {
		return r.Faces().Assign(f.ctx, xs[:1], &py, f.now)
	}))
	face, err := f.st.Read().Faces().Get(f.ctx, ys[2])
	require.NoError(t, err)
	require.NoError(t, f.st.InTx(f.ctx, func(r store.Repos) error {
		return r.Assets().Delete(f.ctx, []string{face.AssetID})
	}))
	stale, err := f.st.Read().Clustering().StaleCentroids(f.ctx, f.lib)
	require.NoError(t, err)
	require.ElementsMatch(t, []string{px, py}, stale)

	// The next task sums them anew before searching.
	a, ids := f.asset(SynthFace(rng, x, 0.8))
	require.NoError(t, c.ClusterAsset(f.ctx, a))
	require.Equal(t, px, f.personOf(ids[0]))
	requireExactCentroids(t, f)
	moved, err := f.st.Read().Faces().Get(f.ctx, xs[0])
	require.NoError(t, err)
	require.Equal(t, py, *moved.PersonID, "the user's move stays")
}

func TestClusterSchedulesAReclusterAndBringsItForwardAfterABurst(t *testing.T) {
	f := newFixture(t)
	c := f.clusterer(3)
	c.cfg.ReclusterBurst = 4
	rng := rand.New(rand.NewPCG(7, 8))
	due := func() time.Time {
		t.Helper()
		list, _, err := f.st.Read().Tasks().List(f.ctx, query.TaskFilter{LibraryID: f.lib, Kind: KindRecluster,
			State: "queued"}, query.Page{Limit: 10})
		require.NoError(t, err)
		require.Len(t, list, 1)
		return list[0].RunAfter
	}
	a, _ := f.asset(SynthFace(rng, SynthCenter(rng), 0.8))
	require.NoError(t, c.ClusterAsset(f.ctx, a))
	require.Equal(t, f.now.Add(time.Hour), due())
	a, _ = f.asset(SynthFace(rng, SynthCenter(rng), 0.8), SynthFace(rng, SynthCenter(rng), 0.8),
		SynthFace(rng, SynthCenter(rng), 0.8))
	require.NoError(t, c.ClusterAsset(f.ctx, a))
	require.Equal(t, f.now, due(), "four new faces: a burst")
}

func TestReclusterDeletesMachineClustersLeftWithoutFaces(t *testing.T) {
	f := newFixture(t)
	c := f.clusterer(1)
	rng := rand.New(rand.NewPCG(9, 10))
	a, ids := f.asset(SynthFace(rng, SynthCenter(rng), 0.8))
	require.NoError(t, c.ClusterAsset(f.ctx, a))
	p := f.personOf(ids[0])
	require.NoError(t, f.st.InTx(f.ctx, func(r store.Repos) error { return r.Assets().Delete(f.ctx, []string{a}) }))
	stats, err := c.Recluster(f.ctx, f.lib)
	require.NoError(t, err)
	require.Equal(t, 1, stats.Deleted)
	require.Empty(t, f.people())
	_, err = f.st.Read().People().Get(f.ctx, p)
	require.Error(t, err)
}
