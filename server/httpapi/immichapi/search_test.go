package immichapi_test

import (
	"net/http"
	"sort"
	"strconv"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/photoctl/photoctl/server/api"
	"github.com/photoctl/photoctl/server/servertest"
)

// immichSearchPage is one answer of POST /api/search/metadata, with the
// fields immich-go reads.
type immichSearchPage struct {
	Assets struct {
		Total    int              `json:"total"`
		Count    int              `json:"count"`
		Items    []map[string]any `json:"items"`
		NextPage *string          `json:"nextPage"`
	} `json:"assets"`
}

// searchAll pages through a search as immich-go does (the next page is the
// number in nextPage) and returns the ids of every item.
func searchAll(t *testing.T, c *immichClient, body map[string]any) []string {
	t.Helper()
	var ids []string
	page := 1
	for range 100 {
		body["page"] = page
		r := c.do("POST", "/api/search/metadata", body)
		p := servertest.Expect[immichSearchPage](t, r, http.StatusOK)
		// nextPage is a JSON string or null, never a number.
		require.NotRegexp(t, `"nextPage":\d`, string(r.Body))
		require.Equal(t, len(p.Assets.Items), p.Assets.Count)
		for _, it := range p.Assets.Items {
			ids = append(ids, it["id"].(string))
		}
		if p.Assets.NextPage == nil {
			return ids
		}
		n, err := strconv.Atoi(*p.Assets.NextPage)
		require.NoError(t, err, "immich-go reads nextPage into an integer")
		page = n
	}
	t.Fatal("search did not end")
	return nil
}

func TestImmichSearchShowsWhatImmichGoReads(t *testing.T) {
	c, u, _ := newImmich(t)
	data := servertest.JPEG(t, 24, 16, 1)
	id := c.uploadNew("IMG_1.jpg", data)

	var p immichSearchPage
	c.ok(200, "POST", "/api/search/metadata", map[string]any{"page": 1, "size": 1000, "withExif": true,
		"visibility": "timeline", "order": "desc"}, &p)
	require.Len(t, p.Assets.Items, 1)
	require.Nil(t, p.Assets.NextPage)
	it := p.Assets.Items[0]
	require.Equal(t, id, it["id"])
	require.Equal(t, u.ID, it["ownerId"], "immich-go keeps the assets owned by users/me")
	require.Nil(t, it["libraryId"])
	require.Equal(t, sha1Base64(data), it["checksum"])
	require.Equal(t, "IMG_1.jpg", it["originalFileName"])
	require.Equal(t, "2024-05-01T10:00:00.000Z", it["fileModifiedAt"])
	require.Regexp(t, rfc3339Millis, it["fileCreatedAt"])
	require.Equal(t, "IMAGE", it["type"])
	require.Equal(t, "timeline", it["visibility"])
	require.Equal(t, false, it["isTrashed"])
	require.Equal(t, false, it["isArchived"])
	require.Equal(t, false, it["isFavorite"])
	require.Contains(t, it, "rating")
	exif := it["exifInfo"].(map[string]any)
	require.Equal(t, float64(len(data)), exif["fileSizeInByte"])
	// With a numeric offset, as Immich's database gives exif dates:
	// immich-go reads no other form.
	require.Regexp(t, `^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}\+00:00$`, exif["dateTimeOriginal"])
	for _, k := range []string{"description", "latitude", "longitude"} {
		require.Contains(t, exif, k)
	}

	t.Run("without withExif there is no exifInfo", func(t *testing.T) {
		var p immichSearchPage
		c.ok(200, "POST", "/api/search/metadata", map[string]any{"page": 1}, &p)
		require.NotContains(t, p.Assets.Items[0], "exifInfo")
	})
	t.Run("no asset is archived, hidden or locked", func(t *testing.T) {
		for _, v := range []string{"archive", "hidden", "locked"} {
			require.Empty(t, searchAll(t, c, map[string]any{"visibility": v}))
		}
	})
	t.Run("bad filters are 400s", func(t *testing.T) {
		for _, body := range []map[string]any{{"size": 0}, {"size": 1001}, {"order": "up"}, {"visibility": "x"},
			{"trashedAfter": "yesterday"}, {"page": -1}, {"page": "abc"}} {
			requireImmichError(t, c.do("POST", "/api/search/metadata", body), http.StatusBadRequest)
		}
	})
	t.Run("a page that no answer gave is a 400", func(t *testing.T) {
		requireImmichError(t, c.do("POST", "/api/search/metadata", map[string]any{"page": 999999}), http.StatusBadRequest)
	})
}

