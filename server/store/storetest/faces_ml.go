package storetest

import (
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/photoctl/photoctl/server/catalog"
	"github.com/photoctl/photoctl/server/store"
)

// faceMLCases are the contracts the faces step relies on.
var faceMLCases = []testCase{
	{"replaceable faces are the machine's that no user decision holds", func(t *testing.T, s store.Store) {
		w := newPeopleWorld(t, s, 2)
		asset := w.assets[0]
		free := makeFace(t, s, w.lib.ID, asset, nil, 1)
		clustered := makeFace(t, s, w.lib.ID, asset, nil, 2)
		confirmed := makeFace(t, s, w.lib.ID, asset, nil, 3)
		reassigned := makeFace(t, s, w.lib.ID, asset, nil, 4)
		takenAway := makeFace(t, s, w.lib.ID, asset, nil, 5)
		manual := &catalog.Face{ID: catalog.NewID(catalog.PrefixFace, at(6)), AssetID: asset, LibraryID: w.lib.ID,
			Box: catalog.BoundingBox{X: 0.5, Y: 0.5, Width: 0.1, Height: 0.1}, Source: catalog.FaceManual,
			CreatedAt: at(6), UpdatedAt: at(6)}
		makeFace(t, s, w.lib.ID, w.assets[1], nil, 7) // another asset's
		ann := makePerson(t, s, w.lib.ID, "Ann", 8)
		clusterA := &catalog.Person{ID: catalog.NewID(catalog.PrefixPerson, at(9)), LibraryID: w.lib.ID,
			CreatedAt: at(9), UpdatedAt: at(9)}
		clusterB := &catalog.Person{ID: catalog.NewID(catalog.PrefixPerson, at(10)), LibraryID: w.lib.ID,
			CreatedAt: at(10), UpdatedAt: at(10)}
		write(t, s, func(r store.Repos) error {
			if err := r.Faces().Create(ctx(t), manual); err != nil {
				return err
			}
			for _, c := range []*catalog.Person{clusterA, clusterB} {
				if err := r.Clustering().CreateCluster(ctx(t), c); err != nil {
					return err
				}
			}
			if _, err := r.Clustering().Place(ctx(t), []string{clustered.ID}, nil, clusterA.ID, at(11)); err != nil {
				return err
			}
			if _, err := r.Clustering().Place(ctx(t), []string{confirmed.ID}, nil, clusterB.ID, at(11)); err != nil {
				return err
			}
			if err := r.Clustering().Confirm(ctx(t), clusterB.ID); err != nil {
				return err
			}
			if err := r.Faces().Assign(ctx(t), []string{reassigned.ID}, &ann.ID, at(12)); err != nil {
				return err
			}
			return r.Faces().Assign(ctx(t), []string{takenAway.ID}, nil, at(12))
		})
		got, err := s.Read().Faces().Replaceable(ctx(t), asset)
		require.NoError(t, err)
		ids := make([]string, len(got))
		for i, f := range got {
			ids[i] = f.ID
		}
		require.Equal(t, []string{free.ID, clustered.ID}, ids,
			"a free face and one the machine clustered; not a face in a confirmed person, reassigned, taken away or drawn")
		require.Equal(t, &clusterA.ID, got[1].PersonID)
	}},
}
