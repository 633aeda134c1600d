package client

import (
	"context"
	"io"
	"net/http"
	"time"

	"github.com/photoctl/photoctl/server/api"
)

// Upload is one photo or video to upload with its form fields.
type Upload struct {
	File FilePart
	// Sidecar, when set, is sent as the XMP sidecar part.
	Sidecar *FilePart
	// LibraryID may be empty when the caller has one library.
	LibraryID                     string
	DeviceAssetID, DeviceID       string
	FileCreatedAt, FileModifiedAt time.Time // zero: not sent
	// Progress, when set, is told of every chunk of the file sent. When an
	// attempt is retried it is first told the negative of what that attempt
	// had sent, so that a running total stays true.
	Progress func(delta int64)
}

// UploadResult is the outcome of an accepted upload.
type UploadResult struct {
	// ID is the new asset's id, or for a duplicate the id of the asset
	// that already holds the same bytes.
	ID        string
	Duplicate bool
	// Asset is the new asset; nil for a duplicate.
	Asset *api.Asset
}

// uploadAnswer holds either answer of POST /api/assets: the Asset (201)
// or {id, status: "duplicate"} (200).
type uploadAnswer struct {
	api.Asset
	Status string `json:"status"`
}

// UploadAsset streams u as multipart/form-data to POST /api/assets. The
// file is read from disk as it is sent, never whole into memory; a 429 or
// 503 (and a failed connection: a repeated upload is deduplicated by the
// server) is retried by opening it again.
func (c *Client) UploadAsset(ctx context.Context, u Upload) (*UploadResult, error) {
	fields := []field{}
	add := func(name, value string) {
		if value != "" {
			fields = append(fields, field{name, value})
		}
	}
	add("library_id", u.LibraryID)
	add("device_asset_id", u.DeviceAssetID)
	add("device_id", u.DeviceID)
	if !u.FileCreatedAt.IsZero() {
		add("file_created_at", u.FileCreatedAt.Format(time.RFC3339Nano))
	}
	if !u.FileModifiedAt.IsZero() {
		add("file_modified_at", u.FileModifiedAt.Format(time.RFC3339Nano))
	}
	small := map[string]FilePart{}
	if u.Sidecar != nil {
		small["sidecar"] = *u.Sidecar
	}
	var out uploadAnswer
	resp, err := c.do(ctx, &call{method: "POST", path: "/api/assets", out: &out, idempotent: true,
		stream: streamOnce(fields, small, "file", u.File, u.Progress)})
	if err != nil {
		return nil, err
	}
	if resp.StatusCode() == http.StatusOK && out.Status == "duplicate" {
		return &UploadResult{ID: out.ID, Duplicate: true}, nil
	}
	return &UploadResult{ID: out.ID, Asset: &out.Asset}, nil
}

// streamOnce returns a call's stream function for a multipart body whose
// progress is rewound when an attempt is retried.
func streamOnce(fields []field, small map[string]FilePart, fileField string, file FilePart,
	progress func(int64)) func() (io.Reader, string, int64, func() error, error) {
	var sent int64
	return func() (io.Reader, string, int64, func() error, error) {
		var report func(int64)
		if progress != nil {
			if sent != 0 {
				progress(-sent)
				sent = 0
			}
			report = func(n int64) {
				sent += n
				progress(n)
			}
		}
		return multipartBody(fields, small, fileField, file, report)
	}
}
