package httpapi

import (
	"github.com/gofiber/fiber/v2"

	"github.com/photoctl/photoctl/server/api"
)

func (s *Server) listLibraries(c *fiber.Ctx) error {
	if err := allowQuery(c, pageParams...); err != nil {
		return err
	}
	pg, err := parsePage(c)
	if err != nil {
		return err
	}
	ms, more, err := s.libs.List(c.UserContext(), principal(c), pg)
	if err != nil {
		return err
	}
	return c.JSON(pageOf(ms, more, toAPILibrary))
}

func (s *Server) createLibrary(c *fiber.Ctx) error {
	var req api.LibraryCreateRequest
	if err := decodeJSON(c, &req); err != nil {
		return err
	}
	m, created, err := s.libs.Create(c.UserContext(), principal(c), req.Name)
	if err != nil {
		return err
	}
	status := fiber.StatusOK
	if created {
		status = fiber.StatusCreated
	}
	return c.Status(status).JSON(toAPILibrary(m))
}

func (s *Server) getLibrary(c *fiber.Ctx) error {
	if err := allowQuery(c); err != nil {
		return err
	}
	m, err := s.libs.Get(c.UserContext(), principal(c), c.Params("id"))
	if err != nil {
		return err
	}
	return c.JSON(toAPILibrary(m))
}

func (s *Server) patchLibrary(c *fiber.Ctx) error {
	var req api.LibraryUpdateRequest
	if err := decodeJSON(c, &req); err != nil {
		return err
	}
	if req.Name == nil {
		m, err := s.libs.Get(c.UserContext(), principal(c), c.Params("id"))
		if err != nil {
			return err
		}
		return c.JSON(toAPILibrary(m))
	}
	m, err := s.libs.Rename(c.UserContext(), principal(c), c.Params("id"), *req.Name)
	if err != nil {
		return err
	}
	return c.JSON(toAPILibrary(m))
}
