package httpapi

import (
	"github.com/gofiber/fiber/v2"

	"github.com/photoctl/photoctl/server/assets"
	"github.com/photoctl/photoctl/server/blob"
	"github.com/photoctl/photoctl/server/httpapi/convert"
)

// The asset version routes; the rules they follow are in assets/versions.go.

func (s *Server) appendVersion(c *fiber.Ctx) error {
	w, name, done, err := s.receiveFile(c)
	defer done()
	if err != nil {
		return err
	}
	v, err := s.assets.AppendVersion(c.UserContext(), Principal(c), c.Params("id"), w, name)
	if err != nil {
		return err
	}
	return SendJSON(c.Status(fiber.StatusCreated), convert.Version(v))
}

func (s *Server) replaceVersion(c *fiber.Ctx) error {
	w, name, done, err := s.receiveFile(c)
	defer done()
	if err != nil {
		return err
	}
	v, err := s.assets.ReplaceVersion(c.UserContext(), Principal(c), c.Params("id"), c.Params("version_id"), w, name)
	if err != nil {
		return err
	}
	return SendJSON(c, convert.Version(v))
}

func (s *Server) revertVersion(c *fiber.Ctx) error {
	if err := allowQuery(c); err != nil {
		return err
	}
	v, err := s.assets.RevertVersion(c.UserContext(), Principal(c), c.Params("id"), c.Params("version_id"))
	if err != nil {
		return err
	}
	return SendJSON(c, convert.Version(v))
}

func (s *Server) deleteVersion(c *fiber.Ctx) error {
	if err := allowQuery(c); err != nil {
		return err
	}
	if err := s.assets.DeleteVersion(c.UserContext(), Principal(c), c.Params("id"), c.Params("version_id")); err != nil {
		return err
	}
	return c.SendStatus(fiber.StatusNoContent)
}

// downloadVersion streams one rendering as an attachment (sendAttachment).
// A version's bytes can be replaced under the same URL, so only the
// original is cached as immutable.
func (s *Server) downloadVersion(c *fiber.Ctx) error {
	if err := allowQuery(c); err != nil {
		return err
	}
	v, d, err := s.assets.FindVersion(c.UserContext(), Principal(c), c.Params("id"), c.Params("version_id"))
	if err != nil {
		return err
	}
	return sendAttachment(c, d, v.Checksum, v.FileName, v.IsOriginal)
}

// versionUpload is the body of the version routes: one part named file and
// nothing else (the form has no text fields, so any other part is refused).
var versionUpload = UploadForm{File: "file"}

// receiveFile reads the body of a version route with ReceiveUpload: the
// one file part streamed to a temporary blob (never into memory), and its
// file name. The caller hands the writer to a service method, which
// commits it, and calls done in every case.
func (s *Server) receiveFile(c *fiber.Ctx) (w *blob.Writer, name string, done func(), err error) {
	if err := allowQuery(c); err != nil {
		return nil, "", func() {}, err
	}
	var in assets.UploadInput
	w, done, err = s.ReceiveUpload(c, versionUpload, &in)
	return w, in.FileName, done, err
}
