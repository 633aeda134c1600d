package httpapi

import "github.com/gofiber/fiber/v2"

func (s *Server) openAPI(c *fiber.Ctx) error {
	return fiber.NewError(fiber.StatusNotImplemented, "OpenAPI document not generated yet")
}
