package assets

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"strings"
	"time"

	"github.com/photoctl/photoctl/server/albums"
	"github.com/photoctl/photoctl/server/catalog"
	"github.com/photoctl/photoctl/server/people"
	"github.com/photoctl/photoctl/server/stacks"
	"github.com/photoctl/photoctl/server/store"
)

// checkIDs validates a bulk id list.
func checkIDs(ids []string) error {
	if len(ids) == 0 {
		return catalog.InvalidField("too_short", "ids must hold at least 1 asset id", ids, "body", "ids")
	}
	if len(ids) > catalog.MaxIDs {
		return &catalog.ValidationError{Fields: []catalog.FieldError{{Loc: []any{"body", "ids"},
			Msg: "ids may hold at most 100 asset ids", Type: "too_long", Ctx: map[string]any{"max_length": catalog.MaxIDs}}}}
	}
	for i, id := range ids {
		if !catalog.HasPrefix(id, catalog.PrefixAsset) {
			return catalog.InvalidField("value_error", "not an asset id", id, "body", "ids", i)
		}
	}
	return nil
}

// forEach loads the named assets for an operation needing n, inside r. An
// id that is unknown or outside the caller's reach fails the whole batch
// with a 422 at its position (loc(i) names it); a role that does not allow
// the operation is a 403.
func (s *Service) forEach(ctx context.Context, r store.Repos, p *catalog.Principal, ids []string, n need, what string, loc func(i int) []any) ([]*catalog.Asset, error) {
	out := make([]*catalog.Asset, 0, len(ids))
	seen := map[string]bool{}
	for i, id := range ids {
		if seen[id] {
			continue
		}
		seen[id] = true
		a, _, err := s.asset(ctx, r, p, id, n, what)
		if errors.Is(err, catalog.ErrNotFound) {
			return nil, catalog.InvalidField("value_error", "no asset with this id that you can reach", id, loc(i)...)
		}
		if err != nil {
			return nil, err
		}
		out = append(out, a)
	}
	return out, nil
}

func idsLoc(i int) []any { return []any{"body", "ids", i} }

// Trash moves assets to the trash (idempotent for assets already there).
func (s *Service) Trash(ctx context.Context, p *catalog.Principal, ids []string) error {
	return s.setTrashed(ctx, p, "", ids, true)
}

// Restore brings assets back from the trash.
func (s *Service) Restore(ctx context.Context, p *catalog.Principal, ids []string) error {
	return s.setTrashed(ctx, p, "", ids, false)
}

func (s *Service) setTrashed(ctx context.Context, p *catalog.Principal, libraryID string, ids []string, trash bool) error {
	if err := checkIDs(ids); err != nil {
		return err
	}
	what, typ := "restoring", "asset.restored"
	if trash {
		what, typ = "trashing", "asset.trashed"
	}
	return s.store.InLibraryTx(ctx, s.assetsLibrary(ctx, ids), func(r store.Repos) error {
		list, err := s.forEachIn(ctx, r, p, libraryID, ids, needWrite, what)
		if err != nil {
			return err
		}
		now := s.now().UTC()
		var at *time.Time
		if trash {
			at = &now
		}
		var changed []string
		for _, a := range list {
			if (a.TrashedAt != nil) == trash {
				continue
			}
			changed = append(changed, a.ID)
			if err := event(ctx, r, typ, a, map[string]any{"trashed_at": at}, now); err != nil {
				return err
			}
		}
		if len(changed) == 0 {
			return nil
		}
		if err := r.Assets().SetTrashed(ctx, changed, at, now); err != nil {
			return err
		}
		// Album links follow by trigger; a stack keeps a live cover.
		return stacks.Resettle(ctx, r, stacks.StackIDs(list), false, now)
	})
}

// Delete removes assets permanently: rows, files and every link. Only the
// library's owner may. The files' keys are journaled in the same
// transaction as the rows, so a crash after it still removes them on start.
func (s *Service) Delete(ctx context.Context, p *catalog.Principal, ids []string) ([]string, error) {
	return s.DeleteIn(ctx, p, "", ids)
}

