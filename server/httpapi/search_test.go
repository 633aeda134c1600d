package httpapi_test

import (
	"context"
	"net/http"
	"net/url"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/photoctl/photoctl/server/api"
	"github.com/photoctl/photoctl/server/app"
	"github.com/photoctl/photoctl/server/catalog"
	"github.com/photoctl/photoctl/server/servertest"
	"github.com/photoctl/photoctl/server/store"
)

// searchStore opens the server's database beside it, for what only the
// ML steps write (AI descriptions, OCR text) and the geocoding layer.
func searchStore(t *testing.T, s *servertest.Server) store.Store {
	t.Helper()
	st, err := app.OpenStore(context.Background(), s.Config)
	require.NoError(t, err)
	t.Cleanup(func() { st.Close() })
	return st
}

// editAsset changes an asset's row as an ingest step would.
func editAsset(t *testing.T, st store.Store, id string, change func(a *catalog.Asset)) {
	t.Helper()
	ctx := context.Background()
	require.NoError(t, st.InTx(ctx, func(r store.Repos) error {
		a, err := r.Assets().Get(ctx, id)
		if err != nil {
			return err
		}
		change(a)
		return r.Assets().Update(ctx, a)
	}))
}

// searchHits GETs /api/search?query and requires a 200.
func searchHits(t *testing.T, s *servertest.Server, token string, q url.Values) api.Page[api.SearchHit] {
	t.Helper()
	return servertest.Expect[api.Page[api.SearchHit]](t, s.Do("GET", "/api/search?"+q.Encode(), token, nil), http.StatusOK)
}

func hitIDs(p api.Page[api.SearchHit]) []string {
	return mapped(p.Data, func(h api.SearchHit) string { return h.ID })
}

func text(q string) url.Values { return url.Values{"query": {q}} }

func TestSearchTextFindsEverySource(t *testing.T) {
	s := servertest.Start(t)
	_, session := s.Session()
	st := searchStore(t, s)
	upload := func(name string, seed int) string {
		return s.UploadAsset(session, name, servertest.JPEG(t, 8, 8, seed), nil).ID
	}
	described := upload("a.jpg", 1)
	editAsset(t, st, described, func(a *catalog.Asset) { a.Description = ptr("A golden retriever on the beach at sunset") })
	captioned := upload("b.jpg", 2)
	require.Equal(t, http.StatusOK, s.Do("PATCH", "/api/assets/"+captioned, session,
		map[string]any{"description": "Grandma's lighthouse"}).Status)
	ocr := upload("c.jpg", 3)
	require.NoError(t, st.InTx(context.Background(), func(r store.Repos) error {
		return r.AssetTexts().PutOCR(context.Background(), ocr, []catalog.TextLine{{Text: "NO PARKING"},
			{Text: "Tow-away zone"}}, "", time.Now())
	}))
	placed := upload("d.jpg", 4)
	editAsset(t, st, placed, func(a *catalog.Asset) {
		a.GeoMeta.City, a.GeoMeta.Country = ptr("Kyoto"), ptr("Japan")
		a.GeoMeta.DisplayLabel = ptr("Kyoto, Japan")
	})
	named := upload("IMG_4711.HEIC", 5)
	camera := upload("e.jpg", 6)
	editAsset(t, st, camera, func(a *catalog.Asset) {
		a.FileMeta.Make, a.FileMeta.Model = ptr("FUJIFILM"), ptr("X-T3")
		a.FileMeta.LensModel = ptr("XF16-55mmF2.8 R LM WR")
	})
	other := upload("f.jpg", 7) // matches nothing below

	for _, c := range []struct{ query, want string }{
		{"retriever", described}, {"sunset", described}, {"sunsets", described}, {"lighthouse", captioned},
		{"parking", ocr}, {"tow away", ocr}, {"kyoto", placed}, {"japan", placed}, {"img_4711", named},
		{"4711", named}, {"heic", named}, {"fujifilm", camera}, {"xf16", camera},
		{"Kyo", placed}, {"Kyoot", placed}, {"KYÖTO", placed}, {"fujiflim", camera},
	} {
		got := searchHits(t, s, session, text(c.query))
		require.Equal(t, []string{c.want}, hitIDs(got), "query %q", c.query)
		require.Positive(t, got.Data[0].Score, "query %q", c.query)
		require.False(t, got.HasMore)
	}
	require.Empty(t, hitIDs(searchHits(t, s, session, text("zebra"))), "a word nothing is near matches nothing")
	require.Equal(t, []string{placed}, hitIDs(searchHits(t, s, session, text("photos of kyoto"))), "stop words are dropped")
	_ = other
}

func ptr[T any](v T) *T { return &v }

func TestSearchPeopleAndAlbumsByName(t *testing.T) {
	s := servertest.Start(t)
	_, session := s.Session()
	ann := person(t, s, session, "Ann")
	withAnn := place(t, s, session, 1, "2024-01-01T10:00:00")
	face(t, s, session, withAnn, &ann.ID)
	inAlbum := place(t, s, session, 2, "2024-01-02T10:00:00")
	holidays := newAlbum(t, s, session, "Summer holidays")
	addToAlbum(t, s, session, holidays.ID, inAlbum)
	place(t, s, session, 3, "2024-01-03T10:00:00")

	require.Equal(t, []string{withAnn}, hitIDs(searchHits(t, s, session, text("ann"))))
	require.Equal(t, []string{inAlbum}, hitIDs(searchHits(t, s, session, text("holiday"))))
	require.Equal(t, []string{inAlbum}, hitIDs(searchHits(t, s, session, text("summer holidays"))))
	require.Equal(t, []string{inAlbum}, hitIDs(searchHits(t, s, session, text("sumer"))), "a typo in a name")

	t.Run("a renamed person is found by the new name only", func(t *testing.T) {
		r := s.Do("PATCH", "/api/people/"+ann.ID, session, map[string]any{"name": "Annabel Lee"})
		require.Equal(t, http.StatusOK, r.Status, "%s", r.Body)
		require.Equal(t, []string{withAnn}, hitIDs(searchHits(t, s, session, text("annabel"))))
		require.Equal(t, []string{withAnn}, hitIDs(searchHits(t, s, session, text("lee"))))
		require.Empty(t, hitIDs(searchHits(t, s, session, text("ann lee holidays"))), "every word must match")
	})
	t.Run("a renamed or deleted album is found by its new name or not at all", func(t *testing.T) {
		albumDo(t, s, session, "PATCH", "/api/albums/"+holidays.ID, map[string]any{"name": "Winter"})
		require.Empty(t, hitIDs(searchHits(t, s, session, text("summer"))))
		require.Equal(t, []string{inAlbum}, hitIDs(searchHits(t, s, session, text("winter"))))
		require.Equal(t, http.StatusNoContent, s.Do("DELETE", "/api/albums/"+holidays.ID, session, nil).Status)
		require.Empty(t, hitIDs(searchHits(t, s, session, text("winter"))))
	})
	t.Run("a name matches with the asset's own text in one query", func(t *testing.T) {
		st := searchStore(t, s)
		editAsset(t, st, withAnn, func(a *catalog.Asset) { a.GeoMeta.City = ptr("Lisbon") })
		got := searchHits(t, s, session, text("annabel lisbon"))
		require.Equal(t, []string{withAnn}, hitIDs(got))
		alone := searchHits(t, s, session, text("lisbon"))
		require.Greater(t, got.Data[0].Score, alone.Data[0].Score, "scores add up over the words")
	})
}
