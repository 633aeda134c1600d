package assets

// Asset versions: edited renderings of an asset. What the spec and
// decisions.md leave open is decided here (docs/api.md repeats it):
//
//   - The original is a version too, never a row: id "ver_" + the asset
//     id's ULID, is_original true, its file the original; always the last
//     item of the list, which runs newest first.
//   - assets.current_version_id names the current rendering (NULL: the
//     original); file_size_bytes is its size. checksum, mime_type, width,
//     height, metadata and /original keep describing the original. Every
//     change bumps the asset's updated_at.
//   - Append (201): upload size limit (413) and sniffing; the rendering
//     must be of the asset's media type (422). It becomes current. Never
//     deduplicated.
//   - Replace (200): new bytes, same id and created_at; updated_at and
//     contributor_id follow the bytes. Revert (200): makes a version or the
//     original current, newer ones stay; reverting to the current one
//     writes nothing. Delete (204): if it was current, the newest version
//     created before it becomes current, else the original. Replacing or
//     deleting the original is 409.
//   - Events: asset_version.created on append and replace (with "replaced":
//     true; clients upsert by resource_id), asset_version.deleted; both
//     name the version as resource_id, with the asset's asset_id,
//     is_current, current_version_id and file_size_bytes as data. Revert:
//     asset.updated with fields ["file_size_bytes"].
//   - Storage: the library owner is charged a version's bytes (507 over
//     quota) and the growth on replace (shrinking is never refused), and
//     credited on delete and on the asset's permanent deletion.
//   - Access: reads need viewer (key action asset.read), writes
//     collaborator or owner (asset.update). Trashed assets accept changes,
//     as metadata edits do. An unknown version, or another asset's, is 404.
//   - Files: versions/<asset_id>/<version_id>, plus ".<revision>" once
//     replaced, so a committed row's file is never overwritten. A new file
//     goes into place in the transaction, right before commit; files rows
//     stop naming are journaled in it. A crash leaves at worst an orphan,
//     which SweepVersionOrphans removes (call it from Recover).

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"path"
	"strconv"
	"strings"
	"time"

	"github.com/photoctl/photoctl/ingest/sniff"
	"github.com/photoctl/photoctl/server/blob"
	"github.com/photoctl/photoctl/server/catalog"
	"github.com/photoctl/photoctl/server/query"
	"github.com/photoctl/photoctl/server/store"
)

// Version is one rendering of an asset as the API shows it.
type Version struct {
	store.AssetVersion
	IsOriginal, IsCurrent bool
}

// OriginalVersionID is the id under which the original of asset assetID
// shows as a version.
func OriginalVersionID(assetID string) string {
	return catalog.PrefixVersion + strings.TrimPrefix(assetID, catalog.PrefixAsset)
}

// versionKey is the blob key of a version's bytes at a revision.
func versionKey(assetID, versionID string, revision int) string {
	key := "versions/" + assetID + "/" + versionID
	if revision > 0 {
		key += "." + strconv.Itoa(revision)
	}
	return key
}

func originalVersion(a *catalog.Asset) Version {
	return Version{AssetVersion: store.AssetVersion{ID: OriginalVersionID(a.ID), AssetID: a.ID,
		ContributorID: a.ContributorID, MIMEType: a.MIMEType, FileName: a.OriginalFileName, Size: a.OriginalSize,
		Checksum: a.Checksum, CreatedAt: a.CreatedAt, UpdatedAt: a.CreatedAt},
		IsOriginal: true, IsCurrent: a.CurrentVersionID == nil}
}

func versionOf(a *catalog.Asset, v *store.AssetVersion) Version {
	return Version{AssetVersion: *v, IsCurrent: a.CurrentVersionID != nil && *a.CurrentVersionID == v.ID}
}

// currentID is the id of the asset's current rendering.
func currentID(a *catalog.Asset) string {
	if a.CurrentVersionID != nil {
		return *a.CurrentVersionID
	}
	return OriginalVersionID(a.ID)
}

