package httpapi_test

import (
	"bytes"
	"context"
	"fmt"
	"net/http"
	"strconv"
	"testing"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/stretchr/testify/require"

	"github.com/photoctl/photoctl/server/api"
	"github.com/photoctl/photoctl/server/app"
	"github.com/photoctl/photoctl/server/catalog"
	"github.com/photoctl/photoctl/server/mcp"
	"github.com/photoctl/photoctl/server/servertest"
	"github.com/photoctl/photoctl/server/store"
)

var readActions = []string{"asset.read", "search", "album.read", "person.read", "library.read"}

// mcpLibrary uploads n photos captured on consecutive days of June 2024
// and returns their ids, oldest first.
func mcpLibrary(t *testing.T, s *servertest.Server, session string, n int) []string {
	t.Helper()
	ids := make([]string, n)
	for i := range n {
		a := s.UploadAsset(session, fmt.Sprintf("beach%d.jpg", i), servertest.JPEG(t, 64, 48, i+1),
			map[string]string{"file_created_at": fmt.Sprintf("2024-06-%02dT10:00:00Z", i+1)})
		ids[i] = a.ID
	}
	return ids
}

func TestMCPListsOnlyTheToolsTheCredentialGrants(t *testing.T) {
	s := servertest.Start(t)
	_, session := s.Session()
	all := mcpToolNames(t, mcpConnect(t, s, s.CreateKey(session, []string{"all"}, nil)))
	want := mcp.ToolNames()
	require.ElementsMatch(t, want, all)

	read := mcpToolNames(t, mcpConnect(t, s, s.CreateKey(session, readActions, nil)))
	require.ElementsMatch(t, []string{"search_assets", "get_asset", "view_asset", "list_albums", "list_people",
		"list_libraries", "count_assets", "geo_clusters"}, read)

	// A write tool it does not list is refused with a clear tool error.
	cs := mcpConnect(t, s, s.CreateKey(session, readActions, nil))
	msg := mcpFails(t, cs, "create_album", map[string]any{"name": "Summer"})
	require.Contains(t, msg, `does not grant "album.write"`)
	require.Empty(t, servertest.List[api.Album](s, session, "/api/albums"), "nothing was created")
}

func TestMCPTransportAuthentication(t *testing.T) {
	s := servertest.Start(t)
	_, session := s.Session()
	initialize := `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"raw","version":"1"}}}`
	post := func(token string) *http.Response {
		req, err := http.NewRequest("POST", s.URL+"/api/mcp", bytes.NewBufferString(initialize))
		require.NoError(t, err)
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("Accept", "application/json, text/event-stream")
		if token != "" {
			req.Header.Set("Authorization", "Bearer "+token)
		}
		res, err := http.DefaultClient.Do(req)
		require.NoError(t, err)
		res.Body.Close()
		return res
	}
	require.Equal(t, http.StatusUnauthorized, post("").StatusCode, "no credential")
	require.Equal(t, http.StatusUnauthorized, post("apikey_nonsense").StatusCode, "a wrong key")
	require.Equal(t, http.StatusForbidden, post(session).StatusCode, "the default rule excludes first-party sessions")
	r := s.Do("POST", "/api/mcp", session, map[string]any{"jsonrpc": "2.0", "id": 1, "method": "tools/list"})
	require.Equal(t, http.StatusForbidden, r.Status)
	require.Contains(t, string(r.Body), "needs an API key or an OAuth access token; first-party session credentials cannot")
	require.Equal(t, http.StatusOK, post(s.CreateKey(session, readActions, nil)).StatusCode)
}

func TestMCPSearchPagesWithACursor(t *testing.T) {
	s := servertest.Start(t)
	_, session := s.Session()
	ids := mcpLibrary(t, s, session, 3)
	cs := mcpConnect(t, s, s.CreateKey(session, readActions, nil))

	args := map[string]any{"local_datetime_after": "2024-01-01T00:00:00", "limit": 2}
	first := mcpOK[mcp.AssetPage](t, cs, "search_assets", args)
	require.Len(t, first.Assets, 2)
	require.NotEmpty(t, first.NextCursor)
	args["cursor"] = first.NextCursor
	second := mcpOK[mcp.AssetPage](t, cs, "search_assets", args)
	require.Len(t, second.Assets, 1)
	require.Empty(t, second.NextCursor)
	got := []string{first.Assets[0].ID, first.Assets[1].ID, second.Assets[0].ID}
	require.Equal(t, []string{ids[2], ids[1], ids[0]}, got, "newest first, each once")
	require.Equal(t, "beach2.jpg", first.Assets[0].FileName)

	msg := mcpFails(t, cs, "search_assets", map[string]any{"media_type": "image"})
	require.Contains(t, msg, "at least one search criterion")
	require.Contains(t, mcpFails(t, cs, "search_assets", map[string]any{"query": "x", "limit": 500}), "limit must be")
}

