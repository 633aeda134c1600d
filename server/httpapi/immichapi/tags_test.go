package immichapi_test

import (
	"net/http"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/photoctl/photoctl/server/servertest"
)

// immichTag holds the tag fields the clients read.
type immichTag struct {
	ID       string  `json:"id"`
	ParentID *string `json:"parentId"`
	Name     string  `json:"name"`
	Value    string  `json:"value"`
}

// immichBulkResult is one id's outcome of a bulk call.
type immichBulkResult struct {
	ID      string `json:"id"`
	Success bool   `json:"success"`
	Error   string `json:"error"`
}

// missingAsset is a well-formed asset id that names no asset.
const missingAsset = "asset_01h0000000000000000000000a"

func TestImmichTags(t *testing.T) {
	c, _, _ := newImmich(t)
	a1 := c.uploadNew("a.jpg", servertest.JPEG(t, 16, 16, 1))
	a2 := c.uploadNew("b.jpg", servertest.JPEG(t, 16, 16, 2))

	var tags []immichTag
	c.ok(200, "PUT", "/api/tags", map[string]any{"tags": []string{"Travel/2024", " Travel/2024 ", "Family"}}, &tags)
	require.Len(t, tags, 3)
	require.Equal(t, tags[0].ID, tags[1].ID, "an upsert answers the existing tag")
	require.Equal(t, immichTag{ID: tags[0].ID, Name: "2024", Value: "Travel/2024"}, tags[0])
	travel, family := tags[0].ID, tags[2].ID

	t.Run("tags are listed by value", func(t *testing.T) {
		var list []immichTag
		c.ok(200, "GET", "/api/tags", nil, &list)
		require.Equal(t, []string{"Family", "Travel/2024"}, []string{list[0].Value, list[1].Value})
	})
	t.Run("tagging answers per id", func(t *testing.T) {
		var res []immichBulkResult
		c.ok(200, "PUT", "/api/tags/"+travel+"/assets", map[string]any{"ids": []string{a1, a1, missingAsset}}, &res)
		require.Equal(t, []immichBulkResult{{ID: a1, Success: true}, {ID: a1, Error: "duplicate"},
			{ID: missingAsset, Error: "not_found"}}, res)
		c.ok(200, "PUT", "/api/tags/"+travel+"/assets", map[string]any{"ids": []string{a1}}, &res)
		require.Equal(t, []immichBulkResult{{ID: a1, Error: "duplicate"}}, res)
	})
	t.Run("bulk tagging counts the links made", func(t *testing.T) {
		var res struct{ Count int }
		c.ok(200, "PUT", "/api/tags/assets", map[string]any{"tagIds": []string{travel, family}, "assetIds": []string{a1, a2}}, &res)
		require.Equal(t, 3, res.Count) // a1 already had Travel/2024
	})
	t.Run("an asset shows its tags", func(t *testing.T) {
		var a struct{ Tags []immichTag }
		c.ok(200, "GET", "/api/assets/"+a1, nil, &a)
		require.Len(t, a.Tags, 2)
		require.Equal(t, "Family", a.Tags[0].Value)
	})
	t.Run("malformed ids and empty values are 400", func(t *testing.T) {
		requireImmichError(t, c.do("PUT", "/api/tags/nope/assets", map[string]any{"ids": []string{a1}}), http.StatusBadRequest)
		requireImmichError(t, c.do("PUT", "/api/tags/"+travel+"/assets", map[string]any{"ids": []string{""}}), http.StatusBadRequest)
		requireImmichError(t, c.do("PUT", "/api/tags/assets", map[string]any{"tagIds": []string{travel}, "assetIds": []string{"x"}}),
			http.StatusBadRequest)
		requireImmichError(t, c.do("PUT", "/api/tags", map[string]any{"tags": []string{" / "}}), http.StatusBadRequest)
	})
	t.Run("an unknown tag is 404", func(t *testing.T) {
		requireImmichError(t, c.do("PUT", "/api/tags/tag_01h0000000000000000000000a/assets", map[string]any{"ids": []string{a1}}),
			http.StatusNotFound)
	})
}
