package httpapi_test

import (
	"fmt"
	"net/http"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/photoctl/photoctl/server/api"
	"github.com/photoctl/photoctl/server/servertest"
)

// stackDo sends a request that must answer status with a stack.
func stackDo(t *testing.T, s *servertest.Server, token, method, path string, body any, status int) api.Stack {
	t.Helper()
	r := s.Do(method, path, token, body)
	return servertest.Expect[api.Stack](t, r, status)
}

func createStack(t *testing.T, s *servertest.Server, token string, cover string, assetIDs ...string) api.Stack {
	t.Helper()
	body := map[string]any{"asset_ids": assetIDs}
	if cover != "" {
		body["cover_asset_id"] = cover
	}
	return stackDo(t, s, token, "POST", "/api/stacks", body, http.StatusCreated)
}

// burst places n assets a second apart from 2024-05-01T10:00:00Z (seeds
// 1…n) and returns their ids in the order they were taken.
func burst(t *testing.T, s *servertest.Server, token string, n int) []string {
	t.Helper()
	ids := make([]string, n)
	for i := range ids {
		ids[i] = place(t, s, token, i+1, fmt.Sprintf("2024-05-01T10:00:%02dZ", i))
	}
	return ids
}

// stackOf returns the stack field of one asset as "id/count", or "".
func stackOf(t *testing.T, s *servertest.Server, token, assetID string) string {
	t.Helper()
	a := getAsset(t, s, token, assetID)
	if a.Stack == nil {
		return ""
	}
	return a.Stack.ID + "/" + string(rune('0'+a.Stack.AssetCount))
}

func trashAssets(t *testing.T, s *servertest.Server, token, path string, ids ...string) {
	t.Helper()
	r := s.Do("POST", path, token, api.AssetIDs{IDs: ids})
	require.Equal(t, http.StatusOK, r.Status, "%s", r.Body)
}

func TestStackCollapsesInLists(t *testing.T) {
	s := servertest.Start(t)
	_, session := s.Session()
	lib := s.Libraries(session)[0]
	taken := burst(t, s, session, 3)
	a, b, c := taken[0], taken[1], taken[2]
	lone := place(t, s, session, 4, "2024-04-01T00:00:00Z")

	st := createStack(t, s, session, b, c, a, b, c)
	require.Equal(t, []string{a, b, c}, st.AssetIDs, "members run in capture order; a repeated id counts once")
	require.Equal(t, 3, st.AssetCount)
	require.Equal(t, b, st.CoverAssetID)
	require.Equal(t, "manual", st.Source)
	require.Equal(t, lib.ID, st.LibraryID)

	t.Run("the list shows the cover alone, with the stack", func(t *testing.T) {
		list := listAssets(t, s, session, "")
		require.Equal(t, []string{b, lone}, ids(list))
		require.Equal(t, &api.AssetStack{ID: st.ID, AssetCount: 3, CoverAssetID: b}, list[0].Stack)
		require.Nil(t, list[1].Stack)
		require.Nil(t, list[0].Metadata.AutoStackID, "only automatic stacks set auto_stack_id")
		requireCountsMatchList(t, s, session, "")
	})
	t.Run("stack_id lists the members", func(t *testing.T) {
		members := listAssets(t, s, session, "?order=asc&stack_id="+st.ID)
		require.Equal(t, []string{a, b, c}, ids(members))
		for _, m := range members {
			require.Equal(t, st.ID, m.Stack.ID)
		}
		requireDetail(t, s.Do("GET", "/api/assets?stack_id=stack_01hzzzzzzzzzzzzzzzzzzzzzzz", session, nil), http.StatusNotFound)
	})
	t.Run("reads and lists of stacks", func(t *testing.T) {
		require.Equal(t, st, stackDo(t, s, session, "GET", "/api/stacks/"+st.ID, nil, http.StatusOK))
		require.Equal(t, []api.Stack{st}, servertest.List[api.Stack](s, session, "/api/stacks"))
		requireDetail(t, s.Do("GET", "/api/stacks/stack_01hzzzzzzzzzzzzzzzzzzzzzzz", session, nil), http.StatusNotFound)
	})
	t.Run("a new cover takes the place in the list", func(t *testing.T) {
		got := stackDo(t, s, session, "PATCH", "/api/stacks/"+st.ID, map[string]any{"cover_asset_id": c}, http.StatusOK)
		require.Equal(t, c, got.CoverAssetID)
		require.Equal(t, []string{c, lone}, ids(listAssets(t, s, session, "")))
		requireCountsMatchList(t, s, session, "")
	})
	t.Run("adding and removing members", func(t *testing.T) {
		got := stackDo(t, s, session, "PATCH", "/api/stacks/"+st.ID,
			map[string]any{"add_asset_ids": []string{lone}, "remove_asset_ids": []string{a}}, http.StatusOK)
		require.Equal(t, []string{lone, b, c}, got.AssetIDs)
		require.Equal(t, []string{c, a}, ids(listAssets(t, s, session, "")))
		require.Equal(t, "", stackOf(t, s, session, a))
		require.Equal(t, st.ID+"/3", stackOf(t, s, session, lone))
	})
	t.Run("every change wrote its event", func(t *testing.T) {
		require.Equal(t, []string{"stack.created", "stack.updated", "stack.updated"}, s.EventTypes(session, lib.ID, st.ID))
	})
}

