package immichapi

import (
	"github.com/gofiber/fiber/v2"

	"github.com/photoctl/photoctl/server/catalog"
	"github.com/photoctl/photoctl/server/httpapi"
	"github.com/photoctl/photoctl/server/immich"
)

// tags is GET /api/tags: every tag of the layer's library.
func (l *layer) tags(c *fiber.Ctx) error {
	list, err := l.immich.Tags(c.UserContext(), httpapi.Principal(c))
	if err != nil {
		return err
	}
	return httpapi.SendJSON(c, immich.ToTags(list))
}

// upsertTags is PUT /api/tags {tags}: one tag per value, created when
// missing (immich-go's --tag).
func (l *layer) upsertTags(c *fiber.Ctx) error {
	var req immich.UpsertTagsRequest
	if err := decodeJSON(c, &req); err != nil {
		return err
	}
	list, err := l.immich.UpsertTags(c.UserContext(), httpapi.Principal(c), req.Tags)
	if err != nil {
		return err
	}
	return httpapi.SendJSON(c, immich.ToTags(list))
}

// tagAssets is PUT /api/tags/{id}/assets {ids}: per-id outcomes.
func (l *layer) tagAssets(c *fiber.Ctx) error {
	id := c.Params("id")
	if err := immich.CheckID(catalog.PrefixTag, id, "path", "id"); err != nil {
		return err
	}
	var req immich.BulkIDs
	if err := decodeJSON(c, &req); err != nil {
		return err
	}
	if err := immich.CheckIDs(catalog.PrefixAsset, req.IDs, "body", "ids"); err != nil {
		return err
	}
	res, err := l.immich.TagAssets(c.UserContext(), httpapi.Principal(c), id, req.IDs)
	if err != nil {
		return err
	}
	return httpapi.SendJSON(c, res)
}

// bulkTagAssets is PUT /api/tags/assets {tagIds, assetIds}: every
// asset gets every tag; the answer counts the links made.
func (l *layer) bulkTagAssets(c *fiber.Ctx) error {
	var req immich.BulkTagAssetsRequest
	if err := decodeJSON(c, &req); err != nil {
		return err
	}
	if err := immich.CheckIDs(catalog.PrefixTag, req.TagIDs, "body", "tagIds"); err != nil {
		return err
	}
	if err := immich.CheckIDs(catalog.PrefixAsset, req.AssetIDs, "body", "assetIds"); err != nil {
		return err
	}
	n := 0
	for _, id := range req.TagIDs {
		res, err := l.immich.TagAssets(c.UserContext(), httpapi.Principal(c), id, req.AssetIDs)
		if err != nil {
			return err
		}
		for _, r := range res {
			if r.Success {
				n++
			}
		}
	}
	return httpapi.SendJSON(c, immich.BulkTagAssetsResponse{Count: n})
}
