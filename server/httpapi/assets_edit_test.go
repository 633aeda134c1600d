package httpapi_test

import (
	"net/http"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/photoctl/photoctl/server/api"
	"github.com/photoctl/photoctl/server/servertest"
)

func getAsset(t *testing.T, s *servertest.Server, token, id string) api.Asset {
	t.Helper()
	r := s.Do("GET", "/api/assets/"+id, token, nil)
	return servertest.Expect[api.Asset](t, r, http.StatusOK)
}

func TestBulkUpdateIsAtomic(t *testing.T) {
	s := servertest.Start(t)
	_, session := s.Session()
	a := s.UploadAsset(session, "a.jpg", servertest.JPEG(t, 16, 16, 1), nil)
	b := s.UploadAsset(session, "b.jpg", servertest.JPEG(t, 16, 16, 2), nil)
	_, stranger := s.Session()
	foreign := s.UploadAsset(stranger, "c.jpg", servertest.JPEG(t, 16, 16, 3), nil)

	rejected := []struct {
		name    string
		updates []map[string]any
		loc     []any
	}{
		{"an invalid rating on the second item", []map[string]any{
			{"id": a.ID, "change": map[string]any{"rating": 4}},
			{"id": b.ID, "change": map[string]any{"rating": 9}}}, []any{"body", "updates", float64(1), "change", "rating"}},
		{"an unknown id", []map[string]any{
			{"id": a.ID, "change": map[string]any{"rating": 4}},
			{"id": "asset_01hzzzzzzzzzzzzzzzzzzzzzzz", "change": map[string]any{"rating": 1}}},
			[]any{"body", "updates", float64(1), "id"}},
		{"another user's asset", []map[string]any{
			{"id": a.ID, "change": map[string]any{"rating": 4}},
			{"id": foreign.ID, "change": map[string]any{"rating": 1}}}, []any{"body", "updates", float64(1), "id"}},
		{"latitude without longitude", []map[string]any{
			{"id": a.ID, "change": map[string]any{"latitude": 10}}}, []any{"body", "updates", float64(0), "change", "latitude"}},
		{"a bad datetime", []map[string]any{
			{"id": a.ID, "change": map[string]any{"original_datetime": "noon"}}},
			[]any{"body", "updates", float64(0), "change", "original_datetime"}},
		{"an unknown change field", []map[string]any{
			{"id": a.ID, "change": map[string]any{"colour": "red"}}}, []any{"body", "updates", float64(0), "change", "colour"}},
		{"a fractional rating", []map[string]any{
			{"id": a.ID, "change": map[string]any{"rating": 2.5}}}, nil},
	}
	for _, tc := range rejected {
		t.Run(tc.name+" rejects the whole batch", func(t *testing.T) {
			items := validationItems(t, s.Do("POST", "/api/assets/bulk-update", session, map[string]any{"updates": tc.updates}))
			if tc.loc != nil {
				require.Equal(t, tc.loc, items[0].Loc)
			}
			require.Nil(t, getAsset(t, s, session, a.ID).Metadata.Rating, "nothing was written")
		})
	}
	t.Run("more than 200 items is 422", func(t *testing.T) {
		many := make([]map[string]any, 201)
		for i := range many {
			many[i] = map[string]any{"id": a.ID, "change": map[string]any{"rating": 1}}
		}
		validationItems(t, s.Do("POST", "/api/assets/bulk-update", session, map[string]any{"updates": many}))
	})

	t.Run("different fields on different assets in one request", func(t *testing.T) {
		r := s.Do("POST", "/api/assets/bulk-update", session, map[string]any{"updates": []map[string]any{
			{"id": a.ID, "change": map[string]any{"rating": 5, "description": "sunset"}},
			{"id": b.ID, "change": map[string]any{"latitude": 48.8584, "longitude": 2.2945,
				"original_datetime": "2023-07-14T21:30:00+02:00"}},
		}})
		require.Equal(t, http.StatusOK, r.Status, "%s", r.Body)
		require.JSONEq(t, `{}`, string(r.Body))
		ga, gb := getAsset(t, s, session, a.ID), getAsset(t, s, session, b.ID)
		require.Equal(t, 5.0, *ga.Metadata.Rating)
		require.Equal(t, "sunset", *ga.Metadata.Description)
		require.Nil(t, ga.Description, "the AI description is separate from the user's")
		require.Equal(t, 48.8584, *gb.Metadata.Latitude)
		require.Equal(t, 48.8584, *gb.Exif.Latitude, "exif mirrors metadata")
		require.Equal(t, "2023-07-14T21:30:00+02:00", gb.LocalDatetime)
	})

	t.Run("PATCH applies one change and null clears it", func(t *testing.T) {
		got := servertest.Expect[api.Asset](t, s.Do("PATCH", "/api/assets/"+a.ID, session, map[string]any{"rating": nil}), http.StatusOK)
		require.Nil(t, got.Metadata.Rating)
		require.Equal(t, "sunset", *got.Metadata.Description)
	})
	t.Run("PATCH of another user's asset is 404", func(t *testing.T) {
		requireDetail(t, s.Do("PATCH", "/api/assets/"+foreign.ID, session, map[string]any{"rating": 1}), http.StatusNotFound)
	})
}

