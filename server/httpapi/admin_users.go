package httpapi

import (
	"github.com/gofiber/fiber/v2"

	"github.com/photoctl/photoctl/server/api"
	"github.com/photoctl/photoctl/server/catalog"
	"github.com/photoctl/photoctl/server/httpapi/convert"
	"github.com/photoctl/photoctl/server/httpapi/openapi"
	"github.com/photoctl/photoctl/server/users"
)

// adminUserRoutes are the superuser's account administration. The route
// asks an API key or OAuth token for user.read (reads) or user.update
// (writes), as any route does; the users service then refuses (403) any
// caller who is not an active superuser, whatever the credential.
func (s *Server) adminUserRoutes() []route {
	read := access{action: catalog.ActionUserRead}
	write := access{action: catalog.ActionUserUpdate}
	return []route{
		{"GET", "/api/admin/users", read, listByQuery("email", s.users.List, convert.AdminUser),
			openapi.Doc{Summary: "List every account, newest first (superuser)", Tag: "admin", Paged: true,
				Query: []string{"email"}, Status: 200, Resp: api.Page[api.AdminUser]{}}},
		{"POST", "/api/admin/users", write, s.adminCreateUser,
			openapi.Doc{Summary: "Create an account with its first library; without a password one is generated and returned once (superuser)",
				Tag: "admin", Body: api.AdminUserCreate{}, Status: 201, Resp: api.AdminUserCreated{}, Errs: []int{409}}},
		{"GET", "/api/admin/users/:id", read, one(s.users.Get, convert.AdminUser),
			openapi.Doc{Summary: "One account (superuser)", Tag: "admin", Status: 200, Resp: api.AdminUser{}}},
		{"PATCH", "/api/admin/users/:id", write, s.adminPatchUser,
			openapi.Doc{Summary: "Change an account: names, activity, superuser, quota; a password resets it and ends the account's sessions (superuser)",
				Tag: "admin", Body: api.AdminUserUpdate{}, Status: 200, Resp: api.AdminUser{}, Errs: []int{409}}},
		{"DELETE", "/api/admin/users/:id", write, s.adminDeleteUser,
			openapi.Doc{Summary: "Delete an account with the libraries it owns, their assets and files; 409 while one of them has other members (superuser)",
				Tag: "admin", Status: 204, Errs: []int{409}}},
	}
}

func (s *Server) adminCreateUser(c *fiber.Ctx) error {
	var req api.AdminUserCreate
	if err := decodeJSON(c, &req); err != nil {
		return err
	}
	in := users.NewUser{Email: req.Email, FirstName: req.FirstName, LastName: req.LastName,
		Superuser: req.IsSuperuser, QuotaBytes: req.QuotaBytes}
	if req.Password != nil {
		in.Password = *req.Password
		if in.Password == "" {
			return catalog.InvalidField("string_too_short", "password must not be empty; leave it out to have one generated",
				nil, "body", "password")
		}
	}
	u, generated, err := s.users.AdminCreate(c.UserContext(), Principal(c), in)
	if err != nil {
		return err
	}
	out := api.AdminUserCreated{AdminUser: convert.AdminUser(u)}
	if generated != "" {
		out.Password = &generated
	}
	return sendSecret(c.Status(fiber.StatusCreated), out)
}

func (s *Server) adminPatchUser(c *fiber.Ctx) error {
	var req api.AdminUserUpdate
	if err := decodeJSON(c, &req); err != nil {
		return err
	}
	u, err := s.users.Update(c.UserContext(), Principal(c), c.Params("id"), users.Change{
		FirstName: req.FirstName, LastName: req.LastName, IsActive: req.IsActive, IsSuperuser: req.IsSuperuser,
		SetQuota: req.QuotaBytes.Set, QuotaBytes: req.QuotaBytes.Value, Password: req.Password,
	})
	if err != nil {
		return err
	}
	return SendJSON(c, convert.AdminUser(u))
}

func (s *Server) adminDeleteUser(c *fiber.Ctx) error {
	if err := s.users.Delete(c.UserContext(), Principal(c), c.Params("id")); err != nil {
		return err
	}
	return c.SendStatus(fiber.StatusNoContent)
}