func TestStackRules(t *testing.T) {
	s := servertest.Start(t)
	_, session := s.Session()
	taken := burst(t, s, session, 5)
	a, b, c, d, trashed := taken[0], taken[1], taken[2], taken[3], taken[4]
	trashAssets(t, s, session, "/api/assets/trash", trashed)
	st := createStack(t, s, session, "", a, b)
	require.Equal(t, a, st.CoverAssetID, "the first listed is the default cover")
	_, stranger := s.Session()
	foreign := s.UploadAsset(stranger, "f.jpg", servertest.JPEG(t, 8, 8, 9), nil).ID

	t.Run("an asset already in a stack is 409 and nothing is written", func(t *testing.T) {
		requireDetail(t, s.Do("POST", "/api/stacks", session, map[string]any{"asset_ids": []string{c, b}}), http.StatusConflict)
		require.Equal(t, "", stackOf(t, s, session, c))
		other := createStack(t, s, session, "", c, d)
		requireDetail(t, s.Do("PATCH", "/api/stacks/"+st.ID, session, map[string]any{"add_asset_ids": []string{c}}),
			http.StatusConflict)
		require.Equal(t, []string{c, d}, stackDo(t, s, session, "GET", "/api/stacks/"+other.ID, nil, http.StatusOK).AssetIDs)
		require.Equal(t, http.StatusNoContent, s.Do("DELETE", "/api/stacks/"+other.ID, session, nil).Status)
	})
	t.Run("invalid bodies are 422", func(t *testing.T) {
		cases := []struct {
			name string
			body map[string]any
			loc  []any
		}{
			{"one asset", map[string]any{"asset_ids": []string{c}}, []any{"body", "asset_ids"}},
			{"one asset twice", map[string]any{"asset_ids": []string{c, c}}, []any{"body", "asset_ids"}},
			{"a cover outside", map[string]any{"asset_ids": []string{c, d}, "cover_asset_id": a}, []any{"body", "cover_asset_id"}},
			{"another user's asset", map[string]any{"asset_ids": []string{c, foreign}}, []any{"body", "asset_ids", 1.0}},
			{"a trashed asset", map[string]any{"asset_ids": []string{trashed, c}}, []any{"body", "asset_ids", 0.0}},
			{"not an id", map[string]any{"asset_ids": []string{c, "x"}}, []any{"body", "asset_ids", 1.0}},
			{"an unknown field", map[string]any{"asset_ids": []string{c, d}, "name": "x"}, []any{"body", "name"}},
		}
		for _, tc := range cases {
			items := validationItems(t, s.Do("POST", "/api/stacks", session, tc.body))
			require.Equal(t, tc.loc, items[0].Loc, tc.name)
		}
		items := validationItems(t, s.Do("PATCH", "/api/stacks/"+st.ID, session, map[string]any{"cover_asset_id": c}))
		require.Equal(t, []any{"body", "cover_asset_id"}, items[0].Loc)
		items = validationItems(t, s.Do("PATCH", "/api/stacks/"+st.ID, session,
			map[string]any{"add_asset_ids": []string{c}, "remove_asset_ids": []string{c}}))
		require.Equal(t, []any{"body", "remove_asset_ids", 0.0}, items[0].Loc)
		require.Equal(t, []string{}, listAssetsStackless(t, s, session, c, d))
	})
	t.Run("another user's stack reads as 404", func(t *testing.T) {
		requireDetail(t, s.Do("GET", "/api/stacks/"+st.ID, stranger, nil), http.StatusNotFound)
		requireDetail(t, s.Do("DELETE", "/api/stacks/"+st.ID, stranger, nil), http.StatusNotFound)
	})
	t.Run("an asset of the caller's other library is 422", func(t *testing.T) {
		first := s.Libraries(session)[0]
		second, _ := createLibrary(t, s, session, "Second")
		there := s.UploadAsset(session, "s.jpg", servertest.JPEG(t, 8, 8, 10), map[string]string{"library_id": second.ID}).ID
		items := validationItems(t, s.Do("POST", "/api/stacks", session,
			map[string]any{"asset_ids": []string{c, there}, "library_id": first.ID}))
		require.Equal(t, []any{"body", "asset_ids", 1.0}, items[0].Loc)
		items = validationItems(t, s.Do("PATCH", "/api/stacks/"+st.ID, session, map[string]any{"add_asset_ids": []string{there}}))
		require.Equal(t, []any{"body", "add_asset_ids", 0.0}, items[0].Loc)
		// Without library_id the stack goes where its assets are.
		inFirst := stackDo(t, s, session, "POST", "/api/stacks", map[string]any{"asset_ids": []string{c, d}}, http.StatusCreated)
		require.Equal(t, first.ID, inFirst.LibraryID)
		requireDetail(t, s.Do("GET", "/api/assets?library_id="+second.ID+"&stack_id="+st.ID, session, nil), http.StatusNotFound)
	})
}

