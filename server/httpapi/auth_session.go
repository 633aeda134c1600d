package httpapi

import (
	"github.com/gofiber/fiber/v2"

	"github.com/photoctl/photoctl/server/api"
	"github.com/photoctl/photoctl/server/auth"
	"github.com/photoctl/photoctl/server/catalog"
)

func (s *Server) login(c *fiber.Ctx) error {
	var req api.LoginRequest
	if err := decodeJSON(c, &req); err != nil {
		return err
	}
	if req.Email == "" || req.Password == "" {
		return catalog.InvalidField("missing", "email and password are required", nil, "body")
	}
	// Per account as well as per address (authorize): guesses at one
	// account spread over many addresses share one bucket.
	if s.loginLimiter != nil {
		if ok, wait := s.loginLimiter.Allow("account:"+catalog.NameKey(req.Email), 1); !ok {
			return &catalog.RateLimitedError{RetryAfter: wait}
		}
	}
	tokens, u, err := s.auth.Login(c.UserContext(), req.Email, req.Password)
	if err != nil {
		return err
	}
	user := toAPIUser(u)
	return sendSecret(c, tokenResponse(tokens, &user))
}

func (s *Server) refresh(c *fiber.Ctx) error {
	var req api.RefreshRequest
	if err := decodeJSON(c, &req); err != nil {
		return err
	}
	if req.RefreshToken == "" {
		return catalog.InvalidField("missing", "refresh_token is required", nil, "body", "refresh_token")
	}
	tokens, err := s.auth.Refresh(c.UserContext(), req.RefreshToken)
	if err != nil {
		return err
	}
	return sendSecret(c, tokenResponse(tokens, nil))
}

func (s *Server) logout(c *fiber.Ctx) error {
	if err := s.auth.Logout(c.UserContext(), principal(c)); err != nil {
		return err
	}
	return c.SendStatus(fiber.StatusNoContent)
}

func tokenResponse(t *auth.Tokens, u *api.User) api.TokenResponse {
	return api.TokenResponse{AccessToken: t.AccessToken, RefreshToken: t.RefreshToken, TokenType: "Bearer",
		ExpiresIn: int(t.ExpiresIn.Seconds()), User: u}
}
