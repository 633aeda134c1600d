package assets

import (
	"context"
	"encoding/base64"
	"errors"
	"fmt"

	"github.com/photoctl/photoctl/server/albums"
	"github.com/photoctl/photoctl/server/blob"
	"github.com/photoctl/photoctl/server/catalog"
	"github.com/photoctl/photoctl/server/query"
	"github.com/photoctl/photoctl/server/stacks"
)

// Get reads one asset the caller can see.
func (s *Service) Get(ctx context.Context, p *catalog.Principal, id string) (*catalog.Asset, error) {
	a, _, err := s.asset(ctx, s.store.Read(), p, id, needRead, "reading")
	return a, err
}

// Detail returns the asset id, which p may read, and the text OCR read in
// it: nil until the ocr step ran on it, "" when it found none.
func (s *Service) Detail(ctx context.Context, p *catalog.Principal, id string) (*catalog.Asset, *string, error) {
	r := s.store.Read()
	a, _, err := s.asset(ctx, r, p, id, needRead, "reading")
	if err != nil {
		return nil, nil, err
	}
	rec, err := r.AssetTexts().Get(ctx, id)
	if errors.Is(err, catalog.ErrNotFound) {
		return a, nil, nil
	}
	if err != nil {
		return nil, nil, err
	}
	return a, rec.OCRText, nil
}

// ListInput is an asset list request: the library (selection rule) and the
// store filter without it.
type ListInput struct {
	LibraryID string
	Filter    query.AssetFilter
}

// List pages the assets of the selected library matching the filter.
func (s *Service) List(ctx context.Context, p *catalog.Principal, in ListInput, pg query.Page) ([]catalog.Asset, bool, error) {
	m, err := s.libs.Select(ctx, p, in.LibraryID, "query", "library_id")
	if err != nil {
		return nil, false, err
	}
	f := in.Filter
	f.LibraryID = m.Library.ID
	if err := s.checkScope(ctx, f); err != nil {
		return nil, false, err
	}
	return s.store.Read().Assets().List(ctx, f, pg)
}

// checkScope makes an album or stack of another library (or none) named in
// f a 404, not an empty answer.
func (s *Service) checkScope(ctx context.Context, f query.AssetFilter) error {
	if err := albums.InLibrary(ctx, s.store.Read(), f.AlbumID, f.LibraryID); err != nil {
		return err
	}
	return stacks.InLibrary(ctx, s.store.Read(), f.StackID, f.LibraryID)
}

// CheckResult says whether content with a checksum is already in the library.
type CheckResult struct {
	Checksum string // as sent (base64 SHA-256)
	AssetID  *string
}

// Check answers, for each base64 SHA-256, the id of the library's asset
// with that content, if any.
func (s *Service) Check(ctx context.Context, p *catalog.Principal, libraryID string, checksums []string) ([]CheckResult, error) {
	m, err := s.libs.Select(ctx, p, libraryID, "body", "library_id")
	if err != nil {
		return nil, err
	}
	out := make([]CheckResult, len(checksums))
	sums := make([][]byte, len(checksums))
	for i, c := range checksums {
		out[i].Checksum = c
		sum, err := base64.StdEncoding.DecodeString(c)
		if err != nil || len(sum) != 32 {
			return nil, catalog.InvalidField("value_error", "not a base64 SHA-256", c, "body", "checksums", i)
		}
		sums[i] = sum
	}
	found, err := s.store.Read().Assets().IDsByChecksum(ctx, m.Library.ID, sums)
	if err != nil {
		return nil, err
	}
	for i, sum := range sums {
		if id, ok := found[string(sum)]; ok {
			out[i].AssetID = &id
		}
	}
	return out, nil
}

// Download is an original or a version of an asset the caller can see,
// found but not yet opened: its ETag is its checksum, from the asset's
// rows, so a conditional request the client's copy satisfies is answered
// without touching the file (in a bucket: with no request).
type Download struct {
	Asset *catalog.Asset
	Key   string // the blob's key
	MIME  string
	blobs *blob.Store
}