// listAssetsStackless returns those of ids that are in a stack.
func listAssetsStackless(t *testing.T, s *servertest.Server, token string, assetIDs ...string) []string {
	t.Helper()
	out := []string{}
	for _, id := range assetIDs {
		if stackOf(t, s, token, id) != "" {
			out = append(out, id)
		}
	}
	return out
}

func TestStackDissolves(t *testing.T) {
	s := servertest.Start(t)
	_, session := s.Session()
	lib := s.Libraries(session)[0]
	taken := burst(t, s, session, 3)
	a, b, c := taken[0], taken[1], taken[2]

	t.Run("removing down to one member dissolves the stack", func(t *testing.T) {
		st := createStack(t, s, session, "", a, b)
		r := s.Do("PATCH", "/api/stacks/"+st.ID, session, map[string]any{"remove_asset_ids": []string{a}})
		require.Equal(t, http.StatusNoContent, r.Status, "%s", r.Body)
		requireDetail(t, s.Do("GET", "/api/stacks/"+st.ID, session, nil), http.StatusNotFound)
		require.Equal(t, []string{}, listAssetsStackless(t, s, session, a, b))
		require.Equal(t, []string{c, b, a}, ids(listAssets(t, s, session, "")))
		require.Equal(t, []string{"stack.created", "stack.deleted"}, s.EventTypes(session, lib.ID, st.ID))
	})
	t.Run("unstacking keeps the assets", func(t *testing.T) {
		st := createStack(t, s, session, c, a, b, c)
		require.Equal(t, []string{c}, ids(listAssets(t, s, session, "")))
		require.Equal(t, http.StatusNoContent, s.Do("DELETE", "/api/stacks/"+st.ID, session, nil).Status)
		require.Equal(t, []string{c, b, a}, ids(listAssets(t, s, session, "")))
		requireCountsMatchList(t, s, session, "")
	})
	t.Run("deleting members down to one dissolves it", func(t *testing.T) {
		st := createStack(t, s, session, b, a, b, c)
		r := s.Do("DELETE", "/api/assets", session, api.AssetIDs{IDs: []string{b}})
		require.Equal(t, http.StatusOK, r.Status, "%s", r.Body)
		got := stackDo(t, s, session, "GET", "/api/stacks/"+st.ID, nil, http.StatusOK)
		require.Equal(t, []string{a, c}, got.AssetIDs)
		require.Equal(t, a, got.CoverAssetID, "the earliest live member took the deleted cover's place")
		require.Equal(t, []string{a}, ids(listAssets(t, s, session, "")))
		r = s.Do("DELETE", "/api/assets", session, api.AssetIDs{IDs: []string{c}})
		require.Equal(t, http.StatusOK, r.Status, "%s", r.Body)
		requireDetail(t, s.Do("GET", "/api/stacks/"+st.ID, session, nil), http.StatusNotFound)
		require.Equal(t, "", stackOf(t, s, session, a))
		require.Equal(t, []string{"stack.created", "stack.updated", "stack.deleted"}, s.EventTypes(session, lib.ID, st.ID))
		requireCountsMatchList(t, s, session, "")
	})
}

