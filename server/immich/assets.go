package immich

import (
	"context"
	"fmt"

	"github.com/photoctl/photoctl/server/albums"
	"github.com/photoctl/photoctl/server/catalog"
	"github.com/photoctl/photoctl/server/query"
	"github.com/photoctl/photoctl/server/store"
)

// Asset reads one asset of the layer's library, trashed or not; an asset
// of another library is not found here.
func (s *Service) Asset(ctx context.Context, p *catalog.Principal, id string) (*catalog.Asset, error) {
	m, err := s.Library(ctx, p)
	if err != nil {
		return nil, err
	}
	a, err := s.store.Read().Assets().Get(ctx, id)
	if err == nil && a.LibraryID != m.Library.ID {
		err = fmt.Errorf("asset %s is not in the library of the Immich layer: %w", id, catalog.ErrNotFound)
	}
	return a, err
}

// CheckDeletable checks, before a native trash or (force) permanent
// deletion of several batches, that the caller's role allows it (the
// library's owner alone deletes for good: 403) and that every id names an
// asset of the layer's library, trashed or not (Immich's 400, at its
// position under field), so that no batch is changed when one would fail.
func (s *Service) CheckDeletable(ctx context.Context, p *catalog.Principal, ids []string, force bool, field string) error {
	m, err := s.Library(ctx, p)
	if err != nil {
		return err
	}
	if force {
		err = m.RequireOwner("permanent deletion")
	} else {
		err = m.RequireWrite("trashing")
	}
	if err != nil {
		return err
	}
	in := make(map[string]bool, len(ids))
	for start := 0; start < len(ids); start += catalog.MaxIDs {
		found, err := s.store.Read().Assets().GetMany(ctx, ids[start:min(start+catalog.MaxIDs, len(ids))])
		if err != nil {
			return err
		}
		for _, a := range found {
			in[a.ID] = a.LibraryID == m.Library.ID
		}
	}
	for i, id := range ids {
		if !in[id] {
			return catalog.InvalidField("value_error", "no asset with this id in the library of the Immich layer",
				id, "body", field, i)
		}
	}
	return nil
}

// Copy carries what photoctl keeps of an asset onto another of the layer's
// library (Immich's PUT /api/assets/copy, which immich-go calls before it
// deletes a smaller copy it replaced): with albums (Immich's default), the
// target joins the source's albums through the native service; the
// source's tags always follow, so that deleting the source loses none.
// Favourites, shared links, stacks and sidecars have no counterpart to
// copy and are ignored. Both must be live; it needs the collaborator or
// owner role.
func (s *Service) Copy(ctx context.Context, p *catalog.Principal, req CopyAssetRequest) error {
	if err := CheckID(catalog.PrefixAsset, req.SourceID, "body", "sourceId"); err != nil {
		return err
	}
	if err := CheckID(catalog.PrefixAsset, req.TargetID, "body", "targetId"); err != nil {
		return err
	}
	m, err := s.writable(ctx, p, "copying asset metadata")
	if err != nil {
		return err
	}
	live, err := s.liveAssets(ctx, m, []string{req.SourceID, req.TargetID})
	if err != nil {
		return err
	}
	for _, f := range []struct{ id, name string }{{req.SourceID, "sourceId"}, {req.TargetID, "targetId"}} {
		if !live[f.id] {
			return catalog.InvalidField("value_error", "no live asset with this id in the library of the Immich layer",
				f.id, "body", f.name)
		}
	}
	if req.SourceID == req.TargetID {
		return nil
	}
	if req.Albums == nil || *req.Albums {
		if err := s.copyAlbums(ctx, p, m, req.SourceID, req.TargetID); err != nil {
			return err
		}
	}
	tags, err := s.store.Read().Tags().ForAsset(ctx, req.SourceID)
	if err != nil || len(tags) == 0 {
		return err
	}
	return s.store.InLibraryTx(ctx, m.Library.ID, func(r store.Repos) error {
		for _, t := range tags {
			if _, err := r.Tags().Link(ctx, t.ID, []string{req.TargetID}, s.now().UTC()); err != nil {
				return err
			}
		}
		return nil
	})
}

// copyAlbums adds target to every album of m's library that shows source.
func (s *Service) copyAlbums(ctx context.Context, p *catalog.Principal, m *catalog.Membership, source, target string) error {
	pg := query.Page{Limit: listBatch}
	for {
		list, more, err := s.albums.List(ctx, p, albums.ListInput{LibraryID: m.Library.ID, AssetID: source}, pg)
		if err != nil {
			return err
		}
		for _, al := range list {
			if _, err := s.AddAssets(ctx, p, al.ID, []string{target}); err != nil {
				return err
			}
		}
		if !more {
			return nil
		}
		pg.AfterID = list[len(list)-1].ID
	}
}