func TestMCPToolsActOnTheLibrary(t *testing.T) {
	s := servertest.Start(t)
	_, session := s.Session()
	ids := mcpLibrary(t, s, session, 3)
	cs := mcpConnect(t, s, s.CreateKey(session, []string{"all"}, nil))

	libs := mcpOK[mcp.LibraryList](t, cs, "list_libraries", nil)
	require.Len(t, libs.Libraries, 1)
	require.Equal(t, "owner", libs.Libraries[0].Role)

	created := mcpOK[mcp.AlbumResult](t, cs, "create_album", map[string]any{"name": "Beach days"})
	require.True(t, created.Created)
	again := mcpOK[mcp.AlbumResult](t, cs, "create_album", map[string]any{"name": "Beach days"})
	require.False(t, again.Created)
	require.Equal(t, created.Album.ID, again.Album.ID, "named create")
	added := mcpOK[mcp.AlbumResult](t, cs, "add_to_album", map[string]any{"album_id": created.Album.ID, "asset_ids": ids})
	require.Equal(t, 3, added.Album.AssetCount)
	removed := mcpOK[mcp.AlbumResult](t, cs, "remove_from_album", map[string]any{"album_id": created.Album.ID, "asset_ids": ids[:1]})
	require.Equal(t, 2, removed.Album.AssetCount)
	albums := mcpOK[mcp.AlbumPage](t, cs, "list_albums", nil)
	require.Len(t, albums.Albums, 1)
	inAlbum := mcpOK[mcp.AssetPage](t, cs, "search_assets", map[string]any{"album_id": created.Album.ID})
	require.Len(t, inAlbum.Assets, 2)

	edited := mcpOK[mcp.EditResult](t, cs, "edit_assets", map[string]any{"edits": []map[string]any{
		{"id": ids[0], "rating": 4, "description": "sunset over the bay"},
		{"id": ids[1], "latitude": 43.3, "longitude": 5.37, "original_datetime": "2023-08-01T18:30:00"},
	}})
	require.Equal(t, 2, edited.Updated)
	one := mcpOK[mcp.AssetDetail](t, cs, "get_asset", map[string]any{"id": ids[0]})
	require.Equal(t, 4.0, *one.Rating)
	require.Equal(t, "sunset over the bay", one.Description)
	require.Nil(t, one.Text, "no text read yet")
	two := mcpOK[mcp.AssetDetail](t, cs, "get_asset", map[string]any{"id": ids[1]})
	require.InDelta(t, 43.3, *two.Latitude, 1e-6)
	require.Equal(t, "2023-08-01T18:30:00", two.TakenAt)
	require.NoError(t, searchStore(t, s).InTx(context.Background(), func(r store.Repos) error {
		return r.AssetTexts().PutOCR(context.Background(), ids[1], []catalog.TextLine{{Text: "HARBOUR CAFE"}, {Text: "Open daily"}}, "", time.Now())
	}))
	require.Equal(t, "HARBOUR CAFE\nOpen daily", *mcpOK[mcp.AssetDetail](t, cs, "get_asset", map[string]any{"id": ids[1]}).Text,
		"the text read in the picture")

	// Atomic: one bad item rejects the batch.
	msg := mcpFails(t, cs, "edit_assets", map[string]any{"edits": []map[string]any{
		{"id": ids[2], "rating": 2}, {"id": ids[0], "rating": 9}}})
	require.Contains(t, msg, "rating")
	require.Nil(t, mcpOK[mcp.AssetDetail](t, cs, "get_asset", map[string]any{"id": ids[2]}).Rating, "nothing written")
	cleared := mcpOK[mcp.EditResult](t, cs, "edit_assets", map[string]any{"edits": []map[string]any{
		{"id": ids[0], "clear": []string{"rating"}}}})
	require.Equal(t, 1, cleared.Updated)
	require.Nil(t, mcpOK[mcp.AssetDetail](t, cs, "get_asset", map[string]any{"id": ids[0]}).Rating)

	counts := mcpOK[mcp.CountPage](t, cs, "count_assets", map[string]any{"bucket": "year"})
	require.Equal(t, []api.AssetCount{{Bucket: "2024", Count: 2}, {Bucket: "2023", Count: 1}}, counts.Buckets)
	clusters := mcpOK[mcp.ClusterList](t, cs, "geo_clusters", map[string]any{"bbox": "0,40,10,50", "cell_size": 1})
	require.Len(t, clusters.Clusters, 1)
	require.Equal(t, ids[1], clusters.Clusters[0].RepresentativeAssetID)

	trashed := mcpOK[mcp.AssetIDsResult](t, cs, "trash_assets", map[string]any{"asset_ids": ids[2:]})
	require.Equal(t, ids[2:], trashed.AssetIDs)
	require.True(t, mcpOK[mcp.AssetDetail](t, cs, "get_asset", map[string]any{"id": ids[2]}).Trashed)
	mcpOK[mcp.AssetIDsResult](t, cs, "restore_assets", map[string]any{"asset_ids": ids[2:]})
	require.False(t, mcpOK[mcp.AssetDetail](t, cs, "get_asset", map[string]any{"id": ids[2]}).Trashed)

	var ada, twin api.Person
	s.Do("POST", "/api/people", session, api.PersonCreateRequest{Name: "Ada"}).JSON(t, &ada)
	s.Do("POST", "/api/people", session, api.PersonCreateRequest{Name: "Ada L"}).JSON(t, &twin)
	named := mcpOK[mcp.PersonResult](t, cs, "name_person", map[string]any{"person_id": ada.ID, "name": "Ada Lovelace"})
	require.Equal(t, "Ada Lovelace", named.Person.Name)
	merged := mcpOK[mcp.PersonResult](t, cs, "merge_people", map[string]any{"into_person_id": ada.ID, "person_ids": []string{twin.ID}})
	require.Equal(t, ada.ID, merged.Person.ID)
	people := mcpOK[mcp.PeoplePage](t, cs, "list_people", nil)
	require.Len(t, people.People, 1)
	require.Equal(t, "Ada Lovelace", people.People[0].Name)
}

