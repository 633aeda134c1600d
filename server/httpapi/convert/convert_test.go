package convert_test

import (
	"errors"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/photoctl/photoctl/server/api"
	"github.com/photoctl/photoctl/server/catalog"
	"github.com/photoctl/photoctl/server/httpapi/convert"
	"github.com/photoctl/photoctl/server/query"
)

func TestPageNeverLeavesDataNull(t *testing.T) {
	page := convert.Page([]catalog.Stack(nil), false, convert.Stack)
	require.NotNil(t, page.Data)
	require.Empty(t, page.Data)
}

func TestAssetURLsNameTheRenderingsAsked(t *testing.T) {
	updated := time.Date(2026, 1, 2, 3, 4, 5, 6000, time.UTC)
	image := &catalog.Asset{ID: "ast_1", MediaType: catalog.MediaImage, UpdatedAt: updated}
	version := "?v=" + convert.RenderingVersion(image)
	for _, tc := range []struct {
		name     string
		asset    *catalog.Asset
		variants []string
		want     api.AssetURLs
	}{
		{"an image lists every rendering by default", image, nil, api.AssetURLs{Original: "/api/assets/ast_1/original",
			Thumbnail: ptr("/api/assets/ast_1/variants/thumbnail" + version),
			Preview:   ptr("/api/assets/ast_1/variants/preview" + version),
			Fullsize:  ptr("/api/assets/ast_1/variants/fullsize" + version)}},
		{"include=variants limits the renderings", image, []string{"preview"}, api.AssetURLs{
			Original: "/api/assets/ast_1/original", Preview: ptr("/api/assets/ast_1/variants/preview" + version)}},
		{"a video has only its original", &catalog.Asset{ID: "ast_2", MediaType: catalog.MediaVideo}, nil,
			api.AssetURLs{Original: "/api/assets/ast_2/original"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			require.Equal(t, tc.want, convert.Asset(tc.asset, tc.variants).AssetURLs)
		})
	}
}

func TestAddPeopleWithoutFacesKeepsAnEmptyList(t *testing.T) {
	list := []api.Asset{{ID: "ast_1"}, {ID: "ast_2"}}
	convert.AddPeople(list, nil, map[string][]catalog.Person{"ast_1": {{ID: "per_1", Name: "Ada"}}})
	require.Equal(t, []string{"ast_1", "ast_2"}, convert.AssetIDs(list))
	require.NotNil(t, list[0].Faces)
	require.Empty(t, list[0].Faces)
	require.Len(t, list[0].People, 1)
	require.Equal(t, "Ada", *list[0].People[0].Name)
	require.NotNil(t, list[1].People)
	require.Empty(t, list[1].People)
}

func TestBucketLayoutLabelsCounts(t *testing.T) {
	layout, ok := convert.BucketLayout(query.BucketMonth)
	require.True(t, ok)
	page := convert.Counts([]query.BucketCount{{Start: time.Date(2024, 5, 1, 0, 0, 0, 0, time.UTC), Count: 3}}, true, layout)
	require.Equal(t, api.Page[api.AssetCount]{Data: []api.AssetCount{{Bucket: "2024-05", Count: 3}}, HasMore: true}, page)
	_, ok = convert.BucketLayout("week")
	require.False(t, ok)
}

func TestFromBoxReportsEveryMissingField(t *testing.T) {
	_, err := convert.FromBox(&api.BoundingBoxInput{X: ptr(0.1), Width: ptr(0.2)})
	var ve *catalog.ValidationError
	require.True(t, errors.As(err, &ve))
	require.Len(t, ve.Fields, 2)
	require.Equal(t, []any{"body", "bounding_box", "y"}, ve.Fields[0].Loc)
	require.Equal(t, []any{"body", "bounding_box", "height"}, ve.Fields[1].Loc)

	box, err := convert.FromBox(&api.BoundingBoxInput{X: ptr(0.1), Y: ptr(0.2), Width: ptr(0.3), Height: ptr(0.4)})
	require.NoError(t, err)
	require.Equal(t, catalog.BoundingBox{X: 0.1, Y: 0.2, Width: 0.3, Height: 0.4}, box)
}

func ptr[T any](v T) *T { return &v }