func TestStackTrash(t *testing.T) {
	s := servertest.Start(t)
	_, session := s.Session()
	lib := s.Libraries(session)[0]
	taken := burst(t, s, session, 3)
	a, b, c := taken[0], taken[1], taken[2]
	st := createStack(t, s, session, c, a, b, c)

	t.Run("a trashed cover gives way to the earliest live member", func(t *testing.T) {
		trashAssets(t, s, session, "/api/assets/trash", c)
		require.Equal(t, []string{a}, ids(listAssets(t, s, session, "")))
		require.Equal(t, []string{c}, ids(listAssets(t, s, session, "?state=trashed")), "the trash lists trashed members")
		require.Equal(t, a, stackDo(t, s, session, "GET", "/api/stacks/"+st.ID, nil, http.StatusOK).CoverAssetID)
		require.Equal(t, st.ID+"/2", stackOf(t, s, session, a), "the count is of live members")
		require.Equal(t, st.ID+"/1", stackOf(t, s, session, c))
		requireCountsMatchList(t, s, session, "")
		requireCountsMatchList(t, s, session, "state=trashed")
	})
	t.Run("a trashed member stays a member", func(t *testing.T) {
		trashAssets(t, s, session, "/api/assets/trash", b)
		require.Equal(t, []string{a}, ids(listAssets(t, s, session, "")))
		require.Equal(t, []string{a, b, c}, stackDo(t, s, session, "GET", "/api/stacks/"+st.ID, nil, http.StatusOK).AssetIDs)
		require.Equal(t, []string{c, b}, ids(listAssets(t, s, session, "?state=trashed")))
	})
	t.Run("when all are trashed, the first one restored becomes the cover", func(t *testing.T) {
		trashAssets(t, s, session, "/api/assets/trash", a)
		require.Empty(t, listAssets(t, s, session, ""))
		trashAssets(t, s, session, "/api/assets/restore", b)
		require.Equal(t, []string{b}, ids(listAssets(t, s, session, "")))
		require.Equal(t, b, stackDo(t, s, session, "GET", "/api/stacks/"+st.ID, nil, http.StatusOK).CoverAssetID)
		trashAssets(t, s, session, "/api/assets/restore", a, c)
		require.Equal(t, []string{b}, ids(listAssets(t, s, session, "")))
		require.Equal(t, []string{a, b, c}, ids(listAssets(t, s, session, "?order=asc&stack_id="+st.ID)))
		requireCountsMatchList(t, s, session, "")
		requireCountsMatchList(t, s, session, "state=all")
	})
	t.Run("cover changes wrote events", func(t *testing.T) {
		require.Equal(t, []string{"stack.created", "stack.updated", "stack.updated"}, s.EventTypes(session, lib.ID, st.ID))
	})
}

