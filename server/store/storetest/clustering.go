package storetest

import (
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/photoctl/photoctl/server/catalog"
	"github.com/photoctl/photoctl/server/query"
	"github.com/photoctl/photoctl/server/store"
)

// machineCluster saves an unverified machine cluster created at minute m.
func machineCluster(t *testing.T, s store.Store, libraryID string, m int) string {
	t.Helper()
	p := &catalog.Person{ID: catalog.NewID(catalog.PrefixPerson, at(m)), LibraryID: libraryID, CreatedAt: at(m),
		UpdatedAt: at(m)}
	write(t, s, func(r store.Repos) error { return r.Clustering().CreateCluster(ctx(t), p) })
	return p.ID
}

// centroid reads a person's centroid row.
func centroid(t *testing.T, s store.Store, personID string) *store.Centroid {
	t.Helper()
	c, err := s.Read().Clustering().Centroid(ctx(t), personID)
	require.NoError(t, err)
	return c
}

var clusteringCases = []testCase{
	{"a face a user gives a person marks the centroid stale and moves the generation", func(t *testing.T, s store.Store) {
		w := newPeopleWorld(t, s, 1)
		p := makePerson(t, s, w.lib.ID, "Ann", 1)
		_, err := s.Read().Clustering().Centroid(ctx(t), p.ID)
		requireKind(t, err, catalog.ErrNotFound)
		f := makeFace(t, s, w.lib.ID, w.assets[0], nil, 2)
		write(t, s, func(r store.Repos) error { return r.Faces().Assign(ctx(t), []string{f.ID}, &p.ID, at(3)) })
		c := centroid(t, s, p.ID)
		require.True(t, c.Stale)
		st, err := s.Read().Clustering().State(ctx(t), w.lib.ID)
		require.NoError(t, err)
		require.Equal(t, st.Generation, c.Version)
		stale, err := s.Read().Clustering().StaleCentroids(ctx(t), w.lib.ID)
		require.NoError(t, err)
		require.Equal(t, []string{p.ID}, stale)
	}},
	{"a stored sum clears staleness under a newer generation, read back since the older one", func(t *testing.T, s store.Store) {
		w := newPeopleWorld(t, s, 0)
		a, b := makePerson(t, s, w.lib.ID, "A", 1), makePerson(t, s, w.lib.ID, "B", 2)
		var ga, gb int64
		write(t, s, func(r store.Repos) error {
			var err error
			if ga, err = r.Clustering().PutCentroid(ctx(t), store.Centroid{PersonID: a.ID, LibraryID: w.lib.ID,
				Sum: []byte{1, 0, 0, 0}, N: 1}); err != nil {
				return err
			}
			gb, err = r.Clustering().PutCentroid(ctx(t), store.Centroid{PersonID: b.ID, LibraryID: w.lib.ID,
				Sum: []byte{2, 0, 0, 0}, N: 2})
			return err
		})
		require.Greater(t, gb, ga)
		rows, err := s.Read().Clustering().Centroids(ctx(t), w.lib.ID, ga)
		require.NoError(t, err)
		require.Equal(t, []store.Centroid{{PersonID: b.ID, LibraryID: w.lib.ID, Sum: []byte{2, 0, 0, 0}, N: 2,
			Version: gb}}, rows)
		all, err := s.Read().Clustering().Centroids(ctx(t), w.lib.ID, 0)
		require.NoError(t, err)
		require.Len(t, all, 2)
	}},
	{"deleting a person with a centroid moves the epoch", func(t *testing.T, s store.Store) {
		w := newPeopleWorld(t, s, 0)
		p := makePerson(t, s, w.lib.ID, "A", 1)
		write(t, s, func(r store.Repos) error {
			_, err := r.Clustering().PutCentroid(ctx(t), store.Centroid{PersonID: p.ID, LibraryID: w.lib.ID,
				Sum: []byte{1, 0, 0, 0}, N: 1})
			return err
		})
		before, err := s.Read().Clustering().State(ctx(t), w.lib.ID)
		require.NoError(t, err)
		write(t, s, func(r store.Repos) error { return r.People().Delete(ctx(t), []string{p.ID}) })
		after, err := s.Read().Clustering().State(ctx(t), w.lib.ID)
		require.NoError(t, err)
		require.Greater(t, after.Epoch, before.Epoch)
		require.Greater(t, after.Generation, before.Generation)
	}},
	{"the machine places only faces no user decided on", func(t *testing.T, s store.Store) {
		w := newPeopleWorld(t, s, 3)
		cluster := machineCluster(t, s, w.lib.ID, 1)
		named := makePerson(t, s, w.lib.ID, "Ann", 2)
		free := makeFace(t, s, w.lib.ID, w.assets[0], nil, 3)
		taken := makeFace(t, s, w.lib.ID, w.assets[1], nil, 4)
		ofNamed := makeFace(t, s, w.lib.ID, w.assets[2], &named.ID, 5)
		write(t, s, func(r store.Repos) error { return r.Faces().Assign(ctx(t), []string{taken.ID}, nil, at(6)) })

		pending, err := s.Read().Clustering().PendingFaces(ctx(t), w.assets[0])
		require.NoError(t, err)
		require.Len(t, pending, 1)
		require.Equal(t, free.ID, pending[0].ID)
		require.False(t, pending[0].ByUser)
		none, err := s.Read().Clustering().PendingFaces(ctx(t), w.assets[1])
		require.NoError(t, err)
		require.Empty(t, none, "a face a user took away from a person is not pending")

		var moved []string
		write(t, s, func(r store.Repos) error {
			var err error
			moved, err = r.Clustering().Place(ctx(t), []string{free.ID, taken.ID}, nil, cluster, at(7))
			if err != nil {
				return err
			}
			more, err := r.Clustering().Place(ctx(t), []string{ofNamed.ID}, &named.ID, cluster, at(7))
			moved = append(moved, more...)
			return err
		})
		require.Equal(t, []string{free.ID}, moved)
		requireCounts(t, s, cluster, 1, 1, &free.ID)
		movable, err := s.Read().Clustering().MovableFaces(ctx(t), w.lib.ID)
		require.NoError(t, err)
		require.Len(t, movable, 1)
		require.Equal(t, free.ID, movable[0].ID)
	}},
	{"a confirmed cluster is the user's: its faces stay and it is never deleted", func(t *testing.T, s store.Store) {
		w := newPeopleWorld(t, s, 1)
		a, b := machineCluster(t, s, w.lib.ID, 1), machineCluster(t, s, w.lib.ID, 2)
		f := makeFace(t, s, w.lib.ID, w.assets[0], nil, 3)
		write(t, s, func(r store.Repos) error {
			_, err := r.Clustering().Place(ctx(t), []string{f.ID}, nil, a, at(4))
			if err != nil {
				return err
			}
			return r.Clustering().Confirm(ctx(t), a)
		})
		var moved, deleted []string
		write(t, s, func(r store.Repos) error {
			var err error
			if moved, err = r.Clustering().Place(ctx(t), []string{f.ID}, &a, b, at(5)); err != nil {
				return err
			}
			deleted, err = r.Clustering().DeleteEmpty(ctx(t), []string{a, b})
			return err
		})
		require.Empty(t, moved)
		require.Equal(t, []string{b}, deleted, "only the empty machine cluster goes")
		people, err := s.Read().Clustering().People(ctx(t), w.lib.ID)
		require.NoError(t, err)
		require.Equal(t, []store.ClusterPerson{{ID: a, FaceCount: 1}}, people)
	}},
	{"the featured face is the best one unless a user chose it", func(t *testing.T, s store.Store) {
		w := newPeopleWorld(t, s, 2)
		p := machineCluster(t, s, w.lib.ID, 1)
		first := makeFace(t, s, w.lib.ID, w.assets[0], &p, 2) // featured by the triggers
		bigger := &catalog.Face{ID: catalog.NewID(catalog.PrefixFace, at(3)), AssetID: w.assets[1], LibraryID: w.lib.ID,
			PersonID: &p, Box: catalog.BoundingBox{Width: 0.5, Height: 0.5}, Source: catalog.FaceMachine,
			Confidence: ptr(0.9), CreatedAt: at(3), UpdatedAt: at(3)}
		write(t, s, func(r store.Repos) error { return r.Faces().Create(ctx(t), bigger) })
		var better, best bool
		write(t, s, func(r store.Repos) error {
			var err error
			if better, err = r.Clustering().FeatureIfBetter(ctx(t), p, first.ID, 0.01); err != nil {
				return err
			}
			best, err = r.Clustering().FeatureBest(ctx(t), p)
			return err
		})
		require.False(t, better, "already featured")
		require.True(t, best)
		require.Equal(t, bigger.ID, *getPerson(t, s, p).ThumbnailFaceID)

		write(t, s, func(r store.Repos) error {
			pe, err := r.People().Get(ctx(t), p)
			if err != nil {
				return err
			}
			pe.ThumbnailFaceID = &first.ID
			if err := r.People().Update(ctx(t), pe); err != nil {
				return err
			}
			if err := r.Clustering().ChooseThumbnail(ctx(t), p, first.ID); err != nil {
				return err
			}
			best, err = r.Clustering().FeatureBest(ctx(t), p)
			return err
		})
		require.False(t, best)
		require.Equal(t, first.ID, *getPerson(t, s, p).ThumbnailFaceID)
	}},
	{"only a machine cluster's verified flag is the machine's to set", func(t *testing.T, s store.Store) {
		w := newPeopleWorld(t, s, 0)
		cluster := machineCluster(t, s, w.lib.ID, 1)
		named := makePerson(t, s, w.lib.ID, "Ann", 2)
		var a, b bool
		write(t, s, func(r store.Repos) error {
			var err error
			if a, err = r.Clustering().SetMachineVerified(ctx(t), cluster, true); err != nil {
				return err
			}
			b, err = r.Clustering().SetMachineVerified(ctx(t), named.ID, false)
			return err
		})
		require.True(t, a)
		require.False(t, b)
		require.True(t, getPerson(t, s, named.ID).Verified)
	}},
	{"new faces add up until a re-cluster", func(t *testing.T, s store.Store) {
		w := newPeopleWorld(t, s, 0)
		var n int
		write(t, s, func(r store.Repos) error {
			if _, err := r.Clustering().CountNewFaces(ctx(t), w.lib.ID, 3); err != nil {
				return err
			}
			var err error
			n, err = r.Clustering().CountNewFaces(ctx(t), w.lib.ID, 2)
			return err
		})
		require.Equal(t, 5, n)
		write(t, s, func(r store.Repos) error { return r.Clustering().Reclustered(ctx(t), w.lib.ID, at(9)) })
		st, err := s.Read().Clustering().State(ctx(t), w.lib.ID)
		require.NoError(t, err)
		require.Zero(t, st.NewFaces)
		require.Equal(t, at(9), *st.ReclusteredAt)
	}},
	{"scheduling a queued task brings it forward, never back", func(t *testing.T, s store.Store) {
		w := newPeopleWorld(t, s, 0)
		task := func(m int) *catalog.Task {
			return &catalog.Task{ID: catalog.NewID(catalog.PrefixTask, at(m)), Kind: "recluster",
				LibraryID: w.lib.ID, RunAfter: at(m), CreatedAt: at(0)}
		}
		for _, m := range []int{60, 90, 30} {
			write(t, s, func(r store.Repos) error { return r.Clustering().Schedule(ctx(t), task(m)) })
		}
		list, _, err := s.Read().Tasks().List(ctx(t), query.TaskFilter{LibraryID: w.lib.ID}, query.Page{Limit: 10})
		require.NoError(t, err)
		require.Len(t, list, 1)
		require.Equal(t, at(30), list[0].RunAfter)
		require.Equal(t, catalog.TaskQueued, list[0].State)
	}},
}
