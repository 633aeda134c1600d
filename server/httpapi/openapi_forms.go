package httpapi

import "mime/multipart"

// The multipart bodies of the upload routes, for the OpenAPI document only:
// the handlers stream these parts (assets_upload.go) rather than decode them
// into a struct, so the types live here, beside the generator.

// uploadForm is the body of POST /api/assets.
type uploadForm struct {
	File           *multipart.FileHeader `formData:"file" required:"true" description:"The photo or video. Its type is sniffed from the content."`
	Sidecar        *multipart.FileHeader `formData:"sidecar" description:"An XMP sidecar (at most 16 MiB)."`
	DeviceAssetID  string                `formData:"device_asset_id" maxLength:"4096" description:"The client's own id of the file."`
	DeviceID       string                `formData:"device_id" maxLength:"4096" description:"The uploading device."`
	FileCreatedAt  string                `formData:"file_created_at" format:"date-time" description:"The file's creation time on the device."`
	FileModifiedAt string                `formData:"file_modified_at" format:"date-time" description:"The file's modification time on the device."`
	LibraryID      string                `formData:"library_id" description:"Target library (also accepted as a query parameter)."`
}

// versionForm is the body of the version upload routes.
type versionForm struct {
	File *multipart.FileHeader `formData:"file" required:"true" description:"The edited rendering."`
}