// ListVersions pages an asset's versions newest first; the original comes last.
func (s *Service) ListVersions(ctx context.Context, p *catalog.Principal, assetID string, pg query.Page) ([]Version, bool, error) {
	r := s.store.Read()
	a, _, err := s.asset(ctx, r, p, assetID, needRead, "reading versions")
	if err != nil {
		return nil, false, err
	}
	if pg.AfterID == OriginalVersionID(a.ID) {
		return []Version{}, false, nil
	}
	rows, more, err := r.AssetVersions().List(ctx, a.ID, pg)
	if err != nil {
		return nil, false, err
	}
	out := make([]Version, 0, len(rows)+1)
	for i := range rows {
		out = append(out, versionOf(a, &rows[i]))
	}
	if !more && len(out) < pg.Limit {
		out = append(out, originalVersion(a))
	} else {
		more = true // the original is still to come
	}
	return out, more, nil
}

// AppendVersion stores a fully received rendering (from StartUpload) as
// the asset's new current version. The writer is committed or aborted.
func (s *Service) AppendVersion(ctx context.Context, p *catalog.Principal, assetID string, w *blob.Writer, fileName string) (*Version, error) {
	var out Version
	err := s.inTxCommitting(ctx, assetID, w, func(r store.Repos) (string, error) {
		a, m, err := s.asset(ctx, r, p, assetID, needWrite, "adding a version")
		if err != nil {
			return "", err
		}
		now := s.now().UTC().Truncate(time.Microsecond) // as stored
		v := &store.AssetVersion{ID: catalog.NewID(catalog.PrefixVersion, now), AssetID: a.ID, CreatedAt: now}
		if err := takeBytes(v, p, a, w, fileName, now); err != nil {
			return "", err
		}
		if err := s.charge(ctx, r, m.Library.OwnerID, v.Size); err != nil {
			return "", err
		}
		if err := r.AssetVersions().Create(ctx, v); err != nil {
			return "", err
		}
		a.CurrentVersionID, a.FileSizeBytes = &v.ID, v.Size
		if err := saveVersionChange(ctx, r, a, "asset_version.created", v.ID, nil, now); err != nil {
			return "", err
		}
		out = versionOf(a, v)
		return versionKey(a.ID, v.ID, v.Revision), nil
	})
	if err != nil {
		return nil, err
	}
	return &out, nil
}

// ReplaceVersion stores new bytes for an existing version (not the
// original) and charges or credits the size difference.
func (s *Service) ReplaceVersion(ctx context.Context, p *catalog.Principal, assetID, versionID string, w *blob.Writer, fileName string) (*Version, error) {
	var out Version
	err := s.inTxCommitting(ctx, assetID, w, func(r store.Repos) (string, error) {
		a, m, v, err := s.editableVersion(ctx, r, p, assetID, versionID, "replacing a version")
		if err != nil {
			return "", err
		}
		now := s.now().UTC().Truncate(time.Microsecond) // as stored
		old, delta := versionKey(a.ID, v.ID, v.Revision), w.Size()-v.Size
		if err := takeBytes(v, p, a, w, fileName, now); err != nil {
			return "", err
		}
		v.Revision++
		if delta > 0 {
			err = s.charge(ctx, r, m.Library.OwnerID, delta)
		} else {
			err = r.Storage().Add(ctx, m.Library.OwnerID, delta) // shrinking is never refused
		}
		if err != nil {
			return "", err
		}
		if err := r.AssetVersions().Update(ctx, v); err != nil {
			return "", err
		}
		if err := r.BlobJournal().Add(ctx, []string{old}, now); err != nil {
			return "", err
		}
		if currentID(a) == v.ID {
			a.FileSizeBytes = v.Size
		}
		if err := saveVersionChange(ctx, r, a, "asset_version.created", v.ID, map[string]any{"replaced": true}, now); err != nil {
			return "", err
		}
		out = versionOf(a, v)
		return versionKey(a.ID, v.ID, v.Revision), nil
	})
	if err != nil {
		return nil, err
	}
	s.DrainJournal(ctx)
	return &out, nil
}

