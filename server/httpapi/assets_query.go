package httpapi

import (
	"slices"
	"strconv"
	"strings"

	"github.com/gofiber/fiber/v2"

	"github.com/photoctl/photoctl/server/catalog"
	"github.com/photoctl/photoctl/server/query"
)

// assetFilterParams are the filters of GET /api/assets; assetListParams
// adds paging.
var (
	assetFilterParams = []string{"ids", "library_id", "local_datetime_after", "local_datetime_before",
		"center", "radius", "bbox", "stack_id", "media_type", "min_rating", "state", "order", "include", "variants",
		"person_ids", "album_id", "stacks"}
	assetListParams = slices.Concat(assetFilterParams, pageParams)
)

// multi reads a multi-valued parameter given as repeated keys and/or
// comma-separated values.
func multi(c *fiber.Ctx, name string) []string {
	var out []string
	for _, raw := range c.Context().QueryArgs().PeekMulti(name) {
		for _, v := range strings.Split(string(raw), ",") {
			if v = strings.TrimSpace(v); v != "" {
				out = append(out, v)
			}
		}
	}
	return out
}

// parseAssetFilter reads the asset list filters shared by the list, counts
// and geo-clusters (the library is chosen separately).
func parseAssetFilter(c *fiber.Ctx) (query.AssetFilter, error) {
	var f query.AssetFilter
	f.IDs = multi(c, "ids")
	if len(f.IDs) > 100 {
		return f, catalog.InvalidField("too_long", "ids may name at most 100 assets", nil, "query", "ids")
	}
	switch st := query.AssetState(c.Query("state", "live")); st {
	case query.StateLive, query.StateTrashed, query.StateAll:
		f.State = st
	default:
		return f, catalog.InvalidField("enum", "state must be live, trashed or all", string(st), "query", "state")
	}
	switch mt := c.Query("media_type"); mt {
	case "", "image", "video":
		f.MediaType = catalog.MediaType(mt)
	default:
		return f, catalog.InvalidField("enum", "media_type must be image or video", mt, "query", "media_type")
	}
	if raw := c.Query("min_rating"); raw != "" {
		n, err := strconv.Atoi(raw)
		if err != nil || n < 0 || n > 5 {
			return f, catalog.InvalidField("value_error", "min_rating must be an integer from 0 to 5", raw, "query", "min_rating")
		}
		f.MinRating = &n
	}
	var err error
	if f.Capture, err = catalog.ParseCaptureRange(c.Query("local_datetime_after"), c.Query("local_datetime_before")); err != nil {
		return f, err
	}
	if f.Location, err = catalog.ParseLocation(c.Query("bbox"), c.Query("center"), c.Query("radius")); err != nil {
		return f, err
	}
	f.StackID = c.Query("stack_id")
	f.AlbumID = c.Query("album_id")
	switch view := c.Query("stacks", "collapse"); view {
	case "collapse", "expand":
		f.WithStacked = view == "expand"
	default:
		return f, catalog.InvalidField("enum", "stacks must be collapse (a stack is one row, its cover) or expand (every member is a row)",
			view, "query", "stacks")
	}
	if f.PersonIDs = multi(c, "person_ids"); len(f.PersonIDs) > 100 {
		return f, catalog.InvalidField("too_long", "person_ids may name at most 100 people", nil, "query", "person_ids")
	}
	slices.Sort(f.PersonIDs)
	f.PersonIDs = slices.Compact(f.PersonIDs)
	switch order := c.Query("order", "desc"); order {
	case "asc", "desc":
		f.Asc = order == "asc"
	default:
		return f, catalog.InvalidField("enum", "order must be asc or desc", order, "query", "order")
	}
	return f, nil
}

// parseVariants reads include=variants and variants=...: nil lists every
// rendering.
func parseVariants(c *fiber.Ctx) ([]string, error) {
	include := multi(c, "include")
	names := multi(c, "variants")
	for _, inc := range include {
		if inc != "variants" {
			return nil, catalog.InvalidField("enum", "include takes the token variants", inc, "query", "include")
		}
	}
	if len(include) == 0 {
		if len(names) > 0 {
			return nil, catalog.InvalidField("value_error", "variants needs include=variants", nil, "query", "variants")
		}
		return nil, nil
	}
	for _, n := range names {
		if n != "thumbnail" && n != "preview" && n != "fullsize" {
			return nil, catalog.InvalidField("enum", "variants are thumbnail, preview and fullsize", n, "query", "variants")
		}
	}
	if names == nil {
		names = []string{}
	}
	return names, nil
}

// parseListQuery reads what an asset list and a search share from the
// query: the page, the filter and the variants to link, in that order.
func parseListQuery(c *fiber.Ctx) (query.Page, query.AssetFilter, []string, error) {
	pg, err := parsePage(c)
	if err != nil {
		return pg, query.AssetFilter{}, nil, err
	}
	f, err := parseAssetFilter(c)
	if err != nil {
		return pg, f, nil, err
	}
	variants, err := parseVariants(c)
	return pg, f, variants, err
}
