package httpapi

import (
	"github.com/gofiber/fiber/v2"

	"github.com/photoctl/photoctl/server/api"
	"github.com/photoctl/photoctl/server/catalog"
	"github.com/photoctl/photoctl/server/httpapi/convert"
)

func (s *Server) bulkUpdateAssets(c *fiber.Ctx) error {
	var req api.BulkUpdateRequest
	if err := decodeRequest(c, &req); err != nil {
		return err
	}
	if err := s.assets.BulkUpdate(c.UserContext(), Principal(c), convert.FromUpdates(req.Updates)); err != nil {
		return err
	}
	return SendJSON(c, api.Empty{})
}

func (s *Server) patchAsset(c *fiber.Ctx) error {
	var req api.AssetChange
	if err := decodeRequest(c, &req); err != nil {
		return err
	}
	a, err := s.assets.Patch(c.UserContext(), Principal(c), c.Params("id"), convert.FromChange(req))
	if err != nil {
		return err
	}
	return s.sendAsset(c, convert.Asset(a, nil))
}

func (s *Server) trashAssets(c *fiber.Ctx) error {
	return s.bulkIDs(c, func(ids []string) (any, error) {
		return api.AssetIDs{IDs: ids}, s.assets.TrashIn(c.UserContext(), Principal(c), c.Query("library_id"), ids)
	})
}

func (s *Server) restoreAssets(c *fiber.Ctx) error {
	return s.bulkIDs(c, func(ids []string) (any, error) {
		return api.AssetIDs{IDs: ids}, s.assets.RestoreIn(c.UserContext(), Principal(c), c.Query("library_id"), ids)
	})
}

func (s *Server) deleteAssets(c *fiber.Ctx) error {
	return s.bulkIDs(c, func(ids []string) (any, error) {
		deleted, err := s.assets.DeleteIn(c.UserContext(), Principal(c), c.Query("library_id"), ids)
		return api.AssetsDeleted{Deleted: deleted}, err
	})
}

// bulkIDs decodes an {ids} body and answers what op returns. The query's
// library_id, when given, is where every asset must be (assets.TrashIn).
func (s *Server) bulkIDs(c *fiber.Ctx, op func(ids []string) (any, error)) error {
	var req api.AssetIDs
	if err := decodeRequest(c, &req, "library_id"); err != nil {
		return err
	}
	body, err := op(req.IDs)
	if err != nil {
		return err
	}
	return SendJSON(c, body)
}

func (s *Server) checkAssets(c *fiber.Ctx) error {
	var req api.ChecksumCheckRequest
	if err := decodeRequest(c, &req, "library_id"); err != nil {
		return err
	}
	if len(req.Checksums) == 0 || len(req.Checksums) > 1000 {
		return catalog.InvalidField("value_error", "checksums must hold 1 to 1000 values", nil, "body", "checksums")
	}
	lib := c.Query("library_id")
	if req.LibraryID != nil {
		lib = *req.LibraryID
	}
	res, err := s.assets.Check(c.UserContext(), Principal(c), lib, req.Checksums)
	if err != nil {
		return err
	}
	out := api.ChecksumCheckResponse{Data: make([]api.ChecksumCheck, len(res))}
	for i, r := range res {
		out.Data[i] = api.ChecksumCheck{Checksum: r.Checksum, AssetID: r.AssetID}
	}
	return SendJSON(c, out)
}
