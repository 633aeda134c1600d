package httpapi

import (
	"github.com/gofiber/fiber/v2"

	"github.com/photoctl/photoctl/server/api"
	"github.com/photoctl/photoctl/server/assets"
	"github.com/photoctl/photoctl/server/catalog"
)

func fromAPIChange(c api.AssetChange) assets.Change {
	return assets.Change{
		Description:      patch(c.Description),
		Latitude:         patch(c.Latitude),
		Longitude:        patch(c.Longitude),
		OriginalDatetime: patch(c.OriginalDatetime),
		Rating:           patch(c.Rating),
	}
}

func patch[T any](o api.Optional[T]) catalog.Patch[T] {
	return catalog.Patch[T]{Set: o.Set, Value: o.Value}
}

func (s *Server) bulkUpdateAssets(c *fiber.Ctx) error {
	if err := allowQuery(c); err != nil {
		return err
	}
	var req api.BulkUpdateRequest
	if err := decodeJSON(c, &req); err != nil {
		return err
	}
	updates := make([]assets.Update, len(req.Updates))
	for i, u := range req.Updates {
		updates[i] = assets.Update{ID: u.ID, Change: fromAPIChange(u.Change)}
	}
	if err := s.assets.BulkUpdate(c.UserContext(), principal(c), updates); err != nil {
		return err
	}
	return sendJSON(c, api.Empty{})
}

func (s *Server) patchAsset(c *fiber.Ctx) error {
	if err := allowQuery(c); err != nil {
		return err
	}
	var req api.AssetChange
	if err := decodeJSON(c, &req); err != nil {
		return err
	}
	a, err := s.assets.Patch(c.UserContext(), principal(c), c.Params("id"), fromAPIChange(req))
	if err != nil {
		return err
	}
	return s.sendAsset(c, toAPIAsset(a, nil))
}

func (s *Server) trashAssets(c *fiber.Ctx) error {
	return s.bulkIDs(c, func(ids []string) (any, error) {
		return api.AssetIDs{IDs: ids}, s.assets.TrashIn(c.UserContext(), principal(c), c.Query("library_id"), ids)
	})
}

func (s *Server) restoreAssets(c *fiber.Ctx) error {
	return s.bulkIDs(c, func(ids []string) (any, error) {
		return api.AssetIDs{IDs: ids}, s.assets.RestoreIn(c.UserContext(), principal(c), c.Query("library_id"), ids)
	})
}

func (s *Server) deleteAssets(c *fiber.Ctx) error {
	return s.bulkIDs(c, func(ids []string) (any, error) {
		deleted, err := s.assets.DeleteIn(c.UserContext(), principal(c), c.Query("library_id"), ids)
		return api.AssetsDeleted{Deleted: deleted}, err
	})
}

// bulkIDs decodes an {ids} body and answers what op returns. The query's
// library_id, when given, is where every asset must be (assets.TrashIn).
func (s *Server) bulkIDs(c *fiber.Ctx, op func(ids []string) (any, error)) error {
	if err := allowQuery(c, "library_id"); err != nil {
		return err
	}
	var req api.AssetIDs
	if err := decodeJSON(c, &req); err != nil {
		return err
	}
	body, err := op(req.IDs)
	if err != nil {
		return err
	}
	return sendJSON(c, body)
}

func (s *Server) checkAssets(c *fiber.Ctx) error {
	if err := allowQuery(c, "library_id"); err != nil {
		return err
	}
	var req api.ChecksumCheckRequest
	if err := decodeJSON(c, &req); err != nil {
		return err
	}
	if len(req.Checksums) == 0 || len(req.Checksums) > 1000 {
		return catalog.InvalidField("value_error", "checksums must hold 1 to 1000 values", nil, "body", "checksums")
	}
	lib := c.Query("library_id")
	if req.LibraryID != nil {
		lib = *req.LibraryID
	}
	res, err := s.assets.Check(c.UserContext(), principal(c), lib, req.Checksums)
	if err != nil {
		return err
	}
	out := api.ChecksumCheckResponse{Data: make([]api.ChecksumCheck, len(res))}
	for i, r := range res {
		out.Data[i] = api.ChecksumCheck{Checksum: r.Checksum, AssetID: r.AssetID}
	}
	return sendJSON(c, out)
}
