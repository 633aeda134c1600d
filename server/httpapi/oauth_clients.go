package httpapi

import (
	"github.com/gofiber/fiber/v2"

	"github.com/photoctl/photoctl/server/api"
	"github.com/photoctl/photoctl/server/auth"
	"github.com/photoctl/photoctl/server/catalog"
	"github.com/photoctl/photoctl/server/httpapi/convert"
	"github.com/photoctl/photoctl/server/query"
)

func (s *Server) createOAuthClient(c *fiber.Ctx) error {
	var req api.OAuthClientCreateRequest
	if err := decodeJSON(c, &req); err != nil {
		return err
	}
	n := auth.NewOAuthClient{Name: req.Name, RedirectURIs: req.RedirectURIs, Public: req.Public}
	for _, sc := range req.Scopes {
		n.Scopes = append(n.Scopes, catalog.Action(sc))
	}
	cl, secret, err := s.auth.CreateOAuthClient(c.UserContext(), Principal(c), n)
	if err != nil {
		return err
	}
	return sendSecret(c.Status(fiber.StatusCreated), api.OAuthClientCreated{OAuthClient: convert.OAuthClient(cl), ClientSecret: secret})
}

func (s *Server) listOAuthClients(c *fiber.Ctx, pg query.Page) ([]catalog.OAuthClient, bool, error) {
	return s.auth.ListOAuthClients(c.UserContext(), Principal(c), pg)
}

func (s *Server) revokeOAuthClient(c *fiber.Ctx) error {
	if _, err := s.auth.RevokeOAuthClient(c.UserContext(), Principal(c), c.Params("id")); err != nil {
		return err
	}
	return c.SendStatus(fiber.StatusNoContent)
}
