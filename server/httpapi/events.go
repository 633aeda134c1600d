package httpapi

import (
	"github.com/gofiber/fiber/v2"

	"github.com/photoctl/photoctl/server/httpapi/convert"
)

func (s *Server) listEvents(c *fiber.Ctx) error {
	if err := allowQuery(c, append([]string{"library_id"}, pageParams...)...); err != nil {
		return err
	}
	pg, err := parsePage(c)
	if err != nil {
		return err
	}
	evs, more, err := s.events.List(c.UserContext(), principal(c), c.Query("library_id"), pg)
	if err != nil {
		return err
	}
	return sendJSON(c, convert.Page(evs, more, convert.Event))
}
