package httpapi

import (
	"slices"

	"github.com/gofiber/fiber/v2"

	"github.com/photoctl/photoctl/server/api"
	"github.com/photoctl/photoctl/server/catalog"
	"github.com/photoctl/photoctl/server/httpapi/convert"
	"github.com/photoctl/photoctl/server/people"
	"github.com/photoctl/photoctl/server/query"
)

// personListParams are the filters of GET /api/people.
var personListParams = []string{"library_id", "ids", "name", "named", "asset_id", "album_id", "include_unverified"}

// peopleRoutes are the people and faces operations (decisions.md,
// "Albums, stacks, people, faces"): any member reads, collaborators and
// owners write.
func (s *Server) peopleRoutes() []route {
	read := access{action: catalog.ActionPersonRead}
	write := access{action: catalog.ActionPersonWrite}
	return []route{
		{"GET", "/api/people", read, s.listPeople,
			routeDoc{summary: "List people, newest first", tag: "people", paged: true, query: personListParams,
				status: 200, resp: api.Page[api.Person]{}}},
		{"POST", "/api/people", write, s.createPerson,
			routeDoc{summary: "Create a person (named create)", tag: "people", query: []string{"library_id"},
				body: api.PersonCreateRequest{}, status: 201, resp: api.Person{}, also: []int{200}, errs: []int{409}}},
		{"GET", "/api/people/:id", read, s.getPerson,
			routeDoc{summary: "One person", tag: "people", status: 200, resp: api.Person{}}},
		{"PATCH", "/api/people/:id", write, s.patchPerson,
			routeDoc{summary: "Edit a person: name, birth date, hidden, favorite, featured face", tag: "people",
				body: api.PersonUpdateRequest{}, status: 200, resp: api.Person{}, errs: []int{409}}},
		{"POST", "/api/people/:id/merge", write, s.mergePeople,
			routeDoc{summary: "Merge people into this one: their faces move here and they are deleted", tag: "people",
				body: api.PersonMergeRequest{}, status: 200, resp: api.Person{}}},
		{"POST", "/api/people/:id/reassign", write, s.reassignFaces,
			routeDoc{summary: "Give faces to this person", tag: "people",
				body: api.PersonReassignRequest{}, status: 200, resp: api.Person{}}},
		{"GET", "/api/faces", read, s.listFaces,
			routeDoc{summary: "List faces, newest first", tag: "faces", paged: true,
				query: []string{"library_id", "asset_id", "person_id", "ids"}, status: 200, resp: api.Page[api.Face]{}}},
		{"POST", "/api/faces", write, s.createFace,
			routeDoc{summary: "Draw a face on an asset (source manual)", tag: "faces", query: []string{"library_id"},
				body: api.FaceCreateRequest{}, status: 201, resp: api.Face{}}},
		{"DELETE", "/api/faces/:id", write, s.deleteFace,
			routeDoc{summary: "Delete a face", tag: "faces", status: 204}},
		{"GET", "/api/faces/:id/thumbnail", read, s.faceThumbnail,
			routeDoc{summary: "A face cut out of its asset's preview (WebP; 404 until the preview exists)",
				tag: "faces", status: 200}},
	}
}

func (s *Server) listPeople(c *fiber.Ctx) error {
	if err := allowQuery(c, slices.Concat(personListParams, pageParams)...); err != nil {
		return err
	}
	pg, err := parsePage(c)
	if err != nil {
		return err
	}
	f := query.PersonFilter{IDs: multi(c, "ids"), Name: c.Query("name"), AssetID: c.Query("asset_id"),
		AlbumID: c.Query("album_id")}
	if f.Named, err = parseBool(c, "named"); err != nil {
		return err
	}
	unverified, err := parseBool(c, "include_unverified")
	if err != nil {
		return err
	}
	f.IncludeUnverified = unverified != nil && *unverified
	list, more, err := s.people.List(c.UserContext(), principal(c), people.ListInput{LibraryID: c.Query("library_id"),
		Filter: f}, pg)
	if err != nil {
		return err
	}
	return sendJSON(c, convert.Page(list, more, convert.Person))
}

func (s *Server) createPerson(c *fiber.Ctx) error {
	if err := allowQuery(c, "library_id"); err != nil {
		return err
	}
	var req api.PersonCreateRequest
	if err := decodeJSON(c, &req); err != nil {
		return err
	}
	lib := c.Query("library_id")
	if req.LibraryID != nil {
		lib = *req.LibraryID
	}
	p, created, err := s.people.Create(c.UserContext(), principal(c), people.CreateInput{LibraryID: lib,
		Name: req.Name, BirthDate: req.BirthDate, IsHidden: req.IsHidden, IsFavorite: req.IsFavorite})
	if err != nil {
		return err
	}
	status := fiber.StatusOK
	if created {
		status = fiber.StatusCreated
	}
	return sendJSON(c.Status(status), convert.Person(p))
}

func (s *Server) getPerson(c *fiber.Ctx) error {
	if err := allowQuery(c); err != nil {
		return err
	}
	p, err := s.people.Get(c.UserContext(), principal(c), c.Params("id"))
	if err != nil {
		return err
	}
	return sendJSON(c, convert.Person(p))
}

func (s *Server) patchPerson(c *fiber.Ctx) error {
	if err := allowQuery(c); err != nil {
		return err
	}
	var req api.PersonUpdateRequest
	if err := decodeJSON(c, &req); err != nil {
		return err
	}
	p, err := s.people.Patch(c.UserContext(), principal(c), c.Params("id"), people.Update{Name: convert.Patch(req.Name),
		BirthDate: convert.Patch(req.BirthDate), IsHidden: convert.Patch(req.IsHidden), IsFavorite: convert.Patch(req.IsFavorite),
		ThumbnailFaceID: convert.Patch(req.ThumbnailFaceID)})
	if err != nil {
		return err
	}
	return sendJSON(c, convert.Person(p))
}

func (s *Server) mergePeople(c *fiber.Ctx) error {
	if err := allowQuery(c); err != nil {
		return err
	}
	var req api.PersonMergeRequest
	if err := decodeJSON(c, &req); err != nil {
		return err
	}
	p, err := s.people.Merge(c.UserContext(), principal(c), c.Params("id"), req.IDs)
	if err != nil {
		return err
	}
	return sendJSON(c, convert.Person(p))
}

func (s *Server) reassignFaces(c *fiber.Ctx) error {
	if err := allowQuery(c); err != nil {
		return err
	}
	var req api.PersonReassignRequest
	if err := decodeJSON(c, &req); err != nil {
		return err
	}
	p, err := s.people.Reassign(c.UserContext(), principal(c), c.Params("id"), req.FaceIDs)
	if err != nil {
		return err
	}
	return sendJSON(c, convert.Person(p))
}
