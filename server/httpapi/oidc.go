package httpapi

import (
	"github.com/gofiber/fiber/v2"

	"github.com/photoctl/photoctl/server/api"
	"github.com/photoctl/photoctl/server/httpapi/convert"
	"github.com/photoctl/photoctl/server/httpapi/openapi"
	"github.com/photoctl/photoctl/server/oidc"
)

// oidcRoutes are the sign-in through the identity provider and its logout
// endpoint (decisions "Authentication"). Without a configured provider they
// answer 404 with a detail.
func (s *Server) oidcRoutes() []route {
	return []route{
		{"GET", "/api/auth/oidc/start", access{public: true, perAddress: true}, s.oidcStart,
			openapi.Doc{Summary: "Start a sign-in through the identity provider (code flow with PKCE)", Tag: "auth",
				Query: []string{"redirect_uri"}, Must: []string{"redirect_uri"}, Status: 200,
				Resp: api.OIDCStartResponse{}, Errs: []int{404, 503}}},
		{"POST", "/api/auth/oidc/callback", access{public: true, perAddress: true}, s.oidcCallback,
			openapi.Doc{Summary: "Finish a sign-in through the identity provider (first-party session)", Tag: "auth",
				Body: api.OIDCCallbackRequest{}, Status: 200, Resp: api.TokenResponse{},
				Errs: []int{401, 403, 404, 409, 503}}},
		{"GET", "/api/oauth/logout-endpoint", access{public: true}, s.oidcLogoutEndpoint,
			openapi.Doc{Summary: "The identity provider's logout URL, from its discovery document", Tag: "oauth",
				Status: 200, Resp: api.LogoutEndpoint{}, Errs: []int{404, 503}}},
	}
}

func (s *Server) oidcStart(c *fiber.Ctx) error {
	if s.oidc == nil {
		return oidc.ErrNotConfigured
	}
	if err := allowQuery(c, "redirect_uri"); err != nil {
		return err
	}
	started, err := s.oidc.Start(c.UserContext(), c.Query("redirect_uri"))
	if err != nil {
		return err
	}
	return c.JSON(api.OIDCStartResponse{AuthorizeURL: started.AuthorizeURL, State: started.State})
}

func (s *Server) oidcCallback(c *fiber.Ctx) error {
	if s.oidc == nil {
		return oidc.ErrNotConfigured
	}
	var req api.OIDCCallbackRequest
	if err := decodeJSON(c, &req); err != nil {
		return err
	}
	tokens, u, err := s.oidc.Callback(c.UserContext(), req.Code, req.State, req.RedirectURI)
	if err != nil {
		return err
	}
	user := convert.User(u)
	return sendSecret(c, convert.Tokens(tokens, &user))
}

func (s *Server) oidcLogoutEndpoint(c *fiber.Ctx) error {
	if s.oidc == nil {
		return oidc.ErrNotConfigured
	}
	if err := allowQuery(c); err != nil {
		return err
	}
	u, err := s.oidc.LogoutEndpoint(c.UserContext())
	if err != nil {
		return err
	}
	return c.JSON(api.LogoutEndpoint{LogoutEndpoint: u})
}
