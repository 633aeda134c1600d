package storetest

import (
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/photoctl/photoctl/server/catalog"
	"github.com/photoctl/photoctl/server/query"
	"github.com/photoctl/photoctl/server/store"
)

// editAsset changes an asset and writes it.
func editAsset(t *testing.T, s store.Store, id string, change func(a *catalog.Asset)) {
	t.Helper()
	write(t, s, func(r store.Repos) error {
		a, err := r.Assets().Get(ctx(t), id)
		if err != nil {
			return err
		}
		change(a)
		return r.Assets().Update(ctx(t), a)
	})
}

// searchIDs runs a ranked search for the terms in the library and returns
// the ids of every hit, best first, paging by two.
func searchIDs(t *testing.T, s store.Store, libraryID string, terms ...query.SearchTerm) []string {
	t.Helper()
	q := query.SearchQuery{Filter: query.AssetFilter{LibraryID: libraryID}, Terms: terms, Names: make([][]query.NameMatch, len(terms))}
	for i, term := range terms {
		names, err := s.Read().Search().Names(ctx(t), libraryID, term)
		require.NoError(t, err)
		q.Names[i] = names
	}
	var ids []string
	p := query.Page{Limit: 2}
	for {
		hits, more, err := s.Read().Search().Assets(ctx(t), q, p)
		require.NoError(t, err)
		for _, h := range hits {
			require.Positive(t, h.Score)
			ids = append(ids, h.ID)
		}
		if !more {
			return ids
		}
		p.AfterID = hits[len(hits)-1].ID
	}
}

