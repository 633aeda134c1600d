package httpapi

import (
	"errors"
	"io"
	"strings"
	"time"

	"github.com/gofiber/fiber/v2"

	"github.com/photoctl/photoctl/server/assets"
	"github.com/photoctl/photoctl/server/blob"
	"github.com/photoctl/photoctl/server/catalog"
	"github.com/photoctl/photoctl/server/immich"
)

// immichUpload is Immich's POST /api/assets: an ordinary streamed upload
// into the layer's library (dedup by content, the native pipeline and
// events), with Immich's field names. A duplicate announced by
// x-immich-checksum is answered before the file is stored.
func (s *Server) immichUpload(c *fiber.Ctx) error {
	ctx, p := c.UserContext(), principal(c)
	m, err := s.immich.Library(ctx, p)
	if err != nil {
		return err
	}
	if err := m.RequireWrite("uploading"); err != nil { // before any duplicate is told, as Immich
		return err
	}
	if h := c.Get("x-immich-checksum"); h != "" {
		sum, err := immich.ParseChecksum(h)
		if err != nil {
			return catalog.InvalidField("value_error", err.Error(), h, "header", "x-immich-checksum")
		}
		dup, err := s.immich.FindBySHA1(ctx, m, sum)
		if err != nil {
			return err
		}
		if dup != nil {
			return sendJSON(c, immich.UploadResponse{ID: dup.ID, Status: "duplicate"})
		}
	}
	mr, release, err := multipartReader(c)
	if err != nil {
		return err
	}
	defer release()
	in := assets.UploadInput{LibraryID: m.Library.ID}
	var w *blob.Writer
	var fileName string
	defer func() {
		if w != nil {
			_ = w.Abort() // no-op once committed
		}
		if in.Sidecar != nil {
			_ = in.Sidecar.Abort()
		}
	}()
	for {
		part, err := nextPart(mr)
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return err
		}
		switch name := part.FormName(); name {
		case "assetData":
			if err := s.receiveFilePart(part, "assetData", &w, &in); err != nil {
				return err
			}
		case "sidecarData":
			if err := s.receiveSidecarPart(part, "sidecarData", &in); err != nil {
				return err
			}
		default:
			// Text fields; Immich's others (fileSize, isFavorite, visibility,
			// assetType, fileExtension, duration, isReadOnly, …) are read and
			// ignored: photoctl has no favourites or visibilities, and reads
			// type, size and duration from the file itself.
			v, err := io.ReadAll(io.LimitReader(part, maxFormField+1))
			if err != nil { // a field cut short or malformed: the client's fault
				return catalog.InvalidField("value_error", "malformed multipart body: "+err.Error(), nil, "body", name)
			}
			if len(v) > maxFormField {
				return catalog.InvalidField("string_too_long", "field is too long", nil, "body", name)
			}
			if err := setImmichField(&in, &fileName, name, string(v)); err != nil {
				return err
			}
		}
	}
	if w == nil {
		return catalog.InvalidField("missing", "a part named assetData is required", nil, "body", "assetData")
	}
	for _, f := range []struct {
		v    *time.Time
		name string
	}{{in.FileCreatedAt, "fileCreatedAt"}, {in.FileModifiedAt, "fileModifiedAt"}} {
		if f.v == nil {
			return catalog.InvalidField("missing", f.name+" is required", nil, "body", f.name)
		}
	}
	if fileName != "" {
		in.FileName = fileName
	}
	res, err := s.assets.CompleteUpload(ctx, p, w, in)
	if err != nil {
		return err
	}
	if res.Duplicate {
		return sendJSON(c, immich.UploadResponse{ID: res.Asset.ID, Status: "duplicate"})
	}
	return sendJSON(c.Status(fiber.StatusCreated), immich.UploadResponse{ID: res.Asset.ID, Status: "created"})
}

// setImmichField applies one text field of an Immich upload.
func setImmichField(in *assets.UploadInput, fileName *string, name, v string) error {
	switch name {
	case "deviceAssetId":
		in.DeviceAssetID = v
	case "deviceId":
		in.DeviceID = v
	case "filename":
		*fileName = cleanFileName(v)
	case "visibility":
		switch v {
		case "archive", "timeline", "hidden", "locked":
		default:
			return catalog.InvalidField("enum", "visibility must be archive, timeline, hidden or locked", v, "body", name)
		}
	case "fileCreatedAt", "fileModifiedAt":
		t, err := time.Parse(time.RFC3339Nano, strings.TrimSpace(v))
		if err != nil {
			return catalog.InvalidField("datetime_parsing", "must be an ISO 8601 date-time", v, "body", name)
		}
		if name == "fileCreatedAt" {
			in.FileCreatedAt = &t
		} else {
			in.FileModifiedAt = &t
		}
	}
	return nil
}
