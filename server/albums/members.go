package albums

import (
	"context"
	"errors"
	"time"

	"github.com/photoctl/photoctl/server/catalog"
	"github.com/photoctl/photoctl/server/query"
	"github.com/photoctl/photoctl/server/store"
)

// checkAssetIDs validates a body list of 1 to 100 asset ids at loc.
func checkAssetIDs(ids []string, loc ...any) error {
	at := func(extra ...any) []any { return append(append([]any(nil), loc...), extra...) }
	if len(ids) == 0 {
		return catalog.InvalidField("too_short", "name at least 1 asset", ids, at()...)
	}
	if len(ids) > catalog.MaxIDs {
		return &catalog.ValidationError{Fields: []catalog.FieldError{{Loc: at(), Msg: "name at most 100 assets",
			Type: "too_long", Ctx: map[string]any{"max_length": catalog.MaxIDs}}}}
	}
	for i, id := range ids {
		if !catalog.HasPrefix(id, catalog.PrefixAsset) {
			return catalog.InvalidField("value_error", "not an asset id", id, at(i)...)
		}
	}
	return nil
}

// AddAssets links assets to an album and returns it. Every asset must be a
// live asset of the album's library (else a 422 at its position, and
// nothing is written); assets already in the album are left as they are.
func (s *Service) AddAssets(ctx context.Context, p *catalog.Principal, id string, assetIDs []string) (*catalog.Album, error) {
	if err := checkAssetIDs(assetIDs, "body", "asset_ids"); err != nil {
		return nil, err
	}
	var out *catalog.Album
	err := s.inAlbumTx(ctx, id, func(r store.Repos) error {
		a, err := s.album(ctx, r, p, id, true, "adding assets to albums")
		if err != nil {
			return err
		}
		existing, err := r.Albums().Links(ctx, a.ID, assetIDs)
		if err != nil {
			return err
		}
		skip := make(map[string]bool, len(existing))
		for _, l := range existing {
			skip[l.AssetID] = true
		}
		now := s.now().UTC()
		for i, assetID := range assetIDs {
			if skip[assetID] {
				continue
			}
			skip[assetID] = true
			asset, err := r.Assets().Get(ctx, assetID)
			switch {
			case errors.Is(err, catalog.ErrNotFound) || err == nil && asset.LibraryID != a.LibraryID:
				return catalog.InvalidField("value_error", "no asset with this id in the album's library", assetID,
					"body", "asset_ids", i)
			case err != nil:
				return err
			case asset.TrashedAt != nil:
				return catalog.InvalidField("value_error", "the asset is in the trash; restore it first", assetID,
					"body", "asset_ids", i)
			}
			l := &catalog.AlbumAsset{ID: catalog.NewID(catalog.PrefixAlbumAsset, now), AlbumID: a.ID,
				AssetID: assetID, LibraryID: a.LibraryID, CreatedAt: now, UpdatedAt: now}
			if err := r.Albums().AddLink(ctx, l); err != nil {
				return err
			}
			if err := linkEvent(ctx, r, "album_asset.created", l, now); err != nil {
				return err
			}
		}
		out, err = r.Albums().Get(ctx, a.ID)
		return err
	})
	return out, err
}

// RemoveAssets unlinks assets from an album and returns it. Assets that are
// not in the album are ignored, so a repeated removal changes nothing.
func (s *Service) RemoveAssets(ctx context.Context, p *catalog.Principal, id string, assetIDs []string) (*catalog.Album, error) {
	if err := checkAssetIDs(assetIDs, "body", "asset_ids"); err != nil {
		return nil, err
	}
	var out *catalog.Album
	err := s.inAlbumTx(ctx, id, func(r store.Repos) error {
		a, err := s.album(ctx, r, p, id, true, "removing assets from albums")
		if err != nil {
			return err
		}
		links, err := r.Albums().Links(ctx, a.ID, assetIDs)
		if err != nil {
			return err
		}
		if err := unlink(ctx, r, links, s.now().UTC()); err != nil {
			return err
		}
		out, err = r.Albums().Get(ctx, a.ID)
		return err
	})
	return out, err
}

// AssetsDeleted removes every album link of assets about to be deleted, with
// their album_asset.deleted events, inside the caller's transaction (the
// asset deletion's).
func AssetsDeleted(ctx context.Context, r store.Repos, assetIDs []string, now time.Time) error {
	links, err := r.Albums().LinksOfAssets(ctx, assetIDs)
	if err != nil {
		return err
	}
	return unlink(ctx, r, links, now)
}

// unlink deletes links and writes their events.
func unlink(ctx context.Context, r store.Repos, links []catalog.AlbumAsset, now time.Time) error {
	ids := make([]string, len(links))
	for i := range links {
		ids[i] = links[i].ID
		if err := linkEvent(ctx, r, "album_asset.deleted", &links[i], now); err != nil {
			return err
		}
	}
	return r.Albums().RemoveLinks(ctx, ids)
}

func linkEvent(ctx context.Context, r store.Repos, typ string, l *catalog.AlbumAsset, now time.Time) error {
	return event(ctx, r, typ, l.LibraryID, l.ID, map[string]string{"album_id": l.AlbumID, "asset_id": l.AssetID}, now)
}

// LinksInput is a request for album-asset links: the library (selection
// rule) and the filters.
type LinksInput struct {
	LibraryID string
	AlbumID   string
	AssetID   string
	IDs       []string
}

// ListLinks pages the album-asset links of the selected library, newest
// first; links of trashed assets are hidden until the asset is restored. An
// album or asset named in the filters that is not in the library is a 404.
func (s *Service) ListLinks(ctx context.Context, p *catalog.Principal, in LinksInput, pg query.Page) ([]catalog.AlbumAsset, bool, error) {
	if len(in.IDs) > catalog.MaxIDs {
		return nil, false, &catalog.ValidationError{Fields: []catalog.FieldError{{Loc: []any{"query", "ids"},
			Msg: "ids may name at most 100 album-asset links", Type: "too_long", Ctx: map[string]any{"max_length": catalog.MaxIDs}}}}
	}
	for i, id := range in.IDs {
		if !catalog.HasPrefix(id, catalog.PrefixAlbumAsset) {
			return nil, false, catalog.InvalidField("value_error", "not an album-asset id (album_asset_…)", id, "query", "ids", i)
		}
	}
	m, err := s.libs.Select(ctx, p, in.LibraryID, "query", "library_id")
	if err != nil {
		return nil, false, err
	}
	r := s.store.Read()
	if err := InLibrary(ctx, r, in.AlbumID, m.Library.ID); err != nil {
		return nil, false, err
	}
	if in.AssetID != "" {
		if err := assetInLibrary(ctx, r, in.AssetID, m.Library.ID); err != nil {
			return nil, false, err
		}
	}
	return r.Albums().ListLinks(ctx, query.AlbumAssetFilter{LibraryID: m.Library.ID, AlbumID: in.AlbumID,
		AssetID: in.AssetID, IDs: in.IDs}, pg)
}