// DeleteIn is Delete of assets that must all be in library libraryID
// ("" for any the caller reaches; see forEachIn).
func (s *Service) DeleteIn(ctx context.Context, p *catalog.Principal, libraryID string, ids []string) ([]string, error) {
	if err := checkIDs(ids); err != nil {
		return nil, err
	}
	var deleted []string
	err := s.store.InLibraryTx(ctx, s.assetsLibrary(ctx, ids), func(r store.Repos) error {
		list, err := s.forEachIn(ctx, r, p, libraryID, ids, needOwner, "permanent deletion")
		if err != nil {
			return err
		}
		deleted, err = s.remove(ctx, r, list)
		return err
	})
	if err != nil {
		return nil, err
	}
	s.DrainJournal(ctx)
	return deleted, nil
}

// remove deletes assets' rows, credits the owners' storage, journals the
// files and writes the events, inside r.
func (s *Service) remove(ctx context.Context, r store.Repos, list []*catalog.Asset) ([]string, error) {
	now := s.now().UTC()
	ids := make([]string, len(list))
	keys := make([]string, 0, len(list))
	for i, a := range list {
		ids[i] = a.ID
		// The video poster lives among the variants.
		keys = append(keys, catalog.OriginalKey(a.ID), variantsPrefix(a.ID), SidecarKey(a.ID))
		verKeys, verSize, err := versionFiles(ctx, r, a.ID) // their rows go with the asset's (cascade)
		if err != nil {
			return nil, err
		}
		keys = append(keys, verKeys...)
		lib, err := r.Libraries().Get(ctx, a.LibraryID)
		if err != nil {
			return nil, err
		}
		if err := r.Storage().Add(ctx, lib.OwnerID, -a.OriginalSize-verSize); err != nil {
			return nil, err
		}
		if err := event(ctx, r, "asset.deleted", a, map[string]any{}, now); err != nil {
			return nil, err
		}
	}
	if err := r.BlobJournal().Add(ctx, keys, now); err != nil {
		return nil, err
	}
	if err := albums.AssetsDeleted(ctx, r, ids, now); err != nil {
		return nil, err
	}
	if err := people.RemoveAssetFaces(ctx, r, ids, now); err != nil {
		return nil, err
	}
	if err := r.Assets().Delete(ctx, ids); err != nil {
		return nil, err
	}
	return ids, stacks.Resettle(ctx, r, stacks.StackIDs(list), true, now)
}

// DrainJournal removes the files of deleted assets and forgets them. A key
// may name one blob or a folder of them (an asset's variants). It is
// idempotent and runs after every deletion and on start.
func (s *Service) DrainJournal(ctx context.Context) {
	for {
		keys, err := s.store.Read().BlobJournal().List(ctx, 500)
		if err != nil || len(keys) == 0 {
			if err != nil {
				slog.Default().ErrorContext(ctx, "read blob journal", "err", err)
			}
			return
		}
		var done []string
		for _, k := range keys {
			if err := s.blobs.RemoveAll(k); err != nil {
				slog.Default().ErrorContext(ctx, "remove blob", "key", k, "err", err)
				continue
			}
			done = append(done, k)
		}
		if len(done) == 0 {
			return
		}
		if err := s.store.InTx(ctx, func(r store.Repos) error { return r.BlobJournal().Remove(ctx, done) }); err != nil {
			slog.Default().ErrorContext(ctx, "forget removed blobs", "err", err)
			return
		}
	}
}

// PurgeTrash permanently deletes assets trashed longer than the retention
// window, in batches. It returns how many it removed.
func (s *Service) PurgeTrash(ctx context.Context) (int, error) {
	if s.cfg.TrashRetention <= 0 {
		return 0, nil
	}
	n, err := s.removeBatches(ctx, func(r store.Repos) ([]catalog.Asset, error) {
		ids, err := r.Assets().TrashedBefore(ctx, s.now().Add(-s.cfg.TrashRetention), catalog.MaxIDs)
		if err != nil || len(ids) == 0 {
			return nil, err
		}
		return r.Assets().GetMany(ctx, ids)
	})
	if err != nil {
		return n, fmt.Errorf("purge trash: %w", err)
	}
	return n, nil
}