func TestMCPToolsKeepTheCredentialsBounds(t *testing.T) {
	s := servertest.Start(t)
	_, session := s.Session()
	ids := mcpLibrary(t, s, session, 1)
	_, stranger := s.Session()
	theirs := mcpConnect(t, s, s.CreateKey(stranger, []string{"all"}, nil))
	require.Contains(t, mcpFails(t, theirs, "get_asset", map[string]any{"id": ids[0]}), "not found")
	require.Contains(t, mcpFails(t, theirs, "trash_assets", map[string]any{"asset_ids": ids}), "no asset with this id that you can reach")
	require.Contains(t, mcpFails(t, theirs, "view_asset", map[string]any{"id": ids[0]}), "not found")

	// A key scoped to another library cannot reach this one.
	mine := s.Libraries(session)[0].ID
	lib := s.CreateLibrary(session, "Other")
	scoped := mcpConnect(t, s, s.CreateKey(session, []string{"all"}, []string{lib.ID}))
	msg := mcpFails(t, scoped, "search_assets", map[string]any{"library_id": mine, "local_datetime_after": "2024-01-01T00:00:00"})
	require.Contains(t, msg, "forbidden")
	require.Contains(t, mcpFails(t, scoped, "edit_assets", map[string]any{"edits": []map[string]any{{"id": ids[0], "rating": 1}}}),
		"forbidden")

	// Each write tool refuses a read-only key.
	ro := mcpConnect(t, s, s.CreateKey(session, readActions, nil))
	for name, args := range map[string]any{
		"add_to_album": map[string]any{"album_id": "album_x", "asset_ids": ids}, "edit_assets": map[string]any{"edits": []map[string]any{{"id": ids[0], "rating": 1}}},
		"trash_assets": map[string]any{"asset_ids": ids}, "restore_assets": map[string]any{"asset_ids": ids},
		"name_person": map[string]any{"person_id": "person_x", "name": "X"}, "merge_people": map[string]any{"into_person_id": "person_x", "person_ids": []string{"person_y"}},
		"remove_from_album": map[string]any{"album_id": "album_x", "asset_ids": ids},
	} {
		require.Contains(t, mcpFails(t, ro, name, args), "does not grant", name)
	}
	require.False(t, mcpOK[mcp.AssetDetail](t, ro, "get_asset", map[string]any{"id": ids[0]}).Trashed)
}