func TestTrashRestoreDelete(t *testing.T) {
	s := servertest.Start(t)
	_, session := s.Session()
	a := s.UploadAsset(session, "a.jpg", servertest.JPEG(t, 16, 16, 1), nil)
	b := s.UploadAsset(session, "b.jpg", servertest.JPEG(t, 16, 16, 2), nil)

	r := s.Do("POST", "/api/assets/trash", session, api.AssetIDs{IDs: []string{a.ID}})
	require.Equal(t, http.StatusOK, r.Status, "%s", r.Body)
	got := getAsset(t, s, session, a.ID)
	require.NotNil(t, got.TrashedAt)
	require.Equal(t, "UTC", got.TrashedAt.Location().String())
	require.Equal(t, []string{b.ID}, ids(listAssets(t, s, session, "")), "trashed assets are hidden by default")
	require.Equal(t, []string{a.ID}, ids(listAssets(t, s, session, "?state=trashed")))
	require.ElementsMatch(t, []string{a.ID, b.ID}, ids(listAssets(t, s, session, "?state=all")))

	require.Equal(t, http.StatusOK, s.Do("POST", "/api/assets/restore", session, api.AssetIDs{IDs: []string{a.ID}}).Status)
	require.Nil(t, getAsset(t, s, session, a.ID).TrashedAt)

	t.Run("bulk bodies hold 1 to 100 ids", func(t *testing.T) {
		validationItems(t, s.Do("POST", "/api/assets/trash", session, api.AssetIDs{IDs: []string{}}))
		many := make([]string, 101)
		for i := range many {
			many[i] = a.ID
		}
		items := validationItems(t, s.Do("DELETE", "/api/assets", session, api.AssetIDs{IDs: many}))
		require.Equal(t, []any{"body", "ids"}, items[0].Loc)
		validationItems(t, s.Do("DELETE", "/api/assets", session, api.AssetIDs{IDs: []string{"album_x"}}))
	})

	r = s.Do("DELETE", "/api/assets", session, api.AssetIDs{IDs: []string{a.ID}})
	require.Equal(t, http.StatusOK, r.Status, "%s", r.Body)
	require.JSONEq(t, `{"deleted": ["`+a.ID+`"]}`, string(r.Body))
	requireDetail(t, s.Do("GET", "/api/assets/"+a.ID, session, nil), http.StatusNotFound)
	requireDetail(t, s.Do("GET", "/api/assets/"+a.ID+"/original", session, nil), http.StatusNotFound)

	t.Run("the same bytes can be uploaded again after deletion", func(t *testing.T) {
		s.UploadAsset(session, "a.jpg", servertest.JPEG(t, 16, 16, 1), nil)
	})
	t.Run("events record every change", func(t *testing.T) {
		var p api.Page[api.Event]
		s.Do("GET", "/api/events?limit=200", session, nil).JSON(t, &p)
		var types []string
		for _, e := range p.Data {
			types = append(types, e.Type)
		}
		require.Equal(t, []string{"library.created", "asset.created", "asset.created", "asset.trashed",
			"asset.restored", "asset.deleted", "asset.created"}, types)
	})
}
