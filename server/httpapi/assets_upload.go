package httpapi

import (
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/gofiber/fiber/v2"

	"github.com/photoctl/photoctl/server/api"
	"github.com/photoctl/photoctl/server/assets"
	"github.com/photoctl/photoctl/server/httpapi/convert"
)

// uploadFields are the text fields of a native upload besides its times;
// any other part but the file and the sidecar is refused.
var uploadFields = []string{"device_asset_id", "device_id", "library_id"}

// uploadAsset streams a multipart upload straight to a temporary file: the
// file is never held in memory, and parts may come in any order.
func (s *Server) uploadAsset(c *fiber.Ctx) error {
	if err := allowQuery(c, "library_id"); err != nil {
		return err
	}
	in := assets.UploadInput{LibraryID: c.Query("library_id")}
	w, done, err := s.ReceiveUpload(c, UploadForm{File: "file", Sidecar: "sidecar", Fields: uploadFields,
		Created: "file_created_at", Modified: "file_modified_at", TimeFormat: "RFC 3339",
		SetField: func(name, v string) error { setUploadField(&in, name, v); return nil }}, &in)
	defer done()
	if err != nil {
		return err
	}
	res, err := s.assets.CompleteUpload(c.UserContext(), Principal(c), w, in)
	if err != nil {
		return err
	}
	if res.Duplicate {
		return SendJSON(c, api.UploadDuplicate{ID: res.Asset.ID, Status: "duplicate"})
	}
	return SendJSON(c.Status(fiber.StatusCreated), convert.Asset(res.Asset, nil))
}

// setUploadField applies one text field of a native upload but its times.
func setUploadField(in *assets.UploadInput, name, v string) {
	switch name {
	case "device_asset_id":
		in.DeviceAssetID = v
	case "device_id":
		in.DeviceID = v
	case "library_id":
		in.LibraryID = v
	}
}

// CleanFileName keeps the base name a client sent, without control
// characters or invalid UTF-8, at most 255 bytes. It is only ever stored and
// echoed (never a path on disk).
func CleanFileName(name string) string {
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
