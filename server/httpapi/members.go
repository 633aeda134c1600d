package httpapi

import (
	"github.com/gofiber/fiber/v2"

	"github.com/photoctl/photoctl/server/api"
	"github.com/photoctl/photoctl/server/catalog"
	"github.com/photoctl/photoctl/server/httpapi/convert"
)

// memberRoutes are the membership operations: first-party sessions only,
// errors with sharing codes (spec "Authentication" rule 2).
func (s *Server) memberRoutes() []route {
	sharing := access{kinds: sessionOnly, sharing: true}
	return []route{
		{"GET", "/api/libraries/:id/members", sharing, s.listMembers,
			routeDoc{summary: "The library's current members with their roles, most recently joined first (any member)",
				tag: "members", paged: true, status: 200, resp: api.Page[api.Member]{}}},
		{"PATCH", "/api/libraries/:id/members/:user_id", sharing, s.patchMember,
			routeDoc{summary: "Change a member's role to viewer or collaborator (owner only)", tag: "members",
				body: api.MemberUpdateRequest{}, status: 200, resp: api.Member{}}},
		{"DELETE", "/api/libraries/:id/members/:user_id", sharing, s.deleteMember,
			routeDoc{summary: "Remove a member (owner only); their credentials lose the library at once", tag: "members",
				status: 204, errs: []int{422}}},
		{"POST", "/api/libraries/:id/leave", sharing, s.leaveLibrary,
			routeDoc{summary: "Leave a library (not its owner)", tag: "members", status: 204, errs: []int{409}}},
	}
}

func (s *Server) listMembers(c *fiber.Ctx) error {
	if err := allowQuery(c, pageParams...); err != nil {
		return err
	}
	pg, err := parsePage(c)
	if err != nil {
		return err
	}
	ms, more, err := s.libs.Members(c.UserContext(), principal(c), c.Params("id"), pg)
	if err != nil {
		return err
	}
	return sendJSON(c, convert.Page(ms, more, convert.Member))
}

func (s *Server) patchMember(c *fiber.Ctx) error {
	if err := allowQuery(c); err != nil {
		return err
	}
	var req api.MemberUpdateRequest
	if err := decodeJSON(c, &req); err != nil {
		return err
	}
	m, err := s.libs.SetMemberRole(c.UserContext(), principal(c), c.Params("id"), c.Params("user_id"),
		catalog.Role(req.Role))
	if err != nil {
		return err
	}
	return sendJSON(c, convert.Member(m))
}

func (s *Server) deleteMember(c *fiber.Ctx) error {
	if err := allowQuery(c); err != nil {
		return err
	}
	if err := s.libs.RemoveMember(c.UserContext(), principal(c), c.Params("id"), c.Params("user_id")); err != nil {
		return err
	}
	return c.SendStatus(fiber.StatusNoContent)
}

func (s *Server) leaveLibrary(c *fiber.Ctx) error {
	if err := allowQuery(c); err != nil {
		return err
	}
	if err := s.libs.Leave(c.UserContext(), principal(c), c.Params("id")); err != nil {
		return err
	}
	return c.SendStatus(fiber.StatusNoContent)
}