// inTxCommitting runs fn in a write transaction of asset assetID's library
// that ends by moving w's file into place at the key fn returns: the file
// is there before the rows commit, and is removed again if the commit
// fails. w is always finished.
func (s *Service) inTxCommitting(ctx context.Context, assetID string, w *blob.Writer,
	fn func(store.Repos) (string, error)) error {
	defer w.Abort() // a no-op once committed
	// The flush, the slow part, happens before the write locks are taken;
	// inside, the commit only renames.
	if err := w.Sync(); err != nil {
		return err
	}
	var key string
	err := s.store.InLibraryTx(ctx, s.assetsLibrary(ctx, []string{assetID}), func(r store.Repos) (err error) {
		if key, err = fn(r); err != nil {
			return err
		}
		return w.Commit(key)
	})
	if err != nil && key != "" {
		_ = s.blobs.Remove(key)
	}
	return err
}

// RevertVersion makes a version, or the original, the current rendering.
func (s *Service) RevertVersion(ctx context.Context, p *catalog.Principal, assetID, versionID string) (*Version, error) {
	var out Version
	err := s.store.InLibraryTx(ctx, s.assetsLibrary(ctx, []string{assetID}), func(r store.Repos) error {
		a, _, err := s.asset(ctx, r, p, assetID, needWrite, "reverting to a version")
		if err != nil {
			return err
		}
		if out = originalVersion(a); versionID != out.ID {
			v, err := r.AssetVersions().Get(ctx, a.ID, versionID)
			if err != nil {
				return err
			}
			out, a.CurrentVersionID = versionOf(a, v), &v.ID
		} else {
			a.CurrentVersionID = nil
		}
		if out.IsCurrent {
			return nil
		}
		now := s.now().UTC().Truncate(time.Microsecond) // as stored
		a.FileSizeBytes, a.UpdatedAt, out.IsCurrent = out.Size, now, true
		if err := r.Assets().Update(ctx, a); err != nil {
			return err
		}
		return event(ctx, r, "asset.updated", a, map[string]any{"fields": []string{"file_size_bytes"},
			"current_version_id": out.ID}, now)
	})
	if err != nil {
		return nil, err
	}
	return &out, nil
}

// DeleteVersion deletes a version (not the original), frees its bytes and
// removes its file; when it was current, the version before it (or the
// original) becomes current.
func (s *Service) DeleteVersion(ctx context.Context, p *catalog.Principal, assetID, versionID string) error {
	err := s.store.InLibraryTx(ctx, s.assetsLibrary(ctx, []string{assetID}), func(r store.Repos) error {
		a, m, v, err := s.editableVersion(ctx, r, p, assetID, versionID, "deleting a version")
		if err != nil {
			return err
		}
		now := s.now().UTC().Truncate(time.Microsecond) // as stored
		if err := r.AssetVersions().Delete(ctx, a.ID, v.ID); err != nil {
			return err
		}
		if err := r.Storage().Add(ctx, m.Library.OwnerID, -v.Size); err != nil {
			return err
		}
		if err := r.BlobJournal().Add(ctx, []string{versionKey(a.ID, v.ID, v.Revision)}, now); err != nil {
			return err
		}
		if currentID(a) == v.ID {
			a.CurrentVersionID, a.FileSizeBytes = nil, a.OriginalSize
			prev, err := r.AssetVersions().Previous(ctx, a.ID, v.ID)
			if err == nil {
				a.CurrentVersionID, a.FileSizeBytes = &prev.ID, prev.Size
			} else if !errors.Is(err, catalog.ErrNotFound) {
				return err
			}
		}
		return saveVersionChange(ctx, r, a, "asset_version.deleted", v.ID, nil, now)
	})
	if err == nil {
		s.DrainJournal(ctx)
	}
	return err
}

