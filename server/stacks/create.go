package stacks

import (
	"context"
	"errors"
	"slices"

	"github.com/photoctl/photoctl/server/catalog"
	"github.com/photoctl/photoctl/server/store"
)

// CreateInput is a stack create request. LibraryLoc locates where the
// library id came from, for the selection rule's 422.
type CreateInput struct {
	LibraryID    string
	LibraryLoc   []any
	AssetIDs     []string
	CoverAssetID *string
}

// Create stacks at least two live assets of one library: the named one,
// else the library of the assets (see createLibrary). The cover must be
// one of them; by default it is the first listed.
func (s *Service) Create(ctx context.Context, p *catalog.Principal, in CreateInput) (*catalog.Stack, error) {
	if err := checkIDs(in.AssetIDs, catalog.MinStackAssets, "body", "asset_ids"); err != nil {
		return nil, err
	}
	cover := in.AssetIDs[0]
	if in.CoverAssetID != nil {
		if cover = *in.CoverAssetID; !slices.Contains(in.AssetIDs, cover) {
			return nil, catalog.InvalidField("value_error", "the cover must be one of asset_ids", cover, "body", "cover_asset_id")
		}
	}
	m, err := s.createLibrary(ctx, p, in)
	if err != nil {
		return nil, err
	}
	if err := m.RequireWrite("stacking"); err != nil {
		return nil, err
	}
	var out *catalog.Stack
	err = s.store.InLibraryTx(ctx, m.Library.ID, func(r store.Repos) error {
		members, err := joining(ctx, r, m.Library.ID, "", in.AssetIDs, false, "body", "asset_ids")
		if err != nil {
			return err
		}
		out, err = create(ctx, r, m.Library.ID, members, cover, catalog.StackManual, s.now)
		return err
	})
	return out, err
}

// createLibrary is the library of a new stack: the one named, else the
// one that holds the assets. Assets the caller cannot reach, or spread
// over several libraries, are a 422 at asset_ids.
func (s *Service) createLibrary(ctx context.Context, p *catalog.Principal, in CreateInput) (*catalog.Membership, error) {
	if in.LibraryID != "" {
		return s.libs.Select(ctx, p, in.LibraryID, in.LibraryLoc...)
	}
	r := s.store.Read()
	found, err := r.Assets().GetMany(ctx, in.AssetIDs)
	if err != nil {
		return nil, err
	}
	libOf := make(map[string]string, len(found))
	for _, a := range found {
		libOf[a.ID] = a.LibraryID
	}
	var m *catalog.Membership
	for i, id := range in.AssetIDs {
		lib, ok := libOf[id]
		if ok && m != nil && lib != m.Library.ID {
			return nil, catalog.InvalidField("value_error",
				"the assets are in different libraries; a stack's assets are in one", id, "body", "asset_ids", i)
		}
		if ok && m == nil {
			m, err = s.libs.Reach(ctx, r, p, lib)
		}
		if !ok || errors.Is(err, catalog.ErrNotFound) || errors.Is(err, catalog.ErrForbidden) {
			return nil, catalog.InvalidField("value_error", "no asset with this id that you can reach", id,
				"body", "asset_ids", i)
		}
		if err != nil {
			return nil, err
		}
	}
	return m, nil
}
