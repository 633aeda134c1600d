package httpapi

import (
	"context"

	"github.com/gofiber/fiber/v2"

	"github.com/photoctl/photoctl/server/api"
	"github.com/photoctl/photoctl/server/catalog"
	"github.com/photoctl/photoctl/server/httpapi/convert"
	"github.com/photoctl/photoctl/server/libraries"
)

// libraryRoutes are the library lifecycle operations. Creating, renaming,
// trashing and restoring need a first-party session (no API key action
// grants them); trash and restore answer with sharing codes
// (last_live_library, not_library_owner).
func (s *Server) libraryRoutes() []route {
	return []route{
		{"GET", "/api/libraries", access{action: catalog.ActionLibraryRead}, s.listLibraries,
			routeDoc{summary: "The caller's libraries with the caller's role (state: live, trashed or all; default live)",
				tag: "libraries", paged: true, query: []string{"state"}, status: 200, resp: api.Page[api.Library]{}}},
		{"POST", "/api/libraries", access{kinds: sessionOnly}, s.createLibrary,
			routeDoc{summary: "Create a library (named create)", tag: "libraries",
				body: api.LibraryCreateRequest{}, status: 201, resp: api.Library{}, also: []int{200}, errs: []int{409}}},
		{"GET", "/api/libraries/:id", access{action: catalog.ActionLibraryRead}, s.getLibrary,
			routeDoc{summary: "One live library", tag: "libraries", status: 200, resp: api.Library{}}},
		{"PATCH", "/api/libraries/:id", access{kinds: sessionOnly}, s.patchLibrary,
			routeDoc{summary: "Rename a library (owner only)", tag: "libraries",
				body: api.LibraryUpdateRequest{}, status: 200, resp: api.Library{}, errs: []int{409}}},
		{"POST", "/api/libraries/:id/trash", access{kinds: sessionOnly, sharing: true}, s.trashLibrary,
			routeDoc{summary: "Move a library to the trash, hiding its content from every member (owner only; not the owner's last live library)",
				tag: "libraries", status: 200, resp: api.Library{}, errs: []int{409}}},
		{"POST", "/api/libraries/:id/restore", access{kinds: sessionOnly, sharing: true}, s.restoreLibrary,
			routeDoc{summary: "Restore a trashed library with its content (owner only)", tag: "libraries",
				status: 200, resp: api.Library{}}},
		{"POST", "/api/libraries/:id/switch", access{action: catalog.ActionUserUpdate}, s.switchLibrary,
			routeDoc{summary: "Make a library the caller's default (default_library_id); library_id stays required where the caller has several",
				tag: "libraries", status: 200, resp: api.Library{}}},
	}
}

func (s *Server) listLibraries(c *fiber.Ctx) error {
	if err := allowQuery(c, append([]string{"state"}, pageParams...)...); err != nil {
		return err
	}
	pg, err := parsePage(c)
	if err != nil {
		return err
	}
	var which libraries.Listing
	switch state := c.Query("state", "live"); state {
	case "live":
		which = libraries.ListLive
	case "trashed":
		which = libraries.ListTrashed
	case "all":
		which = libraries.ListAll
	default:
		return catalog.InvalidField("enum", "state must be live, trashed or all", state, "query", "state")
	}
	ms, more, err := s.libs.List(c.UserContext(), principal(c), which, pg)
	if err != nil {
		return err
	}
	return sendJSON(c, convert.Page(ms, more, convert.Library))
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
	return sendJSON(c.Status(status), convert.Library(m))
}

func (s *Server) getLibrary(c *fiber.Ctx) error {
	if err := allowQuery(c); err != nil {
		return err
	}
	m, err := s.libs.Get(c.UserContext(), principal(c), c.Params("id"))
	if err != nil {
		return err
	}
	return sendJSON(c, convert.Library(m))
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
		return sendJSON(c, convert.Library(m))
	}
	m, err := s.libs.Rename(c.UserContext(), principal(c), c.Params("id"), *req.Name)
	if err != nil {
		return err
	}
	return sendJSON(c, convert.Library(m))
}

func (s *Server) trashLibrary(c *fiber.Ctx) error {
	return s.libraryAction(c, s.libs.Trash)
}

func (s *Server) restoreLibrary(c *fiber.Ctx) error {
	return s.libraryAction(c, s.libs.Restore)
}

func (s *Server) switchLibrary(c *fiber.Ctx) error {
	return s.libraryAction(c, s.libs.Switch)
}

// libraryAction runs a bodiless operation on the library of the path and
// answers with the library as the caller now sees it.
func (s *Server) libraryAction(c *fiber.Ctx, op func(ctx context.Context, p *catalog.Principal, id string) (*catalog.Membership, error)) error {
	if err := allowQuery(c); err != nil {
		return err
	}
	m, err := op(c.UserContext(), principal(c), c.Params("id"))
	if err != nil {
		return err
	}
	return sendJSON(c, convert.Library(m))
}