func TestImmichSearchPagesEachAssetOnce(t *testing.T) {
	c, _, session := newImmich(t)
	var live, trashed []string
	for i := range 7 {
		live = append(live, c.uploadNew("p"+strconv.Itoa(i)+".jpg", servertest.JPEG(t, 16, 16, 10+i)))
	}
	for i := range 3 {
		trashed = append(trashed, c.uploadNew("t"+strconv.Itoa(i)+".jpg", servertest.JPEG(t, 16, 16, 30+i)))
	}
	r := c.s.Do("POST", "/api/assets/trash", session, api.AssetIDs{IDs: trashed})
	require.Equal(t, http.StatusOK, r.Status, "%s", r.Body)
	// A stack hides its members from native lists; Immich clients must see them.
	r = c.s.Do("POST", "/api/stacks", session, api.StackCreateRequest{AssetIDs: live[:3]})
	require.Equal(t, http.StatusCreated, r.Status, "%s", r.Body)

	timeline := searchAll(t, c, map[string]any{"size": 2, "visibility": "timeline", "withExif": true})
	require.ElementsMatch(t, live, timeline)
	asc := searchAll(t, c, map[string]any{"size": 3, "order": "asc"})
	require.ElementsMatch(t, live, asc)
	inTrash := searchAll(t, c, map[string]any{"size": 2, "trashedAfter": "2000-01-01T00:00:00.000Z"})
	require.ElementsMatch(t, trashed, inTrash)
	require.Empty(t, searchAll(t, c, map[string]any{"trashedAfter": "2999-01-01T00:00:00.000Z"}))

	all := append(append([]string{}, timeline...), inTrash...)
	sort.Strings(all)
	require.Len(t, all, 10)
	for i := 1; i < len(all); i++ {
		require.NotEqual(t, all[i-1], all[i], "an asset appears once across the timeline and trash searches")
	}
	require.ElementsMatch(t, all, searchAll(t, c, map[string]any{"size": 4, "withDeleted": true}))
	require.Len(t, searchAll(t, c, map[string]any{"type": "VIDEO"}), 0)
}

func TestImmichStatistics(t *testing.T) {
	c, _, session := newImmich(t)
	var st map[string]int
	c.ok(200, "GET", "/api/assets/statistics", nil, &st)
	require.Equal(t, map[string]int{"images": 0, "videos": 0, "total": 0}, st)

	ids := []string{c.uploadNew("a.jpg", servertest.JPEG(t, 16, 16, 1)), c.uploadNew("b.jpg", servertest.JPEG(t, 16, 16, 2))}
	c.ok(200, "GET", "/api/assets/statistics", nil, &st)
	require.Equal(t, map[string]int{"images": 2, "videos": 0, "total": 2}, st)

	r := c.s.Do("POST", "/api/assets/trash", session, api.AssetIDs{IDs: ids[:1]})
	require.Equal(t, http.StatusOK, r.Status, "%s", r.Body)
	c.ok(200, "GET", "/api/assets/statistics", nil, &st)
	require.Equal(t, 1, st["total"])
	c.ok(200, "GET", "/api/assets/statistics?isTrashed=true", nil, &st)
	require.Equal(t, 1, st["images"])
	c.ok(200, "GET", "/api/assets/statistics?isFavorite=true", nil, &st)
	require.Equal(t, 0, st["total"])
}