func TestStackAccess(t *testing.T) {
	s := servertest.Start(t)
	_, owner := s.Session()
	lib := s.Libraries(owner)[0]
	a := place(t, s, owner, 1, "2024-05-01T10:00:00Z")
	b := place(t, s, owner, 2, "2024-05-01T10:00:01Z")
	_, viewer := s.AddMember(owner, lib.ID, "viewer")
	_, collaborator := s.AddMember(owner, lib.ID, "collaborator")
	readKey := s.CreateKey(owner, []string{"stack.read"}, nil)

	requireDetail(t, s.Do("POST", "/api/stacks", viewer, map[string]any{"asset_ids": []string{a, b}, "library_id": lib.ID}),
		http.StatusForbidden)
	st := servertest.Expect[api.Stack](t, s.Do("POST", "/api/stacks", collaborator, map[string]any{"asset_ids": []string{a, b}, "library_id": lib.ID}), http.StatusCreated)
	require.Equal(t, st, stackDo(t, s, viewer, "GET", "/api/stacks/"+st.ID, nil, http.StatusOK))
	require.Equal(t, st, stackDo(t, s, readKey, "GET", "/api/stacks/"+st.ID, nil, http.StatusOK))
	requireDetail(t, s.Do("DELETE", "/api/stacks/"+st.ID, viewer, nil), http.StatusForbidden)
	requireDetail(t, s.Do("DELETE", "/api/stacks/"+st.ID, readKey, nil), http.StatusForbidden)
	require.Equal(t, http.StatusNoContent, s.Do("DELETE", "/api/stacks/"+st.ID, collaborator, nil).Status)
}

// TestAlbumAndStackResponsesMatchTheDocument checks real answers of the
// album and stack routes against the served OpenAPI document.
func TestAlbumAndStackResponsesMatchTheDocument(t *testing.T) {
	s := servertest.Start(t)
	v := newValidator(t, servedDocument(t, s))
	_, session := s.Session()
	a := place(t, s, session, 1, "2024-05-01T10:00:00+02:00")
	b := place(t, s, session, 2, "2024-05-01T10:00:01")
	var album api.Album
	exchange(t, s, v, "POST", "/api/albums", session, map[string]any{"name": "Doc"}, http.StatusCreated).JSON(t, &album)
	exchange(t, s, v, "POST", "/api/albums", session, map[string]any{"name": "doc"}, http.StatusOK)
	exchange(t, s, v, "POST", "/api/albums", session, map[string]any{"name": "doc", "description": "x"}, http.StatusConflict)
	exchange(t, s, v, "POST", "/api/albums", session, map[string]any{"name": " "}, http.StatusUnprocessableEntity)
	exchange(t, s, v, "POST", "/api/albums/"+album.ID+"/assets", session, map[string]any{"asset_ids": []string{a, b}}, http.StatusOK)
	exchange(t, s, v, "PUT", "/api/albums/"+album.ID+"/cover", session, map[string]any{"asset_id": a}, http.StatusOK)
	exchange(t, s, v, "PATCH", "/api/albums/"+album.ID, session, map[string]any{"description": "d"}, http.StatusOK)
	exchange(t, s, v, "GET", "/api/albums/"+album.ID, session, nil, http.StatusOK)
	exchange(t, s, v, "GET", "/api/albums?asset_id="+a, session, nil, http.StatusOK)
	exchange(t, s, v, "GET", "/api/album-assets?album_id="+album.ID, session, nil, http.StatusOK)
	exchange(t, s, v, "GET", "/api/assets?album_id="+album.ID, session, nil, http.StatusOK)
	exchange(t, s, v, "DELETE", "/api/albums/"+album.ID+"/assets", session, map[string]any{"asset_ids": []string{b}}, http.StatusOK)
	exchange(t, s, v, "DELETE", "/api/albums/"+album.ID, session, nil, http.StatusNoContent)
	exchange(t, s, v, "GET", "/api/albums/"+album.ID, session, nil, http.StatusNotFound)

	var st api.Stack
	exchange(t, s, v, "POST", "/api/stacks", session, map[string]any{"asset_ids": []string{a, b}}, http.StatusCreated).JSON(t, &st)
	exchange(t, s, v, "POST", "/api/stacks", session, map[string]any{"asset_ids": []string{a, b}}, http.StatusConflict)
	exchange(t, s, v, "GET", "/api/stacks", session, nil, http.StatusOK)
	exchange(t, s, v, "GET", "/api/assets?stack_id="+st.ID, session, nil, http.StatusOK)
	exchange(t, s, v, "PATCH", "/api/stacks/"+st.ID, session, map[string]any{"cover_asset_id": b}, http.StatusOK)
	exchange(t, s, v, "GET", "/api/stacks/"+st.ID, session, nil, http.StatusOK)
	exchange(t, s, v, "DELETE", "/api/stacks/"+st.ID, session, nil, http.StatusNoContent)
}
