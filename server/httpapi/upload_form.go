package httpapi

import (
	"errors"
	"io"
	"mime/multipart"
	"slices"
	"strings"
	"time"

	"github.com/gofiber/fiber/v2"

	"github.com/photoctl/photoctl/server/assets"
	"github.com/photoctl/photoctl/server/blob"
	"github.com/photoctl/photoctl/server/catalog"
)

// maxFormField bounds a non-file multipart field.
const maxFormField = 4 << 10

// UploadForm names the parts of an upload's multipart body, which differ
// between the native upload and the protocol adapters' (Immich's
// assetData, sidecarData and camelCase fields).
type UploadForm struct {
	File    string // the form name of the one file part (required)
	Sidecar string // the form name of the optional XMP sidecar part
	// Created and Modified are the form names of the file's creation and
	// modification times (RFC 3339, read into in.FileCreatedAt and
	// in.FileModifiedAt); TimeFormat is what a refusal calls their format.
	Created, Modified, TimeFormat string
	// Fields are the names of the other text fields, which SetField (at
	// most 4 KiB each) applies to the upload; with AnyField every other
	// part is one. A part named otherwise is refused (422 extra_forbidden).
	Fields   []string
	AnyField bool
	SetField func(name, value string) error
}

// ReceiveUpload reads the multipart upload of c, its parts in any order:
// the file part streamed into the returned blob writer (its file name
// into in.FileName), the sidecar into in.Sidecar, each text field through
// form.SetField. The file is never held in memory. Call done in every
// case once the upload is completed or refused: it aborts what was not
// committed and finishes reading the body.
func (s *Server) ReceiveUpload(c *fiber.Ctx, form UploadForm, in *assets.UploadInput) (*blob.Writer, func(), error) {
	mr, release, err := multipartReader(c)
	if err != nil {
		return nil, func() {}, err
	}
	var w *blob.Writer // what done aborts, whatever is returned
	done := func() {
		if w != nil {
			_ = w.Abort() // no-op once committed
		}
		if in.Sidecar != nil {
			_ = in.Sidecar.Abort()
		}
		release()
	}
	for {
		part, err := nextPart(mr)
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return nil, done, err
		}
		switch name := part.FormName(); {
		case name == form.File:
			err = s.receiveFilePart(part, name, &w, in)
		case name == form.Sidecar && name != "":
			err = s.receiveSidecarPart(part, name, in)
		case form.takes(name):
			var v string
			if v, err = readFormField(part, name); err == nil {
				err = form.setField(in, name, v)
			}
		default:
			err = catalog.InvalidField("extra_forbidden", "unknown form field", nil, "body", name)
		}
		if err != nil {
			return nil, done, err
		}
	}
	if w == nil {
		return nil, done, catalog.InvalidField("missing", "a part named "+form.File+" is required", nil, "body", form.File)
	}
	return w, done, nil
}

// takes reports whether the form has a text field name.
func (f *UploadForm) takes(name string) bool {
	return f.AnyField || (name != "" && (name == f.Created || name == f.Modified)) || slices.Contains(f.Fields, name)
}

// setField applies one text field: a time of the file, or what SetField
// makes of it.
func (f *UploadForm) setField(in *assets.UploadInput, name, v string) error {
	var to **time.Time
	switch {
	case name != "" && name == f.Created:
		to = &in.FileCreatedAt
	case name != "" && name == f.Modified:
		to = &in.FileModifiedAt
	default:
		return f.SetField(name, v)
	}
	t, err := time.Parse(time.RFC3339Nano, strings.TrimSpace(v))
	if err != nil {
		return catalog.InvalidField("datetime_parsing", "must be an "+f.TimeFormat+" date-time", v, "body", name)
	}
	*to = &t
	return nil
}

// readFormField reads a text part, at most maxFormField bytes.
func readFormField(part *multipart.Part, name string) (string, error) {
	v, err := io.ReadAll(io.LimitReader(part, maxFormField+1))
	if err != nil { // a field cut short or malformed: the client's fault
		return "", catalog.InvalidField("value_error", "malformed multipart body: "+err.Error(), nil, "body", name)
	}
	if len(v) > maxFormField {
		return "", catalog.InvalidField("string_too_long", "field is too long", nil, "body", name)
	}
	return string(v), nil
}