// FindVersion finds the file of a version of an asset the caller can see
// (see Download).
func (s *Service) FindVersion(ctx context.Context, p *catalog.Principal, assetID, versionID string) (*Version, Download, error) {
	r := s.store.Read()
	a, _, err := s.asset(ctx, r, p, assetID, needRead, "reading versions")
	if err != nil {
		return nil, Download{}, err
	}
	v, key := originalVersion(a), catalog.OriginalKey(a.ID)
	if versionID != v.ID {
		row, err := r.AssetVersions().Get(ctx, a.ID, versionID)
		if err != nil {
			return nil, Download{}, err
		}
		v, key = versionOf(a, row), versionKey(a.ID, row.ID, row.Revision)
	}
	return &v, Download{Asset: a, Key: key, MIME: v.MIMEType, blobs: s.blobs}, nil
}

// editableVersion loads a version the caller may change; the original is
// a 409, since it is never replaced or deleted.
func (s *Service) editableVersion(ctx context.Context, r store.Repos, p *catalog.Principal, assetID, versionID, what string) (*catalog.Asset, *catalog.Membership, *store.AssetVersion, error) {
	a, m, err := s.asset(ctx, r, p, assetID, needWrite, what)
	if err != nil {
		return nil, nil, nil, err
	}
	if versionID == OriginalVersionID(a.ID) {
		return nil, nil, nil, fmt.Errorf("%s: the original is kept as uploaded; append a version instead: %w", what, catalog.ErrConflict)
	}
	v, err := r.AssetVersions().Get(ctx, a.ID, versionID)
	return a, m, v, err
}

// takeBytes checks received bytes (not empty; a supported format of the
// asset's media type) and sets what the version takes from them.
func takeBytes(v *store.AssetVersion, p *catalog.Principal, a *catalog.Asset, w *blob.Writer, fileName string, now time.Time) error {
	kind, ok := sniff.Detect(w.Head(), fileName)
	switch {
	case w.Size() == 0:
		return catalog.InvalidField("value_error", "the file is empty", nil, "body", "file")
	case !ok || catalog.MediaType(kind.Kind) != a.MediaType:
		return catalog.InvalidField("value_error",
			fmt.Sprintf("a version of this asset must be a supported %s file", a.MediaType), fileName, "body", "file")
	}
	if fileName == "" {
		fileName = strings.TrimSuffix(a.OriginalFileName, path.Ext(a.OriginalFileName)) + kind.Ext
	}
	v.ContributorID, v.MIMEType, v.FileName = p.User.ID, kind.MIME, fileName
	v.Size, v.Checksum, v.UpdatedAt = w.Size(), w.SHA256(), now
	return nil
}

// saveVersionChange writes the asset after a change to its versions (its
// updated_at bumped) and the asset_version event naming the version.
func saveVersionChange(ctx context.Context, r store.Repos, a *catalog.Asset, typ, versionID string, extra map[string]any, now time.Time) error {
	a.UpdatedAt = now
	if err := r.Assets().Update(ctx, a); err != nil {
		return err
	}
	data := map[string]any{"asset_id": a.ID, "is_current": currentID(a) == versionID,
		"current_version_id": currentID(a), "file_size_bytes": a.FileSizeBytes}
	maps.Copy(data, extra)
	body, err := json.Marshal(data)
	if err != nil {
		return err
	}
	return r.Events().Append(ctx, &catalog.Event{ID: catalog.NewID(catalog.PrefixEvent, now), Type: typ,
		LibraryID: a.LibraryID, ResourceID: versionID, Data: body, CreatedAt: now})
}

// versionFiles returns, for an asset's permanent deletion, the journal key
// of its version files (their folder, strays included) and their bytes.
func versionFiles(ctx context.Context, r store.Repos, assetID string) ([]string, int64, error) {
	list, err := r.AssetVersions().All(ctx, assetID)
	if err != nil {
		return nil, 0, err
	}
	var size int64
	for _, v := range list {
		size += v.Size
	}
	return []string{"versions/" + assetID}, size, nil
}