var searchCases = []testCase{
	{"an asset's own text is found by words and their beginnings and follows its changes", func(t *testing.T, s store.Store) {
		w := newPeopleWorld(t, s, 3)
		editAsset(t, s, w.assets[0], func(a *catalog.Asset) { a.Description = ptr("A lighthouse at dusk") })
		editAsset(t, s, w.assets[1], func(a *catalog.Asset) {
			a.GeoMeta.City = ptr("Zürich")
			a.FileMeta.Make, a.FileMeta.Model = ptr("FUJIFILM"), ptr("X-T3")
		})
		require.Equal(t, []string{w.assets[0]}, searchIDs(t, s, w.lib.ID, query.SearchTerm{"lighthouse"}))
		require.Equal(t, []string{w.assets[0]}, searchIDs(t, s, w.lib.ID, query.SearchTerm{"light*"}))
		require.Empty(t, searchIDs(t, s, w.lib.ID, query.SearchTerm{"light"}), "a word without * is whole")
		require.Equal(t, []string{w.assets[1]}, searchIDs(t, s, w.lib.ID, query.SearchTerm{"zurich"}))
		require.Equal(t, []string{w.assets[1]}, searchIDs(t, s, w.lib.ID, query.SearchTerm{"fuji*"}, query.SearchTerm{"zur*"}))
		require.Empty(t, searchIDs(t, s, w.lib.ID, query.SearchTerm{"fuji*"}, query.SearchTerm{"lighthouse"}), "every term")
		require.ElementsMatch(t, w.assets[:2], searchIDs(t, s, w.lib.ID, query.SearchTerm{"fuji*", "lighthouse"}), "any spelling")

		editAsset(t, s, w.assets[0], func(a *catalog.Asset) { a.Description = ptr("A windmill") })
		require.Empty(t, searchIDs(t, s, w.lib.ID, query.SearchTerm{"lighthouse"}))
		require.Equal(t, []string{w.assets[0]}, searchIDs(t, s, w.lib.ID, query.SearchTerm{"windmill"}))
		write(t, s, func(r store.Repos) error { return r.Assets().Delete(ctx(t), []string{w.assets[0]}) })
		require.Empty(t, searchIDs(t, s, w.lib.ID, query.SearchTerm{"windmill"}))
	}},
	{"hits page by score, then id, and a foreign cursor is refused", func(t *testing.T, s store.Store) {
		w := newPeopleWorld(t, s, 5)
		for i, id := range w.assets {
			desc := "red"
			if i%2 == 0 {
				desc = "red red red"
			}
			editAsset(t, s, id, func(a *catalog.Asset) { a.Description = ptr(desc) })
		}
		got := searchIDs(t, s, w.lib.ID, query.SearchTerm{"red"})
		require.Equal(t, []string{w.assets[4], w.assets[2], w.assets[0], w.assets[3], w.assets[1]}, got)
		_, _, err := s.Read().Search().Assets(ctx(t), query.SearchQuery{Filter: query.AssetFilter{LibraryID: w.lib.ID},
			Terms: []query.SearchTerm{{"blue"}}}, query.Page{Limit: 2, AfterID: w.assets[0]})
		requireInvalidCursor(t, err)
	}},
	{"names match the library's people and albums and follow renames", func(t *testing.T, s store.Store) {
		w := newPeopleWorld(t, s, 2)
		other := makeLibrary(t, s, w.user.ID, "Other", 1)
		ann := makePerson(t, s, w.lib.ID, "Ann Lee", 1)
		makePerson(t, s, other.ID, "Ann", 2)
		makePerson(t, s, w.lib.ID, "", 3)
		makeFace(t, s, w.lib.ID, w.assets[0], &ann.ID, 4)
		album := &catalog.Album{ID: catalog.NewID(catalog.PrefixAlbum, at(5)), LibraryID: w.lib.ID, Name: "Annual trip",
			CreatedAt: at(5), UpdatedAt: at(5)}
		write(t, s, func(r store.Repos) error { return r.Albums().Create(ctx(t), album) })

		names, err := s.Read().Search().Names(ctx(t), w.lib.ID, query.SearchTerm{"ann*"})
		require.NoError(t, err)
		require.ElementsMatch(t, []query.NameMatch{{Kind: query.NamePerson, ID: ann.ID}, {Kind: query.NameAlbum, ID: album.ID}}, names)
		require.Equal(t, []string{w.assets[0]}, searchIDs(t, s, w.lib.ID, query.SearchTerm{"lee"}))

		ann.Name, ann.UpdatedAt = "Beth", at(6)
		write(t, s, func(r store.Repos) error { return r.People().Update(ctx(t), ann) })
		require.Empty(t, searchIDs(t, s, w.lib.ID, query.SearchTerm{"lee"}))
		require.Equal(t, []string{w.assets[0]}, searchIDs(t, s, w.lib.ID, query.SearchTerm{"beth"}))
		write(t, s, func(r store.Repos) error { return r.Albums().Delete(ctx(t), album.ID) })
		names, err = s.Read().Search().Names(ctx(t), w.lib.ID, query.SearchTerm{"ann*"})
		require.NoError(t, err)
		require.Empty(t, names)
	}},
	{"a word is known whole, by its stem, or as a prefix", func(t *testing.T, s store.Store) {
		w := newPeopleWorld(t, s, 1)
		editAsset(t, s, w.assets[0], func(a *catalog.Asset) { a.GeoMeta.City, a.Description = ptr("Kyoto"), ptr("sunsets") })
		makePerson(t, s, w.lib.ID, "Kyra", 1)
		for _, c := range []struct {
			word         string
			prefix, want bool
		}{{"kyoto", false, true}, {"sunset", false, true}, {"kyra", false, true}, {"kyo", false, false},
			{"kyo", true, true}, {"kyr", true, true}, {"kyoot", true, false}, {"k", true, false}, {"kyoto", true, true}} {
			got, err := s.Read().Search().HasWord(ctx(t), c.word, c.prefix)
			require.NoError(t, err)
			require.Equal(t, c.want, got, "%s, prefix %v", c.word, c.prefix)
		}
	}},
	{"a term's word ranks above the words it begins, and a place name is a phrase", func(t *testing.T, s store.Store) {
		w := newPeopleWorld(t, s, 5)
		editAsset(t, s, w.assets[0], func(a *catalog.Asset) {
			a.Description = ptr("The sun over a long ridge of hills, beyond the lake and the fields, in a morning mist")
		})
		editAsset(t, s, w.assets[1], func(a *catalog.Asset) {
			a.Description, a.GeoMeta.City, a.OriginalFileName = ptr("Sunset, sunsets, sunsets"), ptr("Sunset Beach"), "sunset.jpg"
		})
		editAsset(t, s, w.assets[2], func(a *catalog.Asset) { a.GeoMeta.City = ptr("Cape Canaveral") })
		editAsset(t, s, w.assets[3], func(a *catalog.Asset) { a.GeoMeta.City, a.Description = ptr("Cape Town"), ptr("a new harbour") })
		editAsset(t, s, w.assets[4], func(a *catalog.Asset) { a.GeoMeta.City = ptr("York") })

		require.Equal(t, []string{w.assets[0], w.assets[1]}, searchIDs(t, s, w.lib.ID, query.SearchTerm{"sun", "sun*"}),
			"the word first, though the words it begins are more frequent where they are")
		require.Equal(t, []string{w.assets[2]}, searchIDs(t, s, w.lib.ID, query.SearchTerm{"cape canaveral"}))
		require.ElementsMatch(t, w.assets[2:4], searchIDs(t, s, w.lib.ID, query.SearchTerm{"cape"}))
		for _, c := range []struct {
			words []string
			want  bool
		}{{[]string{"cape", "canaveral"}, true}, {[]string{"canaveral", "cape"}, false}, {[]string{"cape", "town"}, true},
			{[]string{"new", "harbour"}, false}, {[]string{"new", "york"}, false}, {[]string{"town", "new"}, false}} {
			got, err := s.Read().Search().HasPlace(ctx(t), c.words)
			require.NoError(t, err)
			require.Equal(t, c.want, got, "%v", c.words)
		}
	}},
	{"pHash candidates share a band of the hash", func(t *testing.T, s store.Store) {
		w := newPeopleWorld(t, s, 3)
		for i, h := range []string{"0123456789abcdef", "ffff4567ffffffff", "ffffffffffffffff"} {
			editAsset(t, s, w.assets[i], func(a *catalog.Asset) { a.Metrics = map[string]any{"phash": h, "colors": "c" + h} })
		}
		got, err := s.Read().Search().PHashCandidates(ctx(t), w.lib.ID, [4][]string{{"0123"}, {"4567", "0000"}}, 10)
		require.NoError(t, err)
		require.ElementsMatch(t, []store.PHashCandidate{{ID: w.assets[0], PHash: "0123456789abcdef", Colors: "c0123456789abcdef"},
			{ID: w.assets[1], PHash: "ffff4567ffffffff", Colors: "cffff4567ffffffff"}}, got)
	}},
	{"a person's vector is the featured face's embedding without a centroid", func(t *testing.T, s store.Store) {
		w := newPeopleWorld(t, s, 1)
		ann := makePerson(t, s, w.lib.ID, "Ann", 1)
		makePerson(t, s, w.lib.ID, "Nobody", 2)
		makeFace(t, s, w.lib.ID, w.assets[0], &ann.ID, 3)
		got, err := s.Read().Search().PersonVectors(ctx(t), w.lib.ID, 10)
		require.NoError(t, err)
		require.Len(t, got, 1)
		require.Equal(t, ann.ID, got[0].PersonID)
		require.NotEmpty(t, got[0].Embedding)
	}},
}
