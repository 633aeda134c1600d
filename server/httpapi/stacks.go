package httpapi

import (
	"github.com/gofiber/fiber/v2"

	"github.com/photoctl/photoctl/server/api"
	"github.com/photoctl/photoctl/server/catalog"
	"github.com/photoctl/photoctl/server/httpapi/convert"
	"github.com/photoctl/photoctl/server/stacks"
)

// stackRoutes are the stack operations (decisions.md "Albums, stacks").
func (s *Server) stackRoutes() []route {
	read := access{action: catalog.ActionStackRead}
	write := access{action: catalog.ActionStackWrite}
	return []route{
		{"GET", "/api/stacks", read, s.listStacks,
			routeDoc{summary: "A library's stacks, newest first", tag: "stacks", paged: true,
				query: []string{"library_id"}, status: 200, resp: api.Page[api.Stack]{}}},
		{"POST", "/api/stacks", write, s.createStack,
			routeDoc{summary: "Stack 2 to 100 live assets of one library (library_id, else the assets' library); an asset already in a stack is a 409", tag: "stacks",
				query: []string{"library_id"}, body: api.StackCreateRequest{}, status: 201, resp: api.Stack{}, errs: []int{409}}},
		{"GET", "/api/stacks/:id", read, s.getStack,
			routeDoc{summary: "One stack", tag: "stacks", status: 200, resp: api.Stack{}}},
		{"PATCH", "/api/stacks/:id", write, s.patchStack,
			routeDoc{summary: "Change the cover, add and remove assets; 204 when fewer than two are left and the stack is dissolved",
				tag: "stacks", body: api.StackUpdateRequest{}, status: 200, resp: api.Stack{}, errs: []int{409}}},
		{"DELETE", "/api/stacks/:id", write, s.deleteStack,
			routeDoc{summary: "Unstack: the assets stay, ungrouped", tag: "stacks", status: 204}},
	}
}

func (s *Server) listStacks(c *fiber.Ctx) error {
	if err := allowQuery(c, append([]string{"library_id"}, pageParams...)...); err != nil {
		return err
	}
	pg, err := parsePage(c)
	if err != nil {
		return err
	}
	list, more, err := s.stacks.List(c.UserContext(), principal(c), c.Query("library_id"), pg)
	if err != nil {
		return err
	}
	return sendJSON(c, convert.Page(list, more, convert.Stack))
}

func (s *Server) createStack(c *fiber.Ctx) error {
	if err := allowQuery(c, "library_id"); err != nil {
		return err
	}
	var req api.StackCreateRequest
	if err := decodeJSON(c, &req); err != nil {
		return err
	}
	lib, loc, err := jsonCreateLibrary(c, req.LibraryID)
	if err != nil {
		return err
	}
	st, err := s.stacks.Create(c.UserContext(), principal(c), stacks.CreateInput{LibraryID: lib, LibraryLoc: loc,
		AssetIDs: req.AssetIDs, CoverAssetID: req.CoverAssetID})
	if err != nil {
		return err
	}
	return sendJSON(c.Status(fiber.StatusCreated), convert.Stack(st))
}

func (s *Server) getStack(c *fiber.Ctx) error {
	if err := allowQuery(c); err != nil {
		return err
	}
	st, err := s.stacks.Get(c.UserContext(), principal(c), c.Params("id"))
	if err != nil {
		return err
	}
	return sendJSON(c, convert.Stack(st))
}

func (s *Server) patchStack(c *fiber.Ctx) error {
	if err := allowQuery(c); err != nil {
		return err
	}
	var req api.StackUpdateRequest
	if err := decodeJSON(c, &req); err != nil {
		return err
	}
	st, err := s.stacks.Update(c.UserContext(), principal(c), c.Params("id"),
		stacks.Change{CoverAssetID: req.CoverAssetID, Add: req.AddAssetIDs, Remove: req.RemoveAssetIDs})
	if err != nil {
		return err
	}
	if st == nil {
		return c.SendStatus(fiber.StatusNoContent) // dissolved
	}
	return sendJSON(c, convert.Stack(st))
}

func (s *Server) deleteStack(c *fiber.Ctx) error {
	if err := allowQuery(c); err != nil {
		return err
	}
	if err := s.stacks.Delete(c.UserContext(), principal(c), c.Params("id")); err != nil {
		return err
	}
	return c.SendStatus(fiber.StatusNoContent)
}
