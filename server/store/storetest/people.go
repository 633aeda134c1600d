package storetest

import (
	"fmt"
	"slices"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/photoctl/photoctl/server/catalog"
	"github.com/photoctl/photoctl/server/query"
	"github.com/photoctl/photoctl/server/store"
)

// peopleWorld is a library with assets, for the people and faces cases.
type peopleWorld struct {
	lib    *catalog.Library
	user   *catalog.User
	assets []string
}

func newPeopleWorld(t *testing.T, s store.Store, assets int) peopleWorld {
	t.Helper()
	u := makeUser(t, s, "alice@example.com")
	w := peopleWorld{lib: makeLibrary(t, s, u.ID, "Family", 0), user: u}
	for i := range assets {
		w.assets = append(w.assets, makeAsset(t, s, w.lib.ID, u.ID, i))
	}
	return w
}

// makePerson saves a verified person created at minute m.
func makePerson(t *testing.T, s store.Store, libraryID, name string, m int) *catalog.Person {
	t.Helper()
	p := &catalog.Person{ID: catalog.NewID(catalog.PrefixPerson, at(m)), LibraryID: libraryID, Name: name,
		Verified: true, CreatedAt: at(m), UpdatedAt: at(m)}
	write(t, s, func(r store.Repos) error { return r.People().Create(ctx(t), p) })
	return p
}

// makeFace saves a machine face on an asset, assigned to personID (may be
// nil), created at minute m.
func makeFace(t *testing.T, s store.Store, libraryID, assetID string, personID *string, m int) *catalog.Face {
	t.Helper()
	f := &catalog.Face{ID: catalog.NewID(catalog.PrefixFace, at(m)), AssetID: assetID, LibraryID: libraryID,
		PersonID: personID, Box: catalog.BoundingBox{X: 0.1, Y: 0.2, Width: 0.3, Height: 0.4},
		Source: catalog.FaceMachine, Confidence: ptr(0.9), Embedding: []byte{1, 2, 3}, CreatedAt: at(m), UpdatedAt: at(m)}
	write(t, s, func(r store.Repos) error { return r.Faces().Create(ctx(t), f) })
	return f
}

func getPerson(t *testing.T, s store.Store, id string) *catalog.Person {
	t.Helper()
	p, err := s.Read().People().Get(ctx(t), id)
	require.NoError(t, err)
	return p
}

// requireCounts requires a person's maintained counts and featured face.
func requireCounts(t *testing.T, s store.Store, id string, faces, assets int, thumb *string) {
	t.Helper()
	p := getPerson(t, s, id)
	require.Equal(t, faces, p.FaceCount, "face_count")
	require.Equal(t, assets, p.AssetCount, "asset_count")
	require.Equal(t, thumb, p.ThumbnailFaceID, "featured face")
}

func listPeople(t *testing.T, s store.Store, f query.PersonFilter) list[catalog.Person] {
	return func(p query.Page) ([]catalog.Person, bool, error) { return s.Read().People().List(ctx(t), f, p) }
}

func personID(p catalog.Person) string { return p.ID }

