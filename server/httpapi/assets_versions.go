package httpapi

import (
	"errors"
	"io"

	"github.com/gofiber/fiber/v2"

	"github.com/photoctl/photoctl/server/blob"
	"github.com/photoctl/photoctl/server/catalog"
	"github.com/photoctl/photoctl/server/httpapi/convert"
)

// The asset version routes; the rules they follow are in assets/versions.go.

func (s *Server) appendVersion(c *fiber.Ctx) error {
	w, name, err := s.receiveFile(c)
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
	w, name, err := s.receiveFile(c)
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

// receiveFile streams the one part named file of a multipart body to a
// temporary blob (never into memory) and returns it with the part's file
// name. Any other part is a 422. The caller hands the writer to a service
// method, which commits or aborts it.
func (s *Server) receiveFile(c *fiber.Ctx) (w *blob.Writer, name string, err error) {
	if err := allowQuery(c); err != nil {
		return nil, "", err
	}
	mr, release, err := multipartReader(c)
	if err != nil {
		return nil, "", err
	}
	defer release()
	defer func() {
		if err != nil && w != nil {
			_ = w.Abort()
		}
	}()
	for {
		part, err := nextPart(mr)
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return w, "", err
		}
		if part.FormName() != "file" {
			return w, "", catalog.InvalidField("extra_forbidden", "unknown form field", nil, "body", part.FormName())
		}
		if w != nil {
			return w, "", catalog.InvalidField("value_error", "send exactly one file part", nil, "body", "file")
		}
		name = CleanFileName(part.FileName())
		if w, err = s.receivePart(part); err != nil {
			return w, "", err
		}
	}
	if w == nil {
		return nil, "", catalog.InvalidField("missing", "a part named file is required", nil, "body", "file")
	}
	return w, name, nil
}
