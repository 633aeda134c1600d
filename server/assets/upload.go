package assets

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/photoctl/photoctl/ingest/sniff"
	"github.com/photoctl/photoctl/server/blob"
	"github.com/photoctl/photoctl/server/catalog"
	"github.com/photoctl/photoctl/server/store"
	"github.com/photoctl/photoctl/server/tasks"
)

// UploadInput is what accompanies an uploaded file.
type UploadInput struct {
	LibraryID      string
	DeviceAssetID  string
	DeviceID       string
	FileName       string
	FileCreatedAt  *time.Time // keeps the offset the client sent
	FileModifiedAt *time.Time
	// Sidecar is the XMP sidecar sent with the file (StartSidecar), or nil.
	// CompleteUpload commits it with the asset or aborts it.
	Sidecar *blob.Writer
}

// MaxSidecarBytes bounds an XMP sidecar (streamed to a temporary file,
// never held in memory); real ones, edit history included, stay far below.
const MaxSidecarBytes = 16 << 20

// SidecarKey is the blob key of the XMP sidecar uploaded with an asset;
// the ingest pipeline reads it beside the original.
func SidecarKey(assetID string) string { return "sidecars/" + assetID + ".xmp" }

// StartSidecar returns a writer for an upload's XMP sidecar, limited to
// MaxSidecarBytes. Pass it in UploadInput.Sidecar, or Abort it.
func (s *Service) StartSidecar() (*blob.Writer, error) {
	return s.blobs.Create(MaxSidecarBytes)
}

// checkSidecar refuses a sidecar that is not XMP (an XML packet): exiftool
// would otherwise fail on it at every ingest.
func checkSidecar(w *blob.Writer) error {
	head := bytes.TrimLeft(bytes.TrimPrefix(w.Head(), []byte("\xef\xbb\xbf")), " \t\r\n")
	for _, start := range []string{"<?xpacket", "<?xml", "<x:xmpmeta", "<rdf:RDF"} {
		if bytes.HasPrefix(head, []byte(start)) {
			return nil
		}
	}
	return catalog.InvalidField("value_error", "the sidecar must be an XMP packet (XML)", nil, "body", "sidecar")
}

// UploadResult is a stored upload, or the existing asset with the same
// content in the library (Duplicate).
type UploadResult struct {
	Asset     *catalog.Asset
	Duplicate bool
}

// StartUpload returns a writer that streams an upload to a temporary file,
// hashing it and enforcing the size limit. Pass it to CompleteUpload, or
// Abort it when the request fails.
func (s *Service) StartUpload() (*blob.Writer, error) {
	return s.blobs.Create(s.cfg.MaxUploadBytes)
}

// CompleteUpload stores a fully received upload: it selects the library,
// checks the caller's role, identifies the media from its content, settles
// duplicates (also against a concurrent upload of the same bytes), charges
// the library owner's storage and records the asset with its event. The
// writer is committed or aborted; it is never left behind.
func (s *Service) CompleteUpload(ctx context.Context, p *catalog.Principal, w *blob.Writer, in UploadInput) (res *UploadResult, err error) {
	defer func() {
		if err != nil || res == nil || res.Duplicate {
			_ = w.Abort()
			if in.Sidecar != nil {
				_ = in.Sidecar.Abort()
			}
		}
	}()
	if in.Sidecar != nil {
		if err := checkSidecar(in.Sidecar); err != nil {
			return nil, err
		}
	}
	if w.Size() == 0 {
		return nil, catalog.InvalidField("value_error", "the file is empty", nil, "body", "file")
	}
	m, err := s.libs.Select(ctx, p, in.LibraryID, "body", "library_id")
	if err != nil {
		return nil, err
	}
	if err := authorize(m, needWrite, "uploading"); err != nil {
		return nil, err
	}
	kind, ok := sniff.Detect(w.Head(), in.FileName)
	if !ok {
		return nil, catalog.InvalidField("value_error",
			"unsupported file type: photos (JPEG, PNG, WebP, GIF, HEIC/HEIF, AVIF, TIFF, RAW) and videos (MP4, MOV, M4V, MKV, WebM, AVI, 3GP) are accepted",
			in.FileName, "body", "file")
	}
	if dup, err := s.store.Read().Assets().FindByChecksum(ctx, m.Library.ID, w.SHA256()); err == nil {
		return &UploadResult{Asset: dup, Duplicate: true}, nil
	} else if !errors.Is(err, catalog.ErrNotFound) {
		return nil, err
	}
	a := s.newAsset(p, m, w, in, kind)
	// The files go into place (fsynced, renamed, their folder synced)
	// before the row commits and outside the write transaction, so that
	// parallel uploads sync their files at once instead of one by one
	// behind the write locks. A crash in between leaves a file without a
	// row (swept on start), never a row without its file; a failed
	// transaction removes them.
	if in.Sidecar != nil {
		if err := in.Sidecar.Commit(SidecarKey(a.ID)); err != nil {
			return nil, err
		}
	}
	if err := w.Commit(catalog.OriginalKey(a.ID)); err != nil {
		_ = s.blobs.Remove(SidecarKey(a.ID))
		return nil, err
	}
	err = s.store.InLibraryTx(ctx, m.Library.ID, func(r store.Repos) error {
		if err := s.charge(ctx, r, m.Library.OwnerID, a.OriginalSize); err != nil {
			return err
		}
		if err := r.Assets().Create(ctx, a); err != nil {
			return err
		}
		if err := event(ctx, r, "asset.created", a, map[string]any{"original_file_name": a.OriginalFileName,
			"contributor_id": a.ContributorID}, a.CreatedAt); err != nil {
			return err
		}
		// Ingest starts with the metadata step; it commits with the asset.
		return tasks.Enqueue(ctx, r, tasks.KindMetadata, a.ID, a.LibraryID, a.CreatedAt)
	})
	if err != nil {
		_ = s.blobs.Remove(catalog.OriginalKey(a.ID))
		_ = s.blobs.Remove(SidecarKey(a.ID))
	}
	if errors.Is(err, catalog.ErrConflict) {
		// A concurrent upload of the same bytes won the unique index.
		dup, ferr := s.store.Read().Assets().FindByChecksum(ctx, m.Library.ID, w.SHA256())
		if ferr != nil {
			return nil, ferr
		}
		return &UploadResult{Asset: dup, Duplicate: true}, nil
	}
	if err != nil {
		return nil, err
	}
	return &UploadResult{Asset: a}, nil
}

