package httpapi

import (
	"context"

	"github.com/gofiber/fiber/v2"

	"github.com/photoctl/photoctl/server/api"
	"github.com/photoctl/photoctl/server/catalog"
	"github.com/photoctl/photoctl/server/httpapi/convert"
	"github.com/photoctl/photoctl/server/httpapi/openapi"
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
		{"GET", "/api/people", read, listPage(personListParams, s.listPeople, convert.Person),
			openapi.Doc{Summary: "List people, newest first", Tag: "people", Paged: true, Query: personListParams,
				Status: 200, Resp: api.Page[api.Person]{}}},
		{"POST", "/api/people", write, s.createPerson,
			openapi.Doc{Summary: "Create a person (named create)", Tag: "people", Query: []string{"library_id"},
				Body: api.PersonCreateRequest{}, Status: 201, Resp: api.Person{}, Also: []int{200}, Errs: []int{409}}},
		{"GET", "/api/people/:id", read, one(s.people.Get, convert.Person),
			openapi.Doc{Summary: "One person", Tag: "people", Status: 200, Resp: api.Person{}}},
		{"PATCH", "/api/people/:id", write, oneWithBody(s.patchPerson, convert.Person),
			openapi.Doc{Summary: "Edit a person: name, birth date, hidden, favorite, featured face", Tag: "people",
				Body: api.PersonUpdateRequest{}, Status: 200, Resp: api.Person{}, Errs: []int{409}}},
		{"POST", "/api/people/:id/merge", write, oneWithBody(s.mergePeople, convert.Person),
			openapi.Doc{Summary: "Merge people into this one: their faces move here and they are deleted", Tag: "people",
				Body: api.PersonMergeRequest{}, Status: 200, Resp: api.Person{}}},
		{"POST", "/api/people/:id/reassign", write, oneWithBody(s.reassignFaces, convert.Person),
			openapi.Doc{Summary: "Give faces to this person", Tag: "people",
				Body: api.PersonReassignRequest{}, Status: 200, Resp: api.Person{}}},
		{"GET", "/api/faces", read, listPage([]string{"library_id", "asset_id", "person_id", "ids"}, s.listFaces, convert.Face),
			openapi.Doc{Summary: "List faces, newest first", Tag: "faces", Paged: true,
				Query: []string{"library_id", "asset_id", "person_id", "ids"}, Status: 200, Resp: api.Page[api.Face]{}}},
		{"POST", "/api/faces", write, s.createFace,
			openapi.Doc{Summary: "Draw a face on an asset (source manual)", Tag: "faces", Query: []string{"library_id"},
				Body: api.FaceCreateRequest{}, Status: 201, Resp: api.Face{}}},
		{"DELETE", "/api/faces/:id", write, noContent(s.people.DeleteFace),
			openapi.Doc{Summary: "Delete a face", Tag: "faces", Status: 204}},
		{"GET", "/api/faces/:id/thumbnail", read, s.faceThumbnail,
			openapi.Doc{Summary: "A face cut out of its asset's preview (WebP; 404 until the preview exists)",
				Tag: "faces", Status: 200}},
	}
}

func (s *Server) listPeople(c *fiber.Ctx, pg query.Page) ([]catalog.Person, bool, error) {
	f := query.PersonFilter{IDs: multi(c, "ids"), Name: c.Query("name"), AssetID: c.Query("asset_id"),
		AlbumID: c.Query("album_id")}
	var err error
	if f.Named, err = parseBool(c, "named"); err != nil {
		return nil, false, err
	}
	unverified, err := parseBool(c, "include_unverified")
	if err != nil {
		return nil, false, err
	}
	f.IncludeUnverified = unverified != nil && *unverified
	return s.people.List(c.UserContext(), Principal(c), people.ListInput{LibraryID: c.Query("library_id"),
		Filter: f}, pg)
}

func (s *Server) createPerson(c *fiber.Ctx) error {
	var req api.PersonCreateRequest
	if err := decodeRequest(c, &req, "library_id"); err != nil {
		return err
	}
	lib := c.Query("library_id")
	if req.LibraryID != nil {
		lib = *req.LibraryID
	}
	p, created, err := s.people.Create(c.UserContext(), Principal(c), people.CreateInput{LibraryID: lib,
		Name: req.Name, BirthDate: req.BirthDate, IsHidden: req.IsHidden, IsFavorite: req.IsFavorite})
	if err != nil {
		return err
	}
	return sendNamedCreate(c, created, convert.Person(p))
}

func (s *Server) patchPerson(ctx context.Context, p *catalog.Principal, id string, req *api.PersonUpdateRequest) (*catalog.Person, error) {
	return s.people.Patch(ctx, p, id, people.Update{Name: convert.Patch(req.Name),
		BirthDate: convert.Patch(req.BirthDate), IsHidden: convert.Patch(req.IsHidden), IsFavorite: convert.Patch(req.IsFavorite),
		ThumbnailFaceID: convert.Patch(req.ThumbnailFaceID)})
}

func (s *Server) mergePeople(ctx context.Context, p *catalog.Principal, id string, req *api.PersonMergeRequest) (*catalog.Person, error) {
	return s.people.Merge(ctx, p, id, req.IDs)
}

func (s *Server) reassignFaces(ctx context.Context, p *catalog.Principal, id string, req *api.PersonReassignRequest) (*catalog.Person, error) {
	return s.people.Reassign(ctx, p, id, req.FaceIDs)
}
