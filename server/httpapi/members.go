package httpapi

import (
	"github.com/gofiber/fiber/v2"

	"github.com/photoctl/photoctl/server/api"
	"github.com/photoctl/photoctl/server/catalog"
	"github.com/photoctl/photoctl/server/httpapi/convert"
	"github.com/photoctl/photoctl/server/httpapi/openapi"
)

// memberRoutes are the membership operations: first-party sessions only,
// errors with sharing codes (spec "Authentication" rule 2).
func (s *Server) memberRoutes() []route {
	sharing := access{kinds: sessionOnly, sharing: true}
	return []route{
		{"GET", "/api/libraries/:id/members", sharing, listByID(s.libs.Members, convert.Member),
			openapi.Doc{Summary: "The library's current members with their roles, most recently joined first (any member)",
				Tag: "members", Paged: true, Status: 200, Resp: api.Page[api.Member]{}}},
		{"PATCH", "/api/libraries/:id/members/:user_id", sharing, s.patchMember,
			openapi.Doc{Summary: "Change a member's role to viewer or collaborator (owner only)", Tag: "members",
				Body: api.MemberUpdateRequest{}, Status: 200, Resp: api.Member{}}},
		{"DELETE", "/api/libraries/:id/members/:user_id", sharing, s.deleteMember,
			openapi.Doc{Summary: "Remove a member (owner only); their credentials lose the library at once", Tag: "members",
				Status: 204, Errs: []int{422}}},
		{"POST", "/api/libraries/:id/leave", sharing, noContent(s.libs.Leave),
			openapi.Doc{Summary: "Leave a library (not its owner)", Tag: "members", Status: 204, Errs: []int{409}}},
	}
}

func (s *Server) patchMember(c *fiber.Ctx) error {
	var req api.MemberUpdateRequest
	if err := decodeRequest(c, &req); err != nil {
		return err
	}
	m, err := s.libs.SetMemberRole(c.UserContext(), Principal(c), c.Params("id"), c.Params("user_id"),
		catalog.Role(req.Role))
	if err != nil {
		return err
	}
	return SendJSON(c, convert.Member(m))
}

func (s *Server) deleteMember(c *fiber.Ctx) error {
	if err := allowQuery(c); err != nil {
		return err
	}
	if err := s.libs.RemoveMember(c.UserContext(), Principal(c), c.Params("id"), c.Params("user_id")); err != nil {
		return err
	}
	return c.SendStatus(fiber.StatusNoContent)
}
