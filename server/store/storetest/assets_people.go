package storetest

import (
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/photoctl/photoctl/server/catalog"
	"github.com/photoctl/photoctl/server/query"
	"github.com/photoctl/photoctl/server/store"
)

// assetPeopleCases check the asset list's person_ids filter, which reads
// the faces' person links (kept by the People and Faces repositories).
var assetPeopleCases = []testCase{
	{"person_ids keeps the assets holding a face of every one of the people, in timeline order", func(t *testing.T, s store.Store) {
		w := newAssetWorld(t, s)
		ann := makePerson(t, s, w.lib.ID, "Ann", 1)
		bob := makePerson(t, s, w.lib.ID, "Bob", 2)
		a := w.put(t, s, w.lib, wallAt(1, 10), atPosition(10, 50))
		b := w.put(t, s, w.lib, wallAt(2, 10))
		c := w.put(t, s, w.lib, wallAt(3, 10), atPosition(10, 50))
		d := w.put(t, s, w.lib, wallAt(4, 10))
		gone := w.put(t, s, w.lib, wallAt(5, 10))
		for i, link := range []struct {
			asset  *catalog.Asset
			person *catalog.Person
		}{{a, ann}, {b, ann}, {b, ann}, {b, bob}, {c, bob}, {c, ann}, {gone, ann}} {
			makeFace(t, s, w.lib.ID, link.asset.ID, &link.person.ID, 10+i)
		}
		makeFace(t, s, w.lib.ID, d.ID, nil, 20) // an unassigned face
		setTrashed(t, s, true, gone)

		f := query.AssetFilter{LibraryID: w.lib.ID, PersonIDs: []string{ann.ID}}
		checkPaging(t, []string{c.ID, b.ID, a.ID}, assetID, assetLister(t, s, f))
		f.Asc = true
		checkPaging(t, []string{a.ID, b.ID, c.ID}, assetID, assetLister(t, s, f))
		f = query.AssetFilter{LibraryID: w.lib.ID, PersonIDs: []string{ann.ID, bob.ID}}
		checkPaging(t, []string{c.ID, b.ID}, assetID, assetLister(t, s, f))
		f.PersonIDs = []string{bob.ID, ann.ID, bob.ID}
		checkPaging(t, []string{c.ID, b.ID}, assetID, assetLister(t, s, f))
		f.Location = boxOf(0, 40, 20, 60)
		checkPaging(t, []string{c.ID}, assetID, assetLister(t, s, f))
		f = query.AssetFilter{LibraryID: w.lib.ID, PersonIDs: []string{ann.ID},
			Capture: catalog.CaptureRange{After: wallBound(wallAt(2, 0)), Before: wallBound(wallAt(3, 0))}}
		checkPaging(t, []string{b.ID}, assetID, assetLister(t, s, f))
		f = query.AssetFilter{LibraryID: w.lib.ID, PersonIDs: []string{ann.ID}, State: query.StateTrashed}
		checkPaging(t, []string{gone.ID}, assetID, assetLister(t, s, f))
		f = query.AssetFilter{LibraryID: w.lib.ID, PersonIDs: []string{"person_unknown"}}
		checkPaging(t, []string{}, assetID, assetLister(t, s, f))

		// A new capture time moves the asset in the person's timeline.
		a.Capture.Wall, a.UpdatedAt = wallAt(9, 10), at(90)
		write(t, s, func(r store.Repos) error { return r.Assets().Update(ctx(t), a) })
		checkPaging(t, []string{a.ID, c.ID, b.ID}, assetID,
			assetLister(t, s, query.AssetFilter{LibraryID: w.lib.ID, PersonIDs: []string{ann.ID}}))
		// A cursor that is not one of the person's assets is a validation error.
		_, _, err := s.Read().Assets().List(ctx(t), query.AssetFilter{LibraryID: w.lib.ID, PersonIDs: []string{bob.ID}},
			query.Page{Limit: 2, AfterID: a.ID})
		requireInvalidCursor(t, err)
		require.NotEmpty(t, d.ID)
	}},
}
