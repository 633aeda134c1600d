package httpapi

import (
	"github.com/gofiber/fiber/v2"

	"github.com/photoctl/photoctl/server/api"
	"github.com/photoctl/photoctl/server/auth"
	"github.com/photoctl/photoctl/server/catalog"
	"github.com/photoctl/photoctl/server/httpapi/convert"
	"github.com/photoctl/photoctl/server/query"
)

func (s *Server) createAPIKey(c *fiber.Ctx) error {
	var req api.APIKeyCreateRequest
	if err := decodeJSON(c, &req); err != nil {
		return err
	}
	k, secret, err := s.auth.CreateAPIKey(c.UserContext(), Principal(c), req.Name, convert.FromScope(req.Scope))
	if err != nil {
		return err
	}
	return sendSecret(c.Status(fiber.StatusCreated), api.APIKeyCreated{APIKey: convert.APIKey(k), Secret: secret})
}

func (s *Server) listAPIKeys(c *fiber.Ctx, pg query.Page) ([]catalog.APIKey, bool, error) {
	f := query.APIKeyFilter{Name: c.Query("name"), LibraryID: c.Query("library_id"), OrderBy: c.Query("order_by", "created_at")}
	switch f.OrderBy {
	case "created_at", "last_used_at", "name":
	default:
		return nil, false, catalog.InvalidField("enum", "order_by must be created_at, last_used_at or name", f.OrderBy, "query", "order_by")
	}
	switch order := c.Query("order", "desc"); order {
	case "asc", "desc":
		f.Desc = order == "desc"
	default:
		return nil, false, catalog.InvalidField("enum", "order must be asc or desc", order, "query", "order")
	}
	return s.auth.ListAPIKeys(c.UserContext(), Principal(c), f, pg)
}

func (s *Server) patchAPIKey(c *fiber.Ctx) error {
	var req api.APIKeyUpdateRequest
	if err := decodeJSON(c, &req); err != nil {
		return err
	}
	k, err := s.auth.UpdateAPIKey(c.UserContext(), Principal(c), c.Params("id"),
		auth.KeyChange{Name: req.Name, Scope: convert.FromScope(req.Scope)})
	if err != nil {
		return err
	}
	return SendJSON(c, convert.APIKey(k))
}

func (s *Server) deleteAPIKey(c *fiber.Ctx) error {
	if err := s.auth.DeleteAPIKey(c.UserContext(), Principal(c), c.Params("id")); err != nil {
		return err
	}
	return c.SendStatus(fiber.StatusNoContent)
}
