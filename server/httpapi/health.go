package httpapi

import (
	"github.com/gofiber/fiber/v2"

	"github.com/photoctl/photoctl/server/api"
)

func (s *Server) ping(c *fiber.Ctx) error {
	if err := allowQuery(c); err != nil {
		return err
	}
	return SendJSON(c, api.Health{Status: "ok", Version: s.version})
}