var personCases = []testCase{
	{"a created person reads back; the same name key in the library conflicts", func(t *testing.T, s store.Store) {
		w := newPeopleWorld(t, s, 0)
		p := &catalog.Person{ID: catalog.NewID(catalog.PrefixPerson, at(1)), LibraryID: w.lib.ID, Name: "Ann",
			BirthDate: ptr("1990-02-03"), IsFavorite: true, Verified: true, CreatedAt: at(1), UpdatedAt: at(2)}
		write(t, s, func(r store.Repos) error { return r.People().Create(ctx(t), p) })
		require.Equal(t, p, getPerson(t, s, p.ID))
		found, err := s.Read().People().FindByName(ctx(t), w.lib.ID, "ann")
		require.NoError(t, err)
		require.Equal(t, p.ID, found.ID)
		err = writeErr(t, s, func(r store.Repos) error {
			return r.People().Create(ctx(t), &catalog.Person{ID: catalog.NewID(catalog.PrefixPerson, at(3)),
				LibraryID: w.lib.ID, Name: " ANN ", CreatedAt: at(3), UpdatedAt: at(3)})
		})
		requireKind(t, err, catalog.ErrConflict)
		_, err = s.Read().People().Get(ctx(t), catalog.NewID(catalog.PrefixPerson, at(9)))
		requireKind(t, err, catalog.ErrNotFound)
	}},
	{"unnamed people never conflict, and renaming to a taken name does", func(t *testing.T, s store.Store) {
		w := newPeopleWorld(t, s, 0)
		a := makePerson(t, s, w.lib.ID, "", 1)
		makePerson(t, s, w.lib.ID, "", 2)
		makePerson(t, s, w.lib.ID, "Bob", 3)
		a.Name = "bob"
		requireKind(t, writeErr(t, s, func(r store.Repos) error { return r.People().Update(ctx(t), a) }),
			catalog.ErrConflict)
		other := makeLibrary(t, s, w.user.ID, "Other", 4)
		makePerson(t, s, other.ID, "Bob", 5)
	}},
	{"the list is newest first, pages exactly and filters", func(t *testing.T, s store.Store) {
		w := newPeopleWorld(t, s, 2)
		alice := makePerson(t, s, w.lib.ID, "Alice Smith", 1)
		alicia := makePerson(t, s, w.lib.ID, "ALICIA", 2)
		bob := makePerson(t, s, w.lib.ID, "Bob", 3)
		unnamed := makePerson(t, s, w.lib.ID, "", 4)
		cluster := &catalog.Person{ID: catalog.NewID(catalog.PrefixPerson, at(5)), LibraryID: w.lib.ID,
			CreatedAt: at(5), UpdatedAt: at(5)} // a small machine cluster: not verified
		write(t, s, func(r store.Repos) error { return r.People().Create(ctx(t), cluster) })
		makePerson(t, s, makeLibrary(t, s, w.user.ID, "Other", 6).ID, "Alice", 7)
		makeFace(t, s, w.lib.ID, w.assets[0], &bob.ID, 8)
		makeFace(t, s, w.lib.ID, w.assets[0], &alice.ID, 9)
		makeFace(t, s, w.lib.ID, w.assets[1], &alicia.ID, 10)

		f := query.PersonFilter{LibraryID: w.lib.ID}
		checkPaging(t, []string{unnamed.ID, bob.ID, alicia.ID, alice.ID}, personID, listPeople(t, s, f))
		f.IncludeUnverified = true
		checkPaging(t, []string{cluster.ID, unnamed.ID, bob.ID, alicia.ID, alice.ID}, personID, listPeople(t, s, f))
		for _, c := range []struct {
			name string
			f    query.PersonFilter
			want []string
		}{
			{"name substring, any case", query.PersonFilter{Name: "aLi"}, []string{alicia.ID, alice.ID}},
			{"named", query.PersonFilter{Named: ptr(true)}, []string{bob.ID, alicia.ID, alice.ID}},
			{"unnamed", query.PersonFilter{Named: ptr(false)}, []string{unnamed.ID}},
			{"ids", query.PersonFilter{IDs: []string{alice.ID, unnamed.ID, cluster.ID}}, []string{unnamed.ID, alice.ID}},
			{"asset", query.PersonFilter{AssetID: w.assets[0]}, []string{bob.ID, alice.ID}},
			{"asset and name", query.PersonFilter{AssetID: w.assets[0], Name: "smith"}, []string{alice.ID}},
		} {
			c.f.LibraryID = w.lib.ID
			checkPaging(t, c.want, personID, listPeople(t, s, c.f))
		}
		_, _, err := s.Read().People().List(ctx(t), f, query.Page{Limit: 5, AfterID: "person_unknown"})
		requireInvalidCursor(t, err)
	}},
	{"faces keep each person's counts and featured face", func(t *testing.T, s store.Store) {
		w := newPeopleWorld(t, s, 3)
		ann, bob := makePerson(t, s, w.lib.ID, "Ann", 1), makePerson(t, s, w.lib.ID, "Bob", 2)
		requireCounts(t, s, ann.ID, 0, 0, nil)
		f1 := makeFace(t, s, w.lib.ID, w.assets[0], &ann.ID, 3)
		f2 := makeFace(t, s, w.lib.ID, w.assets[0], &ann.ID, 4)
		f3 := makeFace(t, s, w.lib.ID, w.assets[1], &ann.ID, 5)
		requireCounts(t, s, ann.ID, 3, 2, &f1.ID)
		p := getPerson(t, s, ann.ID)
		require.Equal(t, &catalog.AssetRef{ID: w.assets[0], MediaType: catalog.MediaImage}, p.ThumbnailAsset)

		write(t, s, func(r store.Repos) error { return r.Faces().Assign(ctx(t), []string{f1.ID}, &bob.ID, at(6)) })
		requireCounts(t, s, ann.ID, 2, 2, &f3.ID) // the newest remaining face takes over
		requireCounts(t, s, bob.ID, 1, 1, &f1.ID)
		write(t, s, func(r store.Repos) error { return r.Faces().Delete(ctx(t), []string{f2.ID}) })
		requireCounts(t, s, ann.ID, 1, 1, &f3.ID)
		write(t, s, func(r store.Repos) error { return r.Faces().Assign(ctx(t), []string{f3.ID}, nil, at(7)) })
		requireCounts(t, s, ann.ID, 0, 0, nil)
		got, err := s.Read().Faces().Get(ctx(t), f3.ID)
		require.NoError(t, err)
		require.Nil(t, got.PersonID)
		require.Equal(t, at(7), got.UpdatedAt)
	}},
	{"asset_count follows trash and restore; deleting an asset removes its faces", func(t *testing.T, s store.Store) {
		w := newPeopleWorld(t, s, 2)
		ann := makePerson(t, s, w.lib.ID, "Ann", 1)
		f0 := makeFace(t, s, w.lib.ID, w.assets[0], &ann.ID, 2)
		f := makeFace(t, s, w.lib.ID, w.assets[1], &ann.ID, 3)
		requireCounts(t, s, ann.ID, 2, 2, &f0.ID)
		trashAt := at(4)
		write(t, s, func(r store.Repos) error { return r.Assets().SetTrashed(ctx(t), w.assets[:1], &trashAt, at(4)) })
		require.Equal(t, 1, getPerson(t, s, ann.ID).AssetCount)
		write(t, s, func(r store.Repos) error { return r.Assets().SetTrashed(ctx(t), w.assets[:1], nil, at(5)) })
		require.Equal(t, 2, getPerson(t, s, ann.ID).AssetCount)
		write(t, s, func(r store.Repos) error { return r.Assets().Delete(ctx(t), w.assets[:1]) })
		requireCounts(t, s, ann.ID, 1, 1, &f.ID)
		left, err := s.Read().Faces().ForAssets(ctx(t), w.assets)
		require.NoError(t, err)
		require.Equal(t, []string{f.ID}, idsOf(left, faceID))
	}},
	{"moving every face of people gives their counts to the target", func(t *testing.T, s store.Store) {
		w := newPeopleWorld(t, s, 3)
		ann, bob, cat := makePerson(t, s, w.lib.ID, "Ann", 1), makePerson(t, s, w.lib.ID, "Bob", 2),
			makePerson(t, s, w.lib.ID, "Cat", 3)
		makeFace(t, s, w.lib.ID, w.assets[0], &ann.ID, 4)
		b1 := makeFace(t, s, w.lib.ID, w.assets[0], &bob.ID, 5)
		b2 := makeFace(t, s, w.lib.ID, w.assets[1], &bob.ID, 6)
		c1 := makeFace(t, s, w.lib.ID, w.assets[2], &cat.ID, 7)
		var moved []string
		write(t, s, func(r store.Repos) error {
			var err error
			moved, err = r.Faces().MoveAll(ctx(t), []string{bob.ID, cat.ID}, ann.ID, at(8))
			if err != nil {
				return err
			}
			return r.People().Delete(ctx(t), []string{bob.ID, cat.ID})
		})
		require.ElementsMatch(t, []string{b1.ID, b2.ID, c1.ID}, moved)
		p := getPerson(t, s, ann.ID)
		require.Equal(t, 4, p.FaceCount)
		require.Equal(t, 3, p.AssetCount)
		_, err := s.Read().People().Get(ctx(t), bob.ID)
		requireKind(t, err, catalog.ErrNotFound)
	}},
	{"deleting a person leaves its faces unassigned", func(t *testing.T, s store.Store) {
		w := newPeopleWorld(t, s, 1)
		ann := makePerson(t, s, w.lib.ID, "Ann", 1)
		f := makeFace(t, s, w.lib.ID, w.assets[0], &ann.ID, 2)
		write(t, s, func(r store.Repos) error { return r.People().Delete(ctx(t), []string{ann.ID}) })
		got, err := s.Read().Faces().Get(ctx(t), f.ID)
		require.NoError(t, err)
		require.Nil(t, got.PersonID)
	}},
	{"each asset's people come once each, oldest first", func(t *testing.T, s store.Store) {
		w := newPeopleWorld(t, s, 3)
		ann, bob := makePerson(t, s, w.lib.ID, "Ann", 1), makePerson(t, s, w.lib.ID, "Bob", 2)
		makeFace(t, s, w.lib.ID, w.assets[0], &bob.ID, 3)
		makeFace(t, s, w.lib.ID, w.assets[0], &ann.ID, 4)
		makeFace(t, s, w.lib.ID, w.assets[0], &ann.ID, 5)
		makeFace(t, s, w.lib.ID, w.assets[1], nil, 6)
		got, err := s.Read().People().ForAssets(ctx(t), w.assets)
		require.NoError(t, err)
		require.Len(t, got, 1)
		require.Equal(t, []string{ann.ID, bob.ID}, idsOf(got[w.assets[0]], personID))
		require.Equal(t, 2, got[w.assets[0]][0].FaceCount)
	}},
}

