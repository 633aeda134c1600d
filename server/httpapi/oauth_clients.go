package httpapi

import (
	"github.com/gofiber/fiber/v2"

	"github.com/photoctl/photoctl/server/api"
	"github.com/photoctl/photoctl/server/auth"
	"github.com/photoctl/photoctl/server/catalog"
)

func toAPIOAuthClient(c *catalog.OAuthClient) api.OAuthClient {
	scopes := make([]string, len(c.Scopes))
	for i, a := range c.Scopes {
		scopes[i] = string(a)
	}
	return api.OAuthClient{ID: c.ID, Name: c.Name, RedirectURIs: c.RedirectURIs, Scopes: scopes, Public: c.Public(),
		CreatedAt: c.CreatedAt, RevokedAt: c.RevokedAt}
}

func (s *Server) createOAuthClient(c *fiber.Ctx) error {
	var req api.OAuthClientCreateRequest
	if err := decodeJSON(c, &req); err != nil {
		return err
	}
	n := auth.NewOAuthClient{Name: req.Name, RedirectURIs: req.RedirectURIs, Public: req.Public}
	for _, sc := range req.Scopes {
		n.Scopes = append(n.Scopes, catalog.Action(sc))
	}
	cl, secret, err := s.auth.CreateOAuthClient(c.UserContext(), principal(c), n)
	if err != nil {
		return err
	}
	return sendSecret(c.Status(fiber.StatusCreated), api.OAuthClientCreated{OAuthClient: toAPIOAuthClient(cl), ClientSecret: secret})
}

func (s *Server) listOAuthClients(c *fiber.Ctx) error {
	if err := allowQuery(c, pageParams...); err != nil {
		return err
	}
	pg, err := parsePage(c)
	if err != nil {
		return err
	}
	cls, more, err := s.auth.ListOAuthClients(c.UserContext(), principal(c), pg)
	if err != nil {
		return err
	}
	return c.JSON(pageOf(cls, more, toAPIOAuthClient))
}

func (s *Server) getOAuthClient(c *fiber.Ctx) error {
	if err := allowQuery(c); err != nil {
		return err
	}
	cl, err := s.auth.GetOAuthClient(c.UserContext(), principal(c), c.Params("id"))
	if err != nil {
		return err
	}
	return c.JSON(toAPIOAuthClient(cl))
}

func (s *Server) revokeOAuthClient(c *fiber.Ctx) error {
	if _, err := s.auth.RevokeOAuthClient(c.UserContext(), principal(c), c.Params("id")); err != nil {
		return err
	}
	return c.SendStatus(fiber.StatusNoContent)
}
