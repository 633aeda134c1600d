package httpapi_test

import (
	"net/http"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/photoctl/photoctl/server/api"
	"github.com/photoctl/photoctl/server/servertest"
)

// walkAssets pages through GET /api/assets?query with page size limit and
// returns every row in the order served, checking has_more on each page.
func walkAssets(t *testing.T, s *servertest.Server, token, query string, limit int) []api.Asset {
	t.Helper()
	var out []api.Asset
	after := ""
	for pages := 0; ; pages++ {
		require.Less(t, pages, 100, "paging does not end: %s", query)
		q := query + "&limit=" + strconv.Itoa(limit)
		if after != "" {
			q += "&starting_after_id=" + after
		}
		p := servertest.Expect[api.Page[api.Asset]](t, s.Do("GET", "/api/assets?"+q, token, nil), http.StatusOK)
		out = append(out, p.Data...)
		if !p.HasMore {
			require.True(t, pages == 0 || len(p.Data) > 0, "%s: has_more before an empty page", q)
			return out
		}
		require.Len(t, p.Data, limit, "%s: a page with has_more is full", q)
		after = p.Data[len(p.Data)-1].ID
	}
}

// TestStackViews checks both views of stacks through the real server: the
// collapsed list (the default, stacks=collapse) shows a stack once, as its
// cover; the expanded one (stacks=expand) every member once, marked with
// its stack's cover; keyset pages of any size cross stacks and capture-time
// ties without skipping or repeating a row; and counts and geo-clusters
// with the same parameters add up to the rows of that view.
func TestStackViews(t *testing.T) {
	s := servertest.Start(t)
	_, session := s.Session()
	const tie = "2024-05-01T10:00:00"
	// Stack A's members share their capture time with an unstacked asset,
	// so pages end inside it; a2 lies away from its cover.
	a0 := place(t, s, session, 1, tie, 2.35, 48.85)
	a1 := place(t, s, session, 2, tie, 2.351, 48.851)
	a2 := place(t, s, session, 3, tie, 139.7, 35.7)
	u3 := place(t, s, session, 4, tie, 2.35, 48.85)
	b4 := place(t, s, session, 5, "2024-05-02T09:00:00")
	b5 := place(t, s, session, 6, "2024-05-02T09:00:00", -74, 40.7)
	b6 := place(t, s, session, 7, "2024-05-02T09:00:00", -74, 40.7)
	u7 := place(t, s, session, 8, "2024-05-03T12:00:00")
	u8 := place(t, s, session, 9, "2024-04-30T08:00:00")
	for _, id := range []string{a0, b4, u7} {
		r := s.Do("PATCH", "/api/assets/"+id, session, map[string]any{"rating": 4})
		require.Equal(t, http.StatusOK, r.Status, "%s", r.Body)
	}
	stackA := createStack(t, s, session, a1, a0, a1, a2)
	stackB := createStack(t, s, session, b5, b4, b5, b6)
	album, status := createAlbum(t, s, session, map[string]any{"name": "Trip"})
	require.Equal(t, http.StatusCreated, status)
	r := s.Do("POST", "/api/albums/"+album.ID+"/assets", session, map[string]any{"asset_ids": []string{a0, a2, b5, u7}})
	require.Equal(t, http.StatusOK, r.Status, "%s", r.Body)
	ann := person(t, s, session, "Ann")
	for _, id := range []string{a0, u3, b5} {
		face(t, s, session, id, &ann.ID)
	}
	r = s.Do("POST", "/api/assets/trash", session, api.AssetIDs{IDs: []string{b6}})
	require.Equal(t, http.StatusOK, r.Status, "%s", r.Body)
	cover := map[string]string{a0: a1, a1: a1, a2: a1, b4: b5, b5: b5, b6: b5}

	cases := []struct {
		name, query      string
		expand, collapse []string // the rows, in any order
	}{
		{"no filter", "", []string{a0, a1, a2, u3, b4, b5, u7, u8}, []string{a1, u3, b5, u7, u8}},
		{"oldest first", "order=asc", []string{a0, a1, a2, u3, b4, b5, u7, u8}, []string{a1, u3, b5, u7, u8}},
		{"a capture-time range", "local_datetime_after=" + tie + "&local_datetime_before=2024-05-03T00:00:00",
			[]string{a0, a1, a2, u3, b4, b5}, []string{a1, u3, b5}},
		{"images", "media_type=image", []string{a0, a1, a2, u3, b4, b5, u7, u8}, []string{a1, u3, b5, u7, u8}},
		{"videos", "media_type=video", nil, nil},
		{"rated 3 and up", "min_rating=3", []string{a0, b4, u7}, []string{u7}},
		{"the trash", "state=trashed", []string{b6}, []string{b6}},
		{"live and trashed, oldest first", "state=all&order=asc", []string{a0, a1, a2, u3, b4, b5, b6, u7, u8},
			[]string{a1, u3, b5, b6, u7, u8}},
		{"an album (never collapsed)", "album_id=" + album.ID, []string{a0, a2, b5, u7}, []string{a0, a2, b5, u7}},
		{"a person", "person_ids=" + ann.ID, []string{a0, u3, b5}, []string{u3, b5}},
		{"a person in a time range, oldest first", "person_ids=" + ann.ID + "&order=asc&local_datetime_before=2024-05-02T00:00:00",
			[]string{a0, u3}, []string{u3}},
		{"the whole world", "bbox=-180,-90,180,90", []string{a0, a1, a2, u3, b5}, []string{a1, u3, b5}},
		{"a member alone in its box", "bbox=139,35,141,37", []string{a2}, nil},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			for _, view := range []struct {
				param string
				want  []string
			}{{"", c.collapse}, {"stacks=collapse", c.collapse}, {"stacks=expand", c.expand}} {
				query := strings.Trim(c.query+"&"+view.param, "&")
				all := walkAssets(t, s, session, query, 200)
				require.ElementsMatch(t, view.want, ids(all), "%s", query)
				requireTimelineOrder(t, all, strings.Contains(query, "order=asc"))
				for _, limit := range []int{1, 2, 3} {
					require.Equal(t, ids(all), ids(walkAssets(t, s, session, query, limit)), "%s, limit %d", query, limit)
				}
				for _, a := range all {
					if want, ok := cover[a.ID]; ok {
						require.NotNil(t, a.Stack, a.ID)
						require.Equal(t, want, a.Stack.CoverAssetID, a.ID)
					} else {
						require.Nil(t, a.Stack, a.ID)
					}
				}
				requireCountsMatchList(t, s, session, query)
				requireClustersMatchList(t, s, session, query, all)
			}
		})
	}
	t.Run("each stack shows once in the collapsed list, as its cover", func(t *testing.T) {
		seen := map[string]int{}
		for _, a := range walkAssets(t, s, session, "", 2) {
			if a.Stack != nil {
				seen[a.Stack.ID]++
				require.Equal(t, a.Stack.CoverAssetID, a.ID)
			}
		}
		require.Equal(t, map[string]int{stackA.ID: 1, stackB.ID: 1}, seen)
	})
	t.Run("a stack's members read its cover and their live count", func(t *testing.T) {
		got := servertest.Expect[api.Asset](t, s.Do("GET", "/api/assets/"+a2, session, nil), http.StatusOK)
		require.Equal(t, &api.AssetStack{ID: stackA.ID, AssetCount: 3, CoverAssetID: a1}, got.Stack)
	})
	t.Run("an unknown view is 422 on every route that takes it", func(t *testing.T) {
		for _, path := range []string{"/api/assets?stacks=foo", "/api/assets/counts?stacks=foo",
			"/api/assets/geo-clusters?bbox=-180,-90,180,90&cell_size=10&stacks=foo"} {
			items := validationItems(t, s.Do("GET", path, session, nil))
			require.Len(t, items, 1, path)
			require.Equal(t, []any{"query", "stacks"}, items[0].Loc, path)
			require.Equal(t, "enum", items[0].Type, path)
			require.Contains(t, items[0].Msg, "collapse", path)
			require.Contains(t, items[0].Msg, "expand", path)
		}
	})
}