// Open opens the file for reading.
func (d Download) Open() (blob.File, error) { return d.blobs.Open(d.Key) }

// FindOriginal finds the original file of an asset the caller can see.
func (s *Service) FindOriginal(ctx context.Context, p *catalog.Principal, id string) (Download, error) {
	a, err := s.Get(ctx, p, id)
	if err != nil {
		return Download{}, err
	}
	return Download{Asset: a, Key: catalog.OriginalKey(a.ID), MIME: a.MIMEType, blobs: s.blobs}, nil
}

// Variant names of image renderings.
var variantNames = map[string]bool{"thumbnail": true, "preview": true, "fullsize": true}

// VariantKey is the blob key of an image rendering; the ingest pipeline
// writes it (a WebP or JPEG, named with its extension).
func VariantKey(assetID, name, ext string) string {
	return "variants/" + assetID + "/" + name + ext
}

// variantsPrefix is the blob folder of an asset's renderings.
func variantsPrefix(assetID string) string { return "variants/" + assetID }

// OpenVariant opens a rendering of an image the caller can see. A name
// outside thumbnail, preview and fullsize is a 422; a rendering not
// generated yet is a 404 saying so. (Its ETag needs the file's time, so
// unlike FindOriginal this opens at once: in a bucket the open is the HEAD
// a stat would be.)
func (s *Service) OpenVariant(ctx context.Context, p *catalog.Principal, id, name string) (*catalog.Asset, blob.File, string, error) {
	if !variantNames[name] && name != "poster" {
		return nil, nil, "", catalog.InvalidField("enum", "variant must be thumbnail, preview, fullsize or, for a video, poster", name, "path", "name")
	}
	a, err := s.Get(ctx, p, id)
	if err != nil {
		return nil, nil, "", err
	}
	if name == "poster" {
		return s.openPoster(a)
	}
	if a.MediaType != catalog.MediaImage {
		return nil, nil, "", fmt.Errorf("videos have no %s rendering, only the original: %w", name, catalog.ErrNotFound)
	}
	for _, ext := range []string{".webp", ".jpg"} {
		f, err := s.blobs.Open(VariantKey(a.ID, name, ext))
		if err == nil {
			mime := "image/webp"
			if ext == ".jpg" {
				mime = "image/jpeg"
			}
			return a, f, mime, nil
		}
		if !errors.Is(err, catalog.ErrNotFound) {
			return nil, nil, "", err
		}
	}
	if name == "fullsize" && browserFormats[a.MIMEType] {
		// The pipeline stores a fullsize only for formats browsers cannot
		// show (HEIC, RAW, TIFF); for the others it is the original.
		f, err := s.blobs.Open(catalog.OriginalKey(a.ID))
		if err != nil {
			return nil, nil, "", err
		}
		return a, f, a.MIMEType, nil
	}
	return nil, nil, "", fmt.Errorf("the %s of asset %s has not been generated yet: %w", name, a.ID, catalog.ErrNotFound)
}

// browserFormats are the image types a browser shows as they are.
var browserFormats = map[string]bool{"image/jpeg": true, "image/png": true, "image/webp": true,
	"image/gif": true, "image/avif": true}

// openPoster opens a video's poster frame (a JPEG the variants step takes
// from the video), the image a player shows before it plays.
func (s *Service) openPoster(a *catalog.Asset) (*catalog.Asset, blob.File, string, error) {
	if a.MediaType != catalog.MediaVideo {
		return nil, nil, "", fmt.Errorf("only videos have a poster: %w", catalog.ErrNotFound)
	}
	f, err := s.blobs.Open(VariantKey(a.ID, "poster", ".jpg"))
	if errors.Is(err, catalog.ErrNotFound) {
		return nil, nil, "", fmt.Errorf("the poster of video %s has not been generated yet: %w", a.ID, err)
	}
	if err != nil {
		return nil, nil, "", err
	}
	return a, f, "image/jpeg", nil
}
