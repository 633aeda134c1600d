package storetest

import (
	"slices"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/photoctl/photoctl/server/catalog"
	"github.com/photoctl/photoctl/server/query"
	"github.com/photoctl/photoctl/server/store"
)

var assetTextCases = []testCase{
	{"an asset has no text record until a step writes one", func(t *testing.T, s store.Store) {
		w := newPeopleWorld(t, s, 1)
		_, err := s.Read().AssetTexts().Get(ctx(t), w.assets[0])
		requireKind(t, err, catalog.ErrNotFound)
	}},
	{"OCR lines read back with their text joined and the describer kept", func(t *testing.T, s store.Store) {
		w := newPeopleWorld(t, s, 1)
		id := w.assets[0]
		lines := []catalog.TextLine{
			{Text: "OPEN", Box: catalog.BoundingBox{X: 0.1, Y: 0.2, Width: 0.3, Height: 0.05}, Score: 0.98},
			{Text: "24 hours", Box: catalog.BoundingBox{X: 0.1, Y: 0.3, Width: 0.4, Height: 0.05}, Score: 0.91},
		}
		write(t, s, func(r store.Repos) error {
			if err := r.AssetTexts().PutDescriber(ctx(t), id, "builtin", at(1)); err != nil {
				return err
			}
			return r.AssetTexts().PutOCR(ctx(t), id, lines, "", at(2))
		})
		got, err := s.Read().AssetTexts().Get(ctx(t), id)
		require.NoError(t, err)
		require.Equal(t, &catalog.AssetText{AssetID: id, OCRText: ptr("OPEN\n24 hours"), OCRLines: lines, OCRTerms: ptr(""),
			Describer: ptr("builtin"), Ran: map[string]string{}, UpdatedAt: at(2)}, got)

		write(t, s, func(r store.Repos) error {
			if err := r.AssetTexts().PutOCR(ctx(t), id, nil, "", at(3)); err != nil {
				return err
			}
			return r.AssetTexts().PutDescriber(ctx(t), id, "openai:llava", at(4))
		})
		got, err = s.Read().AssetTexts().Get(ctx(t), id)
		require.NoError(t, err)
		require.Equal(t, &catalog.AssetText{AssetID: id, OCRText: ptr(""), OCRLines: []catalog.TextLine{}, OCRTerms: ptr(""),
			Describer: ptr("openai:llava"), Ran: map[string]string{}, UpdatedAt: at(4)}, got,
			"no text found is an empty text, not none")
	}},
	{"a describer alone leaves the text unknown", func(t *testing.T, s store.Store) {
		w := newPeopleWorld(t, s, 1)
		write(t, s, func(r store.Repos) error {
			return r.AssetTexts().PutDescriber(ctx(t), w.assets[0], "builtin", at(1))
		})
		got, err := s.Read().AssetTexts().Get(ctx(t), w.assets[0])
		require.NoError(t, err)
		require.Nil(t, got.OCRText)
		require.Nil(t, got.OCRLines)
	}},
	{"the renderings steps read are kept per step", func(t *testing.T, s store.Store) {
		w := newPeopleWorld(t, s, 1)
		id := w.assets[0]
		write(t, s, func(r store.Repos) error {
			if err := r.AssetTexts().PutRan(ctx(t), id, "faces", "aaaa", at(1)); err != nil {
				return err
			}
			if err := r.AssetTexts().PutOCR(ctx(t), id, nil, "", at(2)); err != nil {
				return err
			}
			return r.AssetTexts().PutRan(ctx(t), id, "ocr", "bbbb", at(3))
		})
		got, err := s.Read().AssetTexts().Get(ctx(t), id)
		require.NoError(t, err)
		require.Equal(t, map[string]string{"faces": "aaaa", "ocr": "bbbb"}, got.Ran)
		require.Equal(t, ptr(""), got.OCRText, "kept")
		write(t, s, func(r store.Repos) error { return r.AssetTexts().PutRan(ctx(t), id, "faces", "", at(4)) })
		got, err = s.Read().AssetTexts().Get(ctx(t), id)
		require.NoError(t, err)
		require.Equal(t, map[string]string{"faces": "", "ocr": "bbbb"}, got.Ran)
		require.Equal(t, at(4), got.UpdatedAt)
	}},
	{"a record needs an existing asset and goes with it", func(t *testing.T, s store.Store) {
		w := newPeopleWorld(t, s, 1)
		missing := catalog.NewID(catalog.PrefixAsset, at(9))
		require.Error(t, writeErr(t, s, func(r store.Repos) error {
			return r.AssetTexts().PutOCR(ctx(t), missing, nil, "", at(1))
		}))
		write(t, s, func(r store.Repos) error {
			return r.AssetTexts().PutOCR(ctx(t), w.assets[0], []catalog.TextLine{{Text: "x"}}, "", at(1))
		})
		write(t, s, func(r store.Repos) error { return r.Assets().Delete(ctx(t), w.assets) })
		_, err := s.Read().AssetTexts().Get(ctx(t), w.assets[0])
		requireKind(t, err, catalog.ErrNotFound)
	}}, {"the terms of a text are found by search, and the text stays as read", func(t *testing.T, s store.Store) {
		w := newPeopleWorld(t, s, 2)
		id := w.assets[0]
		write(t, s, func(r store.Repos) error {
			return r.AssetTexts().PutOCR(ctx(t), id, []catalog.TextLine{{Text: "HARVESTMOONBAKERY"}, {Text: "Open daily"}},
				"harvest moon bakery", at(1))
		})
		got, err := s.Read().AssetTexts().Get(ctx(t), id)
		require.NoError(t, err)
		require.Equal(t, ptr("HARVESTMOONBAKERY\nOpen daily"), got.OCRText)
		require.Equal(t, ptr("harvest moon bakery"), got.OCRTerms)
		for _, word := range []string{"bakery", "harvest", "moon", "harvestmoonbakery", "daily"} {
			require.Equal(t, []string{id}, searchIDs(t, s, w.lib.ID, query.SearchTerm{word}), word)
		}
		require.Equal(t, []string{id}, searchIDs(t, s, w.lib.ID, query.SearchTerm{"bak*"}))

		write(t, s, func(r store.Repos) error {
			return r.AssetTexts().PutOCR(ctx(t), id, []catalog.TextLine{{Text: "NOPARKING"}}, "no parking", at(2))
		})
		require.Empty(t, searchIDs(t, s, w.lib.ID, query.SearchTerm{"bakery"}), "the terms go with their text")
		require.Equal(t, []string{id}, searchIDs(t, s, w.lib.ID, query.SearchTerm{"parking"}))
	}},
	{"terms are put for the text they were split from only, and indexed", func(t *testing.T, s store.Store) {
		w := newPeopleWorld(t, s, 1)
		id := w.assets[0]
		write(t, s, func(r store.Repos) error {
			return r.AssetTexts().PutOCR(ctx(t), id, []catalog.TextLine{{Text: "NOPARKING"}}, "", at(1))
		})
		require.Empty(t, searchIDs(t, s, w.lib.ID, query.SearchTerm{"parking"}))
		write(t, s, func(r store.Repos) error {
			put, err := r.AssetTexts().PutOCRTerms(ctx(t), id, "NOPARKING TODAY", "no parking")
			require.False(t, put, "another text")
			return err
		})
		require.Empty(t, searchIDs(t, s, w.lib.ID, query.SearchTerm{"parking"}))
		write(t, s, func(r store.Repos) error {
			put, err := r.AssetTexts().PutOCRTerms(ctx(t), id, "NOPARKING", "no parking")
			require.True(t, put)
			return err
		})
		require.Equal(t, []string{id}, searchIDs(t, s, w.lib.ID, query.SearchTerm{"parking"}))
		got, err := s.Read().AssetTexts().Get(ctx(t), id)
		require.NoError(t, err)
		require.Equal(t, ptr("no parking"), got.OCRTerms)
		require.Equal(t, at(1), got.UpdatedAt, "the terms are the index's, not a change the API shows")
	}},
	{"the records with a text page in asset id order", func(t *testing.T, s store.Store) {
		w := newPeopleWorld(t, s, 4)
		write(t, s, func(r store.Repos) error {
			for i, id := range w.assets {
				var err error
				if i == 2 {
					err = r.AssetTexts().PutDescriber(ctx(t), id, "builtin", at(1)) // no text
				} else {
					err = r.AssetTexts().PutOCR(ctx(t), id, []catalog.TextLine{{Text: "NOPARKING"}}, "no parking", at(1))
				}
				if err != nil {
					return err
				}
			}
			return nil
		})
		want := []string{w.assets[0], w.assets[1], w.assets[3]}
		slices.Sort(want)
		var got []string
		after := ""
		for {
			page, err := s.Read().AssetTexts().OCRTexts(ctx(t), after, 2)
			require.NoError(t, err)
			if len(page) == 0 {
				break
			}
			for _, r := range page {
				require.Equal(t, ptr("NOPARKING"), r.OCRText)
				require.Equal(t, ptr("no parking"), r.OCRTerms)
				got = append(got, r.AssetID)
			}
			after = page[len(page)-1].AssetID
		}
		require.Equal(t, want, got)
	}},
}