// removeBatches deletes for good, one transaction a batch, the assets
// that next returns (at most catalog.MaxIDs) until it returns none, then
// drains the blob journal. It returns how many it removed.
func (s *Service) removeBatches(ctx context.Context, next func(store.Repos) ([]catalog.Asset, error)) (int, error) {
	defer s.DrainJournal(ctx)
	total := 0
	for {
		var n int
		err := s.store.InTx(ctx, func(r store.Repos) error {
			list, err := next(r)
			if err != nil || len(list) == 0 {
				return err
			}
			ptrs := make([]*catalog.Asset, len(list))
			for i := range list {
				ptrs[i] = &list[i]
			}
			removed, err := s.remove(ctx, r, ptrs)
			n = len(removed)
			return err
		})
		total += n
		if err != nil || n == 0 {
			return total, err
		}
	}
}

// SweepOrphans removes originals and XMP sidecars that no asset row refers
// to (left by a crash between a file's rename and its row's commit) when
// they are older than minAge, so an upload in flight in another process is
// never touched. It looks the files up a batch at a time (one indexed
// query per sweepBatch) and reads the directories a chunk at a time, so
// neither its time nor its memory is one query or one entry held per asset.
func (s *Service) SweepOrphans(ctx context.Context, minAge time.Duration) (int, error) {
	total := 0
	for _, dir := range []struct{ prefix, suffix string }{{"originals/", ""}, {"sidecars/", ".xmp"}} {
		n, err := s.sweep(strings.TrimSuffix(dir.prefix, "/"), minAge, func(keys []string) (map[string]bool, error) {
			ids := make([]string, len(keys))
			for i, key := range keys {
				ids[i] = strings.TrimSuffix(strings.TrimPrefix(key, dir.prefix), dir.suffix)
			}
			found, err := s.store.Read().Assets().Existing(ctx, ids)
			if err != nil {
				return nil, err
			}
			named := make(map[string]bool, len(found))
			for _, id := range found {
				named[dir.prefix+id+dir.suffix] = true
			}
			return named, nil
		})
		total += n
		if err != nil {
			return total, err
		}
	}
	return total, nil
}

// SweepVersionOrphans removes version files no row names (a crash between
// a file's rename and its row's commit leaves one) older than minAge, which
// spares another process's write in flight. Run it beside SweepOrphans.
func (s *Service) SweepVersionOrphans(ctx context.Context, minAge time.Duration) (int, error) {
	// Versions are few (an asset's edits): one lookup each.
	return s.sweep("versions", minAge, func(keys []string) (map[string]bool, error) {
		named := make(map[string]bool, len(keys))
		for _, key := range keys {
			parts := strings.Split(key, "/") // versions/<asset_id>/<version_id>[.<revision>]
			if len(parts) != 3 {
				named[key] = true // not a version file; left alone
				continue
			}
			id, _, _ := strings.Cut(parts[2], ".")
			v, err := s.store.Read().AssetVersions().Get(ctx, parts[1], id)
			switch {
			case errors.Is(err, catalog.ErrNotFound):
			case err != nil:
				return nil, err
			default:
				named[key] = versionKey(v.AssetID, v.ID, v.Revision) == key
			}
		}
		return named, nil
	})
}

// sweepBatch is how many files a sweep looks up at once.
const sweepBatch = 500

// sweep removes the files under prefix that no row names, when they are
// older than minAge. referenced reports which of a batch of keys rows name.
func (s *Service) sweep(prefix string, minAge time.Duration,
	referenced func(keys []string) (map[string]bool, error)) (int, error) {
	cutoff := s.now().Add(-minAge)
	removed := 0
	batch := make([]string, 0, sweepBatch)
	flush := func() error {
		named, err := referenced(batch)
		if err != nil {
			return err
		}
		for _, key := range batch {
			if named[key] {
				continue
			}
			info, err := s.blobs.Stat(key)
			if err != nil || info.ModTime().After(cutoff) {
				continue
			}
			if err := s.blobs.Remove(key); err != nil {
				return err
			}
			removed++
		}
		batch = batch[:0]
		return nil
	}
	err := s.blobs.Scan(prefix, func(key string, _ int64) error {
		if batch = append(batch, key); len(batch) < sweepBatch {
			return nil
		}
		return flush()
	})
	if err == nil && len(batch) > 0 {
		err = flush()
	}
	return removed, err
}
