package immichapi

import (
	"time"

	"github.com/gofiber/fiber/v2"

	"github.com/photoctl/photoctl/server/assets"
	"github.com/photoctl/photoctl/server/catalog"
	"github.com/photoctl/photoctl/server/httpapi"
	"github.com/photoctl/photoctl/server/immich"
)

// upload is Immich's POST /api/assets: an ordinary streamed upload
// into the layer's library (dedup by content, the native pipeline and
// events), with Immich's field names. A duplicate announced by
// x-immich-checksum is answered before the file is stored.
func (l *layer) upload(c *fiber.Ctx) error {
	ctx, p := c.UserContext(), httpapi.Principal(c)
	m, err := l.immich.Library(ctx, p)
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
		dup, err := l.immich.FindBySHA1(ctx, m, sum)
		if err != nil {
			return err
		}
		if dup != nil {
			return httpapi.SendJSON(c, immich.UploadResponse{ID: dup.ID, Status: "duplicate"})
		}
	}
	in := assets.UploadInput{LibraryID: m.Library.ID}
	var fileName string
	// Every part but the file and the sidecar is a text field; Immich's
	// others (fileSize, isFavorite, visibility, assetType, fileExtension,
	// duration, isReadOnly, …) are read and ignored: photoctl has no
	// favourites or visibilities, and reads type, size and duration from
	// the file itself.
	w, done, err := l.s.ReceiveUpload(c, httpapi.UploadForm{File: "assetData", Sidecar: "sidecarData",
		Created: "fileCreatedAt", Modified: "fileModifiedAt", TimeFormat: "ISO 8601", AnyField: true,
		SetField: func(name, v string) error { return setField(&in, &fileName, name, v) }}, &in)
	defer done()
	if err != nil {
		return err
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
	res, err := l.assets.CompleteUpload(ctx, p, w, in)
	if err != nil {
		return err
	}
	if res.Duplicate {
		return httpapi.SendJSON(c, immich.UploadResponse{ID: res.Asset.ID, Status: "duplicate"})
	}
	return httpapi.SendJSON(c.Status(fiber.StatusCreated), immich.UploadResponse{ID: res.Asset.ID, Status: "created"})
}

// setField applies one text field of an Immich upload but its times.
func setField(in *assets.UploadInput, fileName *string, name, v string) error {
	switch name {
	case "deviceAssetId":
		in.DeviceAssetID = v
	case "deviceId":
		in.DeviceID = v
	case "filename":
		*fileName = httpapi.CleanFileName(v)
	case "visibility":
		return checkVisibility(v)
	}
	return nil
}

// checkVisibility refuses a visibility Immich does not know (photoctl
// has none: any known one is every asset's).
func checkVisibility(v string) error {
	switch v {
	case "archive", "timeline", "hidden", "locked":
		return nil
	}
	return catalog.InvalidField("enum", "visibility must be archive, timeline, hidden or locked", v, "body", "visibility")
}
