package httpapi

import (
	"github.com/gofiber/fiber/v2"

	"github.com/photoctl/photoctl/server/api"
	"github.com/photoctl/photoctl/server/catalog"
	"github.com/photoctl/photoctl/server/httpapi/convert"
	"github.com/photoctl/photoctl/server/people"
	"github.com/photoctl/photoctl/server/query"
)

func (s *Server) listFaces(c *fiber.Ctx, pg query.Page) ([]catalog.Face, bool, error) {
	f := query.FaceFilter{AssetID: c.Query("asset_id"), PersonID: c.Query("person_id"), IDs: multi(c, "ids")}
	return s.people.ListFaces(c.UserContext(), Principal(c), people.FaceListInput{LibraryID: c.Query("library_id"), Filter: f}, pg)
}

func (s *Server) createFace(c *fiber.Ctx) error {
	var req api.FaceCreateRequest
	if err := decodeRequest(c, &req, "library_id"); err != nil {
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
	box, err := convert.FromBox(req.BoundingBox)
	if err != nil {
		return err
	}
	in.Box = box
	f, err := s.people.CreateFace(c.UserContext(), Principal(c), in)
	if err != nil {
		return err
	}
	return SendJSON(c.Status(fiber.StatusCreated), convert.Face(f))
}

// faceThumbnail renders a face from its asset's preview, answering a
// matching If-None-Match with 304 before any decoding.
func (s *Server) faceThumbnail(c *fiber.Ctx) error {
	if err := allowQuery(c); err != nil {
		return err
	}
	t, err := s.people.Thumbnail(c.UserContext(), Principal(c), c.Params("id"))
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

// withFaces fills the faces and people of converted assets, which the
// caller has already been allowed to read.
func (s *Server) withFaces(c *fiber.Ctx, list []api.Asset) error {
	faces, persons, err := s.people.OfAssets(c.UserContext(), convert.AssetIDs(list))
	if err != nil {
		return err
	}
	convert.AddPeople(list, faces, persons)
	return nil
}

// sendAsset answers one converted asset with its faces and people.
func (s *Server) sendAsset(c *fiber.Ctx, a api.Asset) error {
	list := []api.Asset{a}
	if err := s.withFaces(c, list); err != nil {
		return err
	}
	return SendJSON(c, list[0])
}
