package httpapi

import (
	"github.com/gofiber/fiber/v2"

	"github.com/photoctl/photoctl/server/api"
	"github.com/photoctl/photoctl/server/catalog"
	"github.com/photoctl/photoctl/server/httpapi/convert"
	"github.com/photoctl/photoctl/server/httpapi/openapi"
	"github.com/photoctl/photoctl/server/libraries"
	"github.com/photoctl/photoctl/server/query"
)

// libraryRoutes are the library lifecycle operations. Creating, renaming,
// trashing and restoring need a first-party session (no API key action
// grants them); trash and restore answer with sharing codes
// (last_live_library, not_library_owner).
func (s *Server) libraryRoutes() []route {
	return []route{
		{"GET", "/api/libraries", access{action: catalog.ActionLibraryRead}, listPage([]string{"state"}, s.listLibraries, convert.Library),
			openapi.Doc{Summary: "The caller's libraries with the caller's role (state: live, trashed or all; default live)",
				Tag: "libraries", Paged: true, Query: []string{"state"}, Status: 200, Resp: api.Page[api.Library]{}}},
		{"POST", "/api/libraries", access{kinds: sessionOnly}, s.createLibrary,
			openapi.Doc{Summary: "Create a library (named create)", Tag: "libraries",
				Body: api.LibraryCreateRequest{}, Status: 201, Resp: api.Library{}, Also: []int{200}, Errs: []int{409}}},
		{"GET", "/api/libraries/:id", access{action: catalog.ActionLibraryRead}, one(s.libs.Get, convert.Library),
			openapi.Doc{Summary: "One live library", Tag: "libraries", Status: 200, Resp: api.Library{}}},
		{"PATCH", "/api/libraries/:id", access{kinds: sessionOnly}, s.patchLibrary,
			openapi.Doc{Summary: "Rename a library (owner only)", Tag: "libraries",
				Body: api.LibraryUpdateRequest{}, Status: 200, Resp: api.Library{}, Errs: []int{409}}},
		{"POST", "/api/libraries/:id/trash", access{kinds: sessionOnly, sharing: true}, one(s.libs.Trash, convert.Library),
			openapi.Doc{Summary: "Move a library to the trash, hiding its content from every member (owner only; not the owner's last live library)",
				Tag: "libraries", Status: 200, Resp: api.Library{}, Errs: []int{409}}},
		{"POST", "/api/libraries/:id/restore", access{kinds: sessionOnly, sharing: true}, one(s.libs.Restore, convert.Library),
			openapi.Doc{Summary: "Restore a trashed library with its content (owner only)", Tag: "libraries",
				Status: 200, Resp: api.Library{}}},
		{"POST", "/api/libraries/:id/switch", access{action: catalog.ActionUserUpdate}, one(s.libs.Switch, convert.Library),
			openapi.Doc{Summary: "Make a library the caller's default (default_library_id); library_id stays required where the caller has several",
				Tag: "libraries", Status: 200, Resp: api.Library{}}},
	}
}

func (s *Server) listLibraries(c *fiber.Ctx, pg query.Page) ([]catalog.Membership, bool, error) {
	var which libraries.Listing
	switch state := c.Query("state", "live"); state {
	case "live":
		which = libraries.ListLive
	case "trashed":
		which = libraries.ListTrashed
	case "all":
		which = libraries.ListAll
	default:
		return nil, false, catalog.InvalidField("enum", "state must be live, trashed or all", state, "query", "state")
	}
	return s.libs.List(c.UserContext(), Principal(c), which, pg)
}

func (s *Server) createLibrary(c *fiber.Ctx) error {
	var req api.LibraryCreateRequest
	if err := decodeJSON(c, &req); err != nil {
		return err
	}
	m, created, err := s.libs.Create(c.UserContext(), Principal(c), req.Name)
	if err != nil {
		return err
	}
	return sendNamedCreate(c, created, convert.Library(m))
}

func (s *Server) patchLibrary(c *fiber.Ctx) error {
	var req api.LibraryUpdateRequest
	if err := decodeJSON(c, &req); err != nil {
		return err
	}
	if req.Name == nil {
		m, err := s.libs.Get(c.UserContext(), Principal(c), c.Params("id"))
		if err != nil {
			return err
		}
		return SendJSON(c, convert.Library(m))
	}
	m, err := s.libs.Rename(c.UserContext(), Principal(c), c.Params("id"), *req.Name)
	if err != nil {
		return err
	}
	return SendJSON(c, convert.Library(m))
}
