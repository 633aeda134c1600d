package httpapi

import (
	"github.com/gofiber/fiber/v2"

	"github.com/photoctl/photoctl/server/catalog"
	"github.com/photoctl/photoctl/server/immich"
)

// immichTags is GET /api/tags: every tag of the layer's library.
func (s *Server) immichTags(c *fiber.Ctx) error {
	list, err := s.immich.Tags(c.UserContext(), principal(c))
	if err != nil {
		return err
	}
	return sendJSON(c, toImmichTags(list))
}

// immichUpsertTags is PUT /api/tags {tags}: one tag per value, created when
// missing (immich-go's --tag).
func (s *Server) immichUpsertTags(c *fiber.Ctx) error {
	var req immich.UpsertTagsRequest
	if err := decodeImmichJSON(c, &req); err != nil {
		return err
	}
	list, err := s.immich.UpsertTags(c.UserContext(), principal(c), req.Tags)
	if err != nil {
		return err
	}
	return sendJSON(c, toImmichTags(list))
}

// immichTagAssets is PUT /api/tags/{id}/assets {ids}: per-id outcomes.
func (s *Server) immichTagAssets(c *fiber.Ctx) error {
	id := c.Params("id")
	if err := immich.CheckID(catalog.PrefixTag, id, "path", "id"); err != nil {
		return err
	}
	var req immich.BulkIDs
	if err := decodeImmichJSON(c, &req); err != nil {
		return err
	}
	if err := immich.CheckIDs(catalog.PrefixAsset, req.IDs, "body", "ids"); err != nil {
		return err
	}
	res, err := s.immich.TagAssets(c.UserContext(), principal(c), id, req.IDs)
	if err != nil {
		return err
	}
	return sendJSON(c, res)
}

// immichBulkTagAssets is PUT /api/tags/assets {tagIds, assetIds}: every
// asset gets every tag; the answer counts the links made.
func (s *Server) immichBulkTagAssets(c *fiber.Ctx) error {
	var req immich.BulkTagAssetsRequest
	if err := decodeImmichJSON(c, &req); err != nil {
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
		res, err := s.immich.TagAssets(c.UserContext(), principal(c), id, req.AssetIDs)
		if err != nil {
			return err
		}
		for _, r := range res {
			if r.Success {
				n++
			}
		}
	}
	return sendJSON(c, immich.BulkTagAssetsResponse{Count: n})
}

func toImmichTags(list []catalog.Tag) []immich.Tag {
	out := make([]immich.Tag, len(list))
	for i := range list {
		out[i] = immich.ToTag(&list[i])
	}
	return out
}