// requireTimelineOrder requires rows by capture wall time, then id.
func requireTimelineOrder(t *testing.T, rows []api.Asset, asc bool) {
	t.Helper()
	require.True(t, slices.IsSortedFunc(rows, func(x, y api.Asset) int {
		c := strings.Compare(x.LocalDatetime[:19], y.LocalDatetime[:19])
		if c == 0 {
			c = strings.Compare(x.ID, y.ID)
		}
		if !asc {
			return -c
		}
		return c
	}), "rows out of order: %v", ids(rows))
}

// requireClustersMatchList requires the geo-clusters of a list's box (the
// world when it has none), with its filters and view (geo-clusters take no
// order), to count that list's rows with coordinates.
func requireClustersMatchList(t *testing.T, s *servertest.Server, token, query string, rows []api.Asset) {
	t.Helper()
	filters := []string{"bbox=-180,-90,180,90"}
	for _, p := range strings.Split(query, "&") {
		switch {
		case strings.HasPrefix(p, "bbox="):
			filters[0] = p
		case p != "" && !strings.HasPrefix(p, "order="):
			filters = append(filters, p)
		}
	}
	located := 0
	for _, a := range rows {
		if a.Metadata.Latitude != nil {
			located++
		}
	}
	for _, cell := range []string{"10", "1", "0.37"} {
		var sum int64
		for _, c := range clusterCells(t, s, token, "?cell_size="+cell+"&"+strings.Join(filters, "&")) {
			sum += c.Count
		}
		require.EqualValues(t, located, sum, "%s, cell_size %s", query, cell)
	}
}