// charge adds bytes (at least 0) to the owner's usage, refusing what
// exceeds the quota; the caller's transaction rolls a refusal back. It adds
// first and checks the sum after: the add locks the owner's usage row
// until the transaction ends, so charges to one owner from transactions
// of different libraries (InLibraryTx runs them at once on PostgreSQL)
// take turns and each checks a sum no other can change before it commits.
func (s *Service) charge(ctx context.Context, r store.Repos, ownerID string, bytes int64) error {
	owner, err := r.Users().Get(ctx, ownerID)
	if err != nil {
		return err
	}
	if err := r.Storage().Add(ctx, ownerID, bytes); err != nil || owner.QuotaBytes == nil {
		return err
	}
	used, err := r.Storage().Used(ctx, ownerID)
	if err != nil {
		return err
	}
	if used > *owner.QuotaBytes {
		return fmt.Errorf("the library owner's storage quota (%d bytes, %d used) cannot hold %d more bytes: %w",
			*owner.QuotaBytes, used-bytes, bytes, catalog.ErrInsufficient)
	}
	return nil
}

func (s *Service) newAsset(p *catalog.Principal, m *catalog.Membership, w *blob.Writer, in UploadInput, kind sniff.Result) *catalog.Asset {
	now := s.now().UTC()
	created, modified := now, now
	if in.FileCreatedAt != nil {
		created = *in.FileCreatedAt
	}
	if in.FileModifiedAt != nil {
		modified = *in.FileModifiedAt
	}
	name := in.FileName
	if name == "" {
		name = "upload" + kind.Ext
	}
	return &catalog.Asset{
		ID: catalog.NewID(catalog.PrefixAsset, now), LibraryID: m.Library.ID, ContributorID: p.User.ID,
		DeviceAssetID: in.DeviceAssetID, DeviceID: in.DeviceID, MediaType: catalog.MediaType(kind.Kind),
		MIMEType: kind.MIME, OriginalFileName: name, FileCreatedAt: created.UTC(), FileModifiedAt: modified.UTC(),
		Capture:  captureFrom(created),
		Checksum: w.SHA256(), ChecksumSHA1: w.SHA1(), OriginalSize: w.Size(), FileSizeBytes: w.Size(),
		Metrics: map[string]any{}, CreatedAt: now, UpdatedAt: now,
	}
}

// captureFrom reads a capture time from a client timestamp: its wall
// reading in the zone it was sent with, and that zone's offset. The ingest
// pipeline replaces it with the file's own capture time.
func captureFrom(t time.Time) catalog.CaptureTime {
	_, off := t.Zone()
	wall := time.Date(t.Year(), t.Month(), t.Day(), t.Hour(), t.Minute(), t.Second(), t.Nanosecond(), time.UTC)
	return catalog.CaptureTime{Wall: wall, Offset: &off}
}
