package storetest

import (
	"slices"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/photoctl/photoctl/server/catalog"
	"github.com/photoctl/photoctl/server/store"
)

// putPHashes replaces an asset's crop hashes.
func putPHashes(t *testing.T, s store.Store, assetID string, hashes ...store.KindPHash) {
	t.Helper()
	write(t, s, func(r store.Repos) error { return r.Search().PutPHashes(ctx(t), assetID, hashes) })
}

// phashCandidates returns the library's candidates for bands.
func phashCandidates(t *testing.T, s store.Store, libraryID string, bands [4][]string) []store.PHashCandidate {
	t.Helper()
	got, err := s.Read().Search().PHashCandidates(ctx(t), libraryID, bands, 100)
	require.NoError(t, err)
	return got
}

var searchPHashCases = []testCase{
	{"crop hashes are candidates beside the assets' own, by any band, in their library only", func(t *testing.T, s store.Store) {
		w := newPeopleWorld(t, s, 2)
		other := peopleWorld{lib: makeLibrary(t, s, w.user.ID, "Work", 1), user: w.user}
		other.assets = []string{makeAsset(t, s, other.lib.ID, w.user.ID, 5)}
		editAsset(t, s, w.assets[0], func(a *catalog.Asset) {
			a.Metrics = map[string]any{"phash": "0123456789abcdef", "colors": "sig0"}
		})
		putPHashes(t, s, w.assets[0], store.KindPHash{Kind: "c80", PHash: "aaaabbbbccccdddd"},
			store.KindPHash{Kind: "tl80", PHash: "0123eeeeeeeeeeee"})
		// A crop of an asset not measured yet: no colour signature.
		putPHashes(t, s, w.assets[1], store.KindPHash{Kind: "br80", PHash: "1111222233334444"})
		putPHashes(t, s, other.assets[0], store.KindPHash{Kind: "c80", PHash: "aaaabbbbccccdddd"})

		require.ElementsMatch(t, []store.PHashCandidate{
			{ID: w.assets[0], PHash: "0123456789abcdef", Colors: "sig0"},
			{ID: w.assets[0], Kind: "tl80", PHash: "0123eeeeeeeeeeee", Colors: "sig0"},
		}, phashCandidates(t, s, w.lib.ID, [4][]string{{"0123"}}))
		for i, band := range []string{"aaaa", "bbbb", "cccc", "dddd"} {
			var bands [4][]string
			bands[i] = []string{"0000", band}
			require.Equal(t, []store.PHashCandidate{{ID: w.assets[0], Kind: "c80", PHash: "aaaabbbbccccdddd", Colors: "sig0"}},
				phashCandidates(t, s, w.lib.ID, bands), "band %d", i)
		}
		require.Equal(t, []store.PHashCandidate{{ID: w.assets[1], Kind: "br80", PHash: "1111222233334444"}},
			phashCandidates(t, s, w.lib.ID, [4][]string{nil, nil, nil, {"4444"}}))
		require.Equal(t, []store.PHashCandidate{{ID: other.assets[0], Kind: "c80", PHash: "aaaabbbbccccdddd"}},
			phashCandidates(t, s, other.lib.ID, [4][]string{{"aaaa"}}))
		require.Empty(t, phashCandidates(t, s, w.lib.ID, [4][]string{}))
	}},
	{"putting crop hashes replaces the asset's; they go with their asset; an unknown asset is not found", func(t *testing.T, s store.Store) {
		w := newPeopleWorld(t, s, 1)
		putPHashes(t, s, w.assets[0], store.KindPHash{Kind: "c80", PHash: "aaaabbbbccccdddd"},
			store.KindPHash{Kind: "c90", PHash: "aaaa000000000000"})
		putPHashes(t, s, w.assets[0], store.KindPHash{Kind: "c90", PHash: "aaaa111111111111"})
		require.Equal(t, []store.PHashCandidate{{ID: w.assets[0], Kind: "c90", PHash: "aaaa111111111111"}},
			phashCandidates(t, s, w.lib.ID, [4][]string{{"aaaa"}}))
		putPHashes(t, s, w.assets[0])
		require.Empty(t, phashCandidates(t, s, w.lib.ID, [4][]string{{"aaaa"}}))

		putPHashes(t, s, w.assets[0], store.KindPHash{Kind: "c80", PHash: "aaaabbbbccccdddd"})
		write(t, s, func(r store.Repos) error { return r.Assets().Delete(ctx(t), []string{w.assets[0]}) })
		require.Empty(t, phashCandidates(t, s, w.lib.ID, [4][]string{{"aaaa"}}))

		err := writeErr(t, s, func(r store.Repos) error {
			return r.Search().PutPHashes(ctx(t), "asset_missing", []store.KindPHash{{Kind: "c80", PHash: "aaaabbbbccccdddd"}})
		})
		require.ErrorIs(t, err, catalog.ErrNotFound)
	}},
	{"measured assets without crop hashes are listed by id, page by page, across libraries", func(t *testing.T, s store.Store) {
		w := newPeopleWorld(t, s, 4)
		other := makeLibrary(t, s, w.user.ID, "Work", 1)
		w.assets = append(w.assets, makeAsset(t, s, other.ID, w.user.ID, 6))
		for _, id := range w.assets[1:] {
			editAsset(t, s, id, func(a *catalog.Asset) { a.Metrics = map[string]any{"phash": "0123456789abcdef"} })
		}
		putPHashes(t, s, w.assets[2], store.KindPHash{Kind: "c80", PHash: "aaaabbbbccccdddd"})
		// assets[0] is not measured, assets[2] has its crops' hashes.
		want := []store.AssetRef{{ID: w.assets[1], LibraryID: w.lib.ID}, {ID: w.assets[3], LibraryID: w.lib.ID},
			{ID: w.assets[4], LibraryID: other.ID}}
		slices.SortFunc(want, func(a, b store.AssetRef) int { return strings.Compare(a.ID, b.ID) })
		var got []store.AssetRef
		after := ""
		for {
			page, err := s.Read().Search().UnhashedCrops(ctx(t), after, 2)
			require.NoError(t, err)
			if len(page) == 0 {
				break
			}
			got = append(got, page...)
			after = page[len(page)-1].ID
		}
		require.Equal(t, want, got)
	}},
}