func faceID(f catalog.Face) string { return f.ID }

func listFaces(t *testing.T, s store.Store, f query.FaceFilter) list[catalog.Face] {
	return func(p query.Page) ([]catalog.Face, bool, error) { return s.Read().Faces().List(ctx(t), f, p) }
}

var faceCases = []testCase{
	{"a created face reads back without its embedding", func(t *testing.T, s store.Store) {
		w := newPeopleWorld(t, s, 1)
		f := makeFace(t, s, w.lib.ID, w.assets[0], nil, 1)
		got, err := s.Read().Faces().Get(ctx(t), f.ID)
		require.NoError(t, err)
		want := *f
		want.Embedding, want.AssetMediaType = nil, catalog.MediaImage
		require.Equal(t, &want, got)
		_, err = s.Read().Faces().Get(ctx(t), catalog.NewID(catalog.PrefixFace, at(9)))
		requireKind(t, err, catalog.ErrNotFound)
	}},
	{"the list is newest first, pages exactly and filters", func(t *testing.T, s store.Store) {
		w := newPeopleWorld(t, s, 2)
		ann := makePerson(t, s, w.lib.ID, "Ann", 1)
		var all []string
		for i := range 6 {
			var person *string
			if i%2 == 0 {
				person = &ann.ID
			}
			all = append(all, makeFace(t, s, w.lib.ID, w.assets[i%2], person, 2+i).ID)
		}
		other := makeLibrary(t, s, w.user.ID, "Other", 10)
		makeFace(t, s, other.ID, makeAsset(t, s, other.ID, w.user.ID, 11), nil, 12)
		newest := slices.Clone(all)
		slices.Reverse(newest)
		checkPaging(t, newest, faceID, listFaces(t, s, query.FaceFilter{LibraryID: w.lib.ID}))
		checkPaging(t, []string{all[4], all[2], all[0]}, faceID,
			listFaces(t, s, query.FaceFilter{LibraryID: w.lib.ID, AssetID: w.assets[0]}))
		checkPaging(t, []string{all[4], all[2], all[0]}, faceID,
			listFaces(t, s, query.FaceFilter{LibraryID: w.lib.ID, PersonID: ann.ID}))
		checkPaging(t, []string{all[5], all[1]}, faceID,
			listFaces(t, s, query.FaceFilter{LibraryID: w.lib.ID, IDs: []string{all[1], all[5]}}))
		checkPaging(t, []string{}, faceID,
			listFaces(t, s, query.FaceFilter{LibraryID: other.ID, PersonID: ann.ID}))
		_, _, err := s.Read().Faces().List(ctx(t), query.FaceFilter{LibraryID: other.ID},
			query.Page{Limit: 5, AfterID: all[0]})
		requireInvalidCursor(t, err)
	}},
	{"face ids are unique and a face needs an existing asset", func(t *testing.T, s store.Store) {
		w := newPeopleWorld(t, s, 1)
		f := makeFace(t, s, w.lib.ID, w.assets[0], nil, 1)
		require.Error(t, writeErr(t, s, func(r store.Repos) error {
			return r.Faces().Create(ctx(t), &catalog.Face{ID: f.ID, AssetID: w.assets[0], LibraryID: w.lib.ID,
				Source: catalog.FaceManual, CreatedAt: at(2), UpdatedAt: at(2)})
		}), "ids are unique")
		require.Error(t, writeErr(t, s, func(r store.Repos) error {
			return r.Faces().Create(ctx(t), &catalog.Face{ID: fmt.Sprint(f.ID, "x"), AssetID: "asset_unknown",
				LibraryID: w.lib.ID, Source: catalog.FaceManual, CreatedAt: at(2), UpdatedAt: at(2)})
		}), "the asset must exist")
	}},
}
