package people

import (
	"context"
	"errors"
	"fmt"
	"io"
	"time"

	"github.com/photoctl/photoctl/server/catalog"
	"github.com/photoctl/photoctl/server/query"
	"github.com/photoctl/photoctl/server/store"
)

// FaceListInput is a face list request: the library (selection rule) and
// the store filter without it.
type FaceListInput struct {
	LibraryID string
	Filter    query.FaceFilter
}

// ListFaces pages the faces of the selected library, newest first.
func (s *Service) ListFaces(ctx context.Context, p *catalog.Principal, in FaceListInput, pg query.Page) ([]catalog.Face, bool, error) {
	f := in.Filter
	var err error
	if f.LibraryID, f.IDs, err = s.listScope(ctx, p, in.LibraryID, f.IDs, catalog.PrefixFace); err != nil {
		return nil, false, err
	}
	return s.store.Read().Faces().List(ctx, f, pg)
}

// FaceInput is a face drawn by a user.
type FaceInput struct {
	// LibraryID, when set, must be the asset's library.
	LibraryID   string
	AssetID     string
	Box         catalog.BoundingBox
	PersonID    *string
	TimestampMS *int64
}

// CreateFace records a manual face (source manual, no confidence) on an
// asset the caller may change, optionally assigned to a person of the same
// library. An unknown or unreachable asset or person is a 422 at its field.
func (s *Service) CreateFace(ctx context.Context, p *catalog.Principal, in FaceInput) (*catalog.Face, error) {
	if err := in.Box.Validate("body", "bounding_box"); err != nil {
		return nil, err
	}
	if in.TimestampMS != nil && *in.TimestampMS < 0 {
		return nil, catalog.InvalidField("greater_than_equal", "timestamp_ms must be at least 0", *in.TimestampMS,
			"body", "timestamp_ms")
	}
	var out *catalog.Face
	err := s.store.InLibraryTx(ctx, store.AssetsLibrary(ctx, s.store, in.AssetID), func(r store.Repos) error {
		a, err := r.Assets().Get(ctx, in.AssetID)
		if err == nil && in.LibraryID != "" && a.LibraryID != in.LibraryID {
			err = catalog.ErrNotFound
		}
		if err == nil {
			_, err = s.reach(ctx, r, p, a.LibraryID, "asset "+in.AssetID, true)
		}
		if errors.Is(err, catalog.ErrNotFound) {
			return catalog.InvalidField("value_error", "no asset with this id that you can reach", in.AssetID,
				"body", "asset_id")
		}
		if err != nil {
			return err
		}
		if in.TimestampMS != nil && a.MediaType != catalog.MediaVideo {
			return catalog.InvalidField("value_error", "timestamp_ms applies to faces in videos", *in.TimestampMS,
				"body", "timestamp_ms")
		}
		if in.PersonID != nil {
			pe, err := r.People().Get(ctx, *in.PersonID)
			if errors.Is(err, catalog.ErrNotFound) || err == nil && pe.LibraryID != a.LibraryID {
				return catalog.InvalidField("value_error", "no person with this id in the asset's library",
					*in.PersonID, "body", "person_id")
			}
			if err != nil {
				return err
			}
		}
		now := s.now().UTC()
		f := &catalog.Face{ID: catalog.NewID(catalog.PrefixFace, now), AssetID: a.ID, LibraryID: a.LibraryID,
			PersonID: in.PersonID, Box: in.Box, Source: catalog.FaceManual, TimestampMS: in.TimestampMS,
			CreatedAt: now, UpdatedAt: now}
		if err := r.Faces().Create(ctx, f); err != nil {
			return err
		}
		if err := appendEvent(ctx, r, "face.created", f.LibraryID, f.ID, map[string]any{"asset_id": f.AssetID,
			"person_id": f.PersonID, "source": f.Source}, now); err != nil {
			return err
		}
		if in.PersonID != nil {
			if _, err := s.verified(ctx, r, *in.PersonID); err != nil {
				return err
			}
		}
		if err := facesChanged(ctx, r, f.LibraryID, []*string{f.PersonID}, now); err != nil {
			return err
		}
		out, err = r.Faces().Get(ctx, f.ID)
		return err
	})
	return out, err
}

