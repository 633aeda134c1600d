package httpapi

import (
	"github.com/gofiber/fiber/v2"

	"github.com/photoctl/photoctl/server/api"
	"github.com/photoctl/photoctl/server/catalog"
	"github.com/photoctl/photoctl/server/httpapi/convert"
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
	user := convert.User(u)
	return sendSecret(c, convert.Tokens(tokens, &user))
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
	return sendSecret(c, convert.Tokens(tokens, nil))
}

func (s *Server) logout(c *fiber.Ctx) error {
	if err := s.auth.Logout(c.UserContext(), Principal(c)); err != nil {
		return err
	}
	return c.SendStatus(fiber.StatusNoContent)
}
