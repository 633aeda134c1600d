package httpapi

import (
	"strings"
	"time"
	"unicode"
	"unicode/utf8"

	"github.com/gofiber/fiber/v2"

	"github.com/photoctl/photoctl/server/api"
	"github.com/photoctl/photoctl/server/assets"
	"github.com/photoctl/photoctl/server/catalog"
)

// uploadFields are the text fields of a native upload; any other part
// but the file and the sidecar is refused.
var uploadFields = []string{"device_asset_id", "device_id", "file_created_at", "file_modified_at", "library_id"}

// uploadAsset streams a multipart upload straight to a temporary file: the
// file is never held in memory, and parts may come in any order.
func (s *Server) uploadAsset(c *fiber.Ctx) error {
	if err := allowQuery(c, "library_id"); err != nil {
		return err
	}
	in := assets.UploadInput{LibraryID: c.Query("library_id")}
	w, done, err := s.ReceiveUpload(c, UploadForm{File: "file", Sidecar: "sidecar", Fields: uploadFields,
		SetField: func(name, v string) error { return setUploadField(&in, name, v) }}, &in)
	defer done()
	if err != nil {
		return err
	}
	res, err := s.assets.CompleteUpload(c.UserContext(), principal(c), w, in)
	if err != nil {
		return err
	}
	if res.Duplicate {
		return sendJSON(c, api.UploadDuplicate{ID: res.Asset.ID, Status: "duplicate"})
	}
	return sendJSON(c.Status(fiber.StatusCreated), toAPIAsset(res.Asset, nil))
}

func setUploadField(in *assets.UploadInput, name, v string) error {
	switch name {
	case "device_asset_id":
		in.DeviceAssetID = v
	case "device_id":
		in.DeviceID = v
	case "library_id":
		in.LibraryID = v
	case "file_created_at", "file_modified_at":
		t, err := time.Parse(time.RFC3339Nano, strings.TrimSpace(v))
		if err != nil {
			return catalog.InvalidField("datetime_parsing", "must be an RFC 3339 date-time", v, "body", name)
		}
		if name == "file_created_at" {
			in.FileCreatedAt = &t
		} else {
			in.FileModifiedAt = &t
		}
	}
	return nil
}

// cleanFileName keeps the base name a client sent, without control
// characters or invalid UTF-8, at most 255 bytes. It is only ever stored and
// echoed (never a path on disk).
func cleanFileName(name string) string {
	if i := strings.LastIndexAny(name, `/\`); i >= 0 {
		name = name[i+1:]
	}
	name = strings.ToValidUTF8(name, "")
	name = strings.Map(func(r rune) rune {
		// Bidi controls (U+202E...) would let "x\u202egpj.exe" show as "xexe.jpg".
		if unicode.IsControl(r) || r == unicode.ReplacementChar || unicode.Is(unicode.Bidi_Control, r) {
			return -1
		}
		return r
	}, name)
	for len(name) > 255 {
		_, size := utf8.DecodeLastRuneInString(name)
		name = name[:len(name)-size]
	}
	if name == "." || name == ".." {
		return ""
	}
	return strings.TrimSpace(name)
}
