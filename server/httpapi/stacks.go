package httpapi

import (
	"github.com/gofiber/fiber/v2"

	"github.com/photoctl/photoctl/server/api"
	"github.com/photoctl/photoctl/server/catalog"
	"github.com/photoctl/photoctl/server/httpapi/convert"
	"github.com/photoctl/photoctl/server/httpapi/openapi"
	"github.com/photoctl/photoctl/server/stacks"
)

// stackRoutes are the stack operations (decisions.md "Albums, stacks").
func (s *Server) stackRoutes() []route {
	read := access{action: catalog.ActionStackRead}
	write := access{action: catalog.ActionStackWrite}
	return []route{
		{"GET", "/api/stacks", read, listByQuery("library_id", s.stacks.List, convert.Stack),
			openapi.Doc{Summary: "A library's stacks, newest first", Tag: "stacks", Paged: true,
				Query: []string{"library_id"}, Status: 200, Resp: api.Page[api.Stack]{}}},
		{"POST", "/api/stacks", write, s.createStack,
			openapi.Doc{Summary: "Stack 2 to 100 live assets of one library (library_id, else the assets' library); an asset already in a stack is a 409", Tag: "stacks",
				Query: []string{"library_id"}, Body: api.StackCreateRequest{}, Status: 201, Resp: api.Stack{}, Errs: []int{409}}},
		{"GET", "/api/stacks/:id", read, one(s.stacks.Get, convert.Stack),
			openapi.Doc{Summary: "One stack", Tag: "stacks", Status: 200, Resp: api.Stack{}}},
		{"PATCH", "/api/stacks/:id", write, s.patchStack,
			openapi.Doc{Summary: "Change the cover, add and remove assets; 204 when fewer than two are left and the stack is dissolved",
				Tag: "stacks", Body: api.StackUpdateRequest{}, Status: 200, Resp: api.Stack{}, Errs: []int{409}}},
		{"DELETE", "/api/stacks/:id", write, noContent(s.stacks.Delete),
			openapi.Doc{Summary: "Unstack: the assets stay, ungrouped", Tag: "stacks", Status: 204}},
	}
}

func (s *Server) createStack(c *fiber.Ctx) error {
	var req api.StackCreateRequest
	if err := decodeRequest(c, &req, "library_id"); err != nil {
		return err
	}
	lib, loc, err := jsonCreateLibrary(c, req.LibraryID)
	if err != nil {
		return err
	}
	st, err := s.stacks.Create(c.UserContext(), Principal(c), stacks.CreateInput{LibraryID: lib, LibraryLoc: loc,
		AssetIDs: req.AssetIDs, CoverAssetID: req.CoverAssetID})
	if err != nil {
		return err
	}
	return SendJSON(c.Status(fiber.StatusCreated), convert.Stack(st))
}

func (s *Server) patchStack(c *fiber.Ctx) error {
	var req api.StackUpdateRequest
	if err := decodeRequest(c, &req); err != nil {
		return err
	}
	st, err := s.stacks.Update(c.UserContext(), Principal(c), c.Params("id"),
		stacks.Change{CoverAssetID: req.CoverAssetID, Add: req.AddAssetIDs, Remove: req.RemoveAssetIDs})
	if err != nil {
		return err
	}
	if st == nil {
		return c.SendStatus(fiber.StatusNoContent) // dissolved
	}
	return SendJSON(c, convert.Stack(st))
}