func TestMCPToolCallsAreRateLimitedByWeight(t *testing.T) {
	s := servertest.Start(t, func(c *app.Config) {
		c.RateLimit.Enabled = true
		c.RateLimit.Burst = 1000
		c.MCP.Rate = 1
		c.MCP.Burst = 12
		c.MCP.Costs = mcp.Costs{Read: 1, Search: 5, View: 4, Write: 2}
	})
	s.Clock.Freeze()
	_, session := s.Session()
	mcpLibrary(t, s, session, 1)
	cs := mcpConnect(t, s, s.CreateKey(session, []string{"all"}, nil))
	search := map[string]any{"local_datetime_after": "2024-01-01T00:00:00"}
	mcpOK[mcp.AssetPage](t, cs, "search_assets", search)
	mcpOK[mcp.AssetPage](t, cs, "search_assets", search) // 10 of 12 spent
	res := mcpCall(t, cs, "search_assets", search)
	require.True(t, res.IsError)
	require.Contains(t, mcpText(res), "retry after 3 seconds")
	require.EqualValues(t, 3, res.Meta["retry_after_seconds"])
	mcpOK[mcp.LibraryList](t, cs, "list_libraries", nil) // a cheaper tool still fits

	s.Clock.Advance(4 * time.Second)
	mcpOK[mcp.AssetPage](t, cs, "search_assets", search)
}

func TestMCPTransportAnswers429WithRetryAfter(t *testing.T) {
	s := servertest.Start(t, func(c *app.Config) {
		c.RateLimit.Enabled = true
		c.RateLimit.Rate = 0.5
		c.RateLimit.Burst = 8
	})
	s.Clock.Freeze()
	_, session := s.Session()
	key := s.CreateKey(session, readActions, nil)
	cs := mcpConnect(t, s, key)
	// Every HTTP request pays the per-user limit once, whatever it carries:
	// the bucket runs dry within the burst.
	var err error
	for i := 0; i < 8 && err == nil; i++ {
		_, err = cs.CallTool(context.Background(), &sdk.CallToolParams{Name: "list_libraries"})
	}
	require.Error(t, err, "the transport refuses a request once the bucket is empty")

	req, err := http.NewRequest("POST", s.URL+"/api/mcp", bytes.NewBufferString(`{"jsonrpc":"2.0","id":1,"method":"ping"}`))
	require.NoError(t, err)
	req.Header.Set("Authorization", "Bearer "+key)
	req.Header.Set("Content-Type", "application/json")
	res, err := http.DefaultClient.Do(req)
	require.NoError(t, err)
	res.Body.Close()
	require.Equal(t, http.StatusTooManyRequests, res.StatusCode)
	retry, err := strconv.Atoi(res.Header.Get("Retry-After"))
	require.NoError(t, err)
	require.GreaterOrEqual(t, retry, 1)
}

func TestMCPViewAssetReturnsThePreviewImage(t *testing.T) {
	s := servertest.Start(t, servertest.WithPipeline)
	_, session := s.Session()
	a := s.UploadAsset(session, "view.jpg", servertest.JPEG(t, 640, 480, 7), nil)
	s.WaitForTasks(session, a.ID, 2*time.Minute)
	cs := mcpConnect(t, s, s.CreateKey(session, readActions, nil))
	res := mcpCall(t, cs, "view_asset", map[string]any{"id": a.ID})
	require.False(t, res.IsError, mcpText(res))
	img, ok := res.Content[0].(*sdk.ImageContent)
	require.True(t, ok, "image content first: %T", res.Content[0])
	require.Contains(t, []string{"image/webp", "image/jpeg"}, img.MIMEType)
	require.Greater(t, len(img.Data), 100)
}