// DeleteFace removes a face the caller may change.
func (s *Service) DeleteFace(ctx context.Context, p *catalog.Principal, id string) error {
	lib := ""
	if f, err := s.store.Read().Faces().Get(ctx, id); err == nil {
		lib = f.LibraryID // a face's library is its asset's: never another
	}
	return s.store.InLibraryTx(ctx, lib, func(r store.Repos) error {
		f, err := s.face(ctx, r, p, id, true)
		if err != nil {
			return err
		}
		return removeFaces(ctx, r, []catalog.Face{*f}, s.now().UTC())
	})
}

// RemoveAssetFaces deletes the faces of assets about to be deleted, inside
// the caller's transaction, with their face.deleted events and a
// person.updated for each person who lost one.
func RemoveAssetFaces(ctx context.Context, r store.Repos, assetIDs []string, now time.Time) error {
	list, err := r.Faces().ForAssets(ctx, assetIDs)
	if err != nil {
		return err
	}
	return removeFaces(ctx, r, list, now)
}

// removeFaces deletes faces and writes their events.
func removeFaces(ctx context.Context, r store.Repos, list []catalog.Face, now time.Time) error {
	if len(list) == 0 {
		return nil
	}
	ids := make([]string, len(list))
	for i, f := range list {
		ids[i] = f.ID
	}
	if err := r.Faces().Delete(ctx, ids); err != nil {
		return err
	}
	byLibrary := map[string][]*string{}
	for _, f := range list {
		if err := appendEvent(ctx, r, "face.deleted", f.LibraryID, f.ID, map[string]any{"asset_id": f.AssetID,
			"person_id": f.PersonID}, now); err != nil {
			return err
		}
		byLibrary[f.LibraryID] = append(byLibrary[f.LibraryID], f.PersonID)
	}
	for lib, persons := range byLibrary {
		if err := facesChanged(ctx, r, lib, persons, now); err != nil {
			return err
		}
	}
	return nil
}

// OfAssets returns the faces and the people of assets the caller has
// already been allowed to read, keyed by asset id.
func (s *Service) OfAssets(ctx context.Context, assetIDs []string) (map[string][]catalog.Face, map[string][]catalog.Person, error) {
	r := s.store.Read()
	list, err := r.Faces().ForAssets(ctx, assetIDs)
	if err != nil {
		return nil, nil, err
	}
	faces := make(map[string][]catalog.Face, len(assetIDs))
	for _, f := range list {
		faces[f.AssetID] = append(faces[f.AssetID], f)
	}
	people, err := r.People().ForAssets(ctx, assetIDs)
	if err != nil {
		return nil, nil, err
	}
	return faces, people, nil
}

// FaceThumbnail is a face cut out of its asset's preview, rendered on
// demand. ETag changes when the preview does (a face's box never changes).
type FaceThumbnail struct {
	ETag    string
	face    *catalog.Face
	preview []byte
	crop    Cropper
}

// Render crops the face and returns the image and its MIME type.
func (t *FaceThumbnail) Render() ([]byte, string, error) {
	b := t.face.Box
	img, mime, err := t.crop(t.preview, b.X, b.Y, b.Width, b.Height)
	if err != nil {
		return nil, "", fmt.Errorf("crop face %s: %w", t.face.ID, err)
	}
	return img, mime, nil
}

// Thumbnail prepares the thumbnail of a face the caller can see. Before
// the asset's preview exists (and for videos, which have none), it is a
// 404 saying so.
func (s *Service) Thumbnail(ctx context.Context, p *catalog.Principal, id string) (*FaceThumbnail, error) {
	f, err := s.face(ctx, s.store.Read(), p, id, false)
	if err != nil {
		return nil, err
	}
	_, file, _, err := s.previews.OpenVariant(ctx, p, f.AssetID, "preview")
	if err != nil {
		return nil, fmt.Errorf("face %s has no thumbnail: %w", id, err)
	}
	defer file.Close()
	info, err := file.Stat()
	if err != nil {
		return nil, err
	}
	data, err := io.ReadAll(file)
	if err != nil {
		return nil, err
	}
	etag := fmt.Sprintf(`"%s-%x-%x"`, f.ID, info.Size(), info.ModTime().UnixNano())
	return &FaceThumbnail{ETag: etag, face: f, preview: data, crop: s.crop}, nil
}
