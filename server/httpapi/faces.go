package httpapi

import (
	"github.com/gofiber/fiber/v2"

	"github.com/photoctl/photoctl/server/api"
	"github.com/photoctl/photoctl/server/catalog"
	"github.com/photoctl/photoctl/server/people"
	"github.com/photoctl/photoctl/server/query"
)

func (s *Server) listFaces(c *fiber.Ctx) error {
	if err := allowQuery(c, "library_id", "asset_id", "person_id", "ids", "limit", "starting_after_id"); err != nil {
		return err
	}
	pg, err := parsePage(c)
	if err != nil {
		return err
	}
	f := query.FaceFilter{AssetID: c.Query("asset_id"), PersonID: c.Query("person_id"), IDs: multi(c, "ids")}
	list, more, err := s.people.ListFaces(c.UserContext(), principal(c),
		people.FaceListInput{LibraryID: c.Query("library_id"), Filter: f}, pg)
	if err != nil {
		return err
	}
	return sendJSON(c, pageOf(list, more, toAPIFace))
}

func (s *Server) createFace(c *fiber.Ctx) error {
	if err := allowQuery(c, "library_id"); err != nil {
		return err
	}
	var req api.FaceCreateRequest
	if err := decodeJSON(c, &req); err != nil {
		return err
	}
	in := people.FaceInput{LibraryID: c.Query("library_id"), AssetID: req.AssetID, PersonID: req.PersonID,
		TimestampMS: req.TimestampMS}
	if req.LibraryID != nil {
		in.LibraryID = *req.LibraryID
	}
	if req.AssetID == "" {
		return catalog.InvalidField("missing", "asset_id is required", nil, "body", "asset_id")
	}
	box, err := fromAPIBox(req.BoundingBox)
	if err != nil {
		return err
	}
	in.Box = box
	f, err := s.people.CreateFace(c.UserContext(), principal(c), in)
	if err != nil {
		return err
	}
	return sendJSON(c.Status(fiber.StatusCreated), toAPIFace(f))
}

// fromAPIBox reads a request's bounding box, reporting each missing field;
// the values themselves are checked by catalog.BoundingBox.Validate.
func fromAPIBox(b *api.BoundingBoxInput) (catalog.BoundingBox, error) {
	if b == nil {
		return catalog.BoundingBox{}, catalog.InvalidField("missing", "bounding_box is required", nil, "body", "bounding_box")
	}
	var missing []catalog.FieldError
	for _, f := range []struct {
		name string
		v    *float64
	}{{"x", b.X}, {"y", b.Y}, {"width", b.Width}, {"height", b.Height}} {
		if f.v == nil {
			missing = append(missing, catalog.FieldError{Loc: []any{"body", "bounding_box", f.name},
				Msg: f.name + " is required", Type: "missing"})
		}
	}
	if len(missing) > 0 {
		return catalog.BoundingBox{}, &catalog.ValidationError{Fields: missing}
	}
	return catalog.BoundingBox{X: *b.X, Y: *b.Y, Width: *b.Width, Height: *b.Height}, nil
}

func (s *Server) deleteFace(c *fiber.Ctx) error {
	if err := allowQuery(c); err != nil {
		return err
	}
	if err := s.people.DeleteFace(c.UserContext(), principal(c), c.Params("id")); err != nil {
		return err
	}
	return c.SendStatus(fiber.StatusNoContent)
}

// faceThumbnail renders a face from its asset's preview, answering a
// matching If-None-Match with 304 before any decoding.
func (s *Server) faceThumbnail(c *fiber.Ctx) error {
	if err := allowQuery(c); err != nil {
		return err
	}
	t, err := s.people.Thumbnail(c.UserContext(), principal(c), c.Params("id"))
	if err != nil {
		return err
	}
	c.Set(fiber.HeaderETag, t.ETag)
	c.Set(fiber.HeaderCacheControl, "private, no-cache")
	if notModified(c, t.ETag) {
		return c.SendStatus(fiber.StatusNotModified)
	}
	img, mime, err := t.Render()
	if err != nil {
		return err
	}
	return sendMadeFile(c, img, mime)
}

// faceThumbnailURL is where a face's thumbnail is served.
func faceThumbnailURL(faceID string) string { return "/api/faces/" + faceID + "/thumbnail" }

// toAPIFace converts a face.
func toAPIFace(f *catalog.Face) api.Face {
	return api.Face{ID: f.ID, AssetID: f.AssetID, LibraryID: f.LibraryID, PersonID: f.PersonID,
		BoundingBox: api.BoundingBox{X: f.Box.X, Y: f.Box.Y, Width: f.Box.Width, Height: f.Box.Height},
		Source:      string(f.Source), Confidence: f.Confidence, TimestampMS: f.TimestampMS,
		ThumbnailURL: faceThumbnailURL(f.ID), CreatedAt: f.CreatedAt, UpdatedAt: f.UpdatedAt,
		AssetURLs: assetURLs(&catalog.Asset{ID: f.AssetID, MediaType: f.AssetMediaType}, nil)}
}

// withFaces fills the faces and people of converted assets, which the
// caller has already been allowed to read.
func (s *Server) withFaces(c *fiber.Ctx, list []api.Asset) error {
	ids := make([]string, len(list))
	for i := range list {
		ids[i] = list[i].ID
	}
	faces, persons, err := s.people.OfAssets(c.UserContext(), ids)
	if err != nil {
		return err
	}
	for i := range list {
		a := &list[i]
		fs, ps := faces[a.ID], persons[a.ID]
		a.Faces, a.People = make([]api.Face, len(fs)), make([]api.Person, len(ps))
		for j := range fs {
			a.Faces[j] = toAPIFace(&fs[j])
		}
		for j := range ps {
			a.People[j] = toAPIPerson(&ps[j])
		}
	}
	return nil
}

// sendAsset answers one converted asset with its faces and people.
func (s *Server) sendAsset(c *fiber.Ctx, a api.Asset) error {
	list := []api.Asset{a}
	if err := s.withFaces(c, list); err != nil {
		return err
	}
	return sendJSON(c, list[0])
}
