package stacks

import (
	"context"
	"fmt"
	"slices"
	"time"

	"github.com/photoctl/photoctl/server/catalog"
	"github.com/photoctl/photoctl/server/store"
)

// checkIDs validates a body list of asset ids at loc: at most 100 (at
// least min), each an asset id.
func checkIDs(list []string, min int, loc ...any) error {
	at := func(extra ...any) []any { return append(append([]any(nil), loc...), extra...) }
	if len(list) > catalog.MaxIDs {
		return &catalog.ValidationError{Fields: []catalog.FieldError{{Loc: at(), Msg: "name at most 100 assets",
			Type: "too_long", Ctx: map[string]any{"max_length": catalog.MaxIDs}}}}
	}
	for i, id := range list {
		if !catalog.HasPrefix(id, catalog.PrefixAsset) {
			return catalog.InvalidField("value_error", "not an asset id", id, at(i)...)
		}
	}
	if n := len(unique(list)); n < min {
		return &catalog.ValidationError{Fields: []catalog.FieldError{{Loc: at(), Input: list, Type: "too_short",
			Msg: fmt.Sprintf("a stack has at least %d different assets", min), Ctx: map[string]any{"min_length": min}}}}
	}
	return nil
}

func unique(list []string) []string {
	var out []string
	for _, id := range list {
		if !slices.Contains(out, id) {
			out = append(out, id)
		}
	}
	return out
}

// joining loads assets about to join stack stackID ("" for a new one) in
// library libraryID. An asset that is missing or of another library is a
// 422 at its position (loc), as is a trashed one unless trashedOK; an asset
// of another stack is a 409. Assets already in the stack are left out.
func joining(ctx context.Context, r store.Repos, libraryID, stackID string, list []string, trashedOK bool, loc ...any) ([]catalog.Asset, error) {
	found, err := r.Assets().GetMany(ctx, list)
	if err != nil {
		return nil, err
	}
	byID := make(map[string]catalog.Asset, len(found))
	for _, a := range found {
		byID[a.ID] = a
	}
	var out []catalog.Asset
	seen := make(map[string]bool, len(list))
	for i, id := range list {
		if seen[id] {
			continue // a repeated id joins once
		}
		seen[id] = true
		a, ok := byID[id]
		at := append(append([]any(nil), loc...), i)
		switch {
		case !ok || a.LibraryID != libraryID:
			return nil, catalog.InvalidField("value_error", "no asset with this id in the stack's library", id, at...)
		case a.StackID != nil && *a.StackID == stackID:
			continue
		case a.StackID != nil:
			return nil, fmt.Errorf("asset %s is already in stack %s; an asset is in at most one stack: %w",
				id, *a.StackID, catalog.ErrConflict)
		case a.TrashedAt != nil && !trashedOK:
			return nil, catalog.InvalidField("value_error", "the asset is in the trash; restore it first", id, at...)
		}
		out = append(out, a)
	}
	return out, nil
}

// create inserts a stack of members with its stack.created event.
func create(ctx context.Context, r store.Repos, libraryID string, members []catalog.Asset, cover string, source catalog.StackSource, now func() time.Time) (*catalog.Stack, error) {
	t := now().UTC()
	st := &catalog.Stack{ID: catalog.NewID(catalog.PrefixStack, t), LibraryID: libraryID,
		CoverAssetID: coverOf(members, cover), AssetIDs: ids(members), Source: source, CreatedAt: t, UpdatedAt: t}
	if err := r.Stacks().Create(ctx, st); err != nil {
		return nil, err
	}
	if err := event(ctx, r, "stack.created", st, t); err != nil {
		return nil, err
	}
	return r.Stacks().Get(ctx, st.ID) // as stored
}

// Change is a stack edit: a new cover, assets to add and assets to remove.
// Removed assets that are not members are ignored.
type Change struct {
	CoverAssetID *string
	Add, Remove  []string
}

// Update applies a change and returns the stack, or nil when the removals
// left fewer than two members and the stack was dissolved.
func (s *Service) Update(ctx context.Context, p *catalog.Principal, id string, ch Change) (*catalog.Stack, error) {
	if err := checkIDs(ch.Add, 0, "body", "add_asset_ids"); err != nil {
		return nil, err
	}
	if err := checkIDs(ch.Remove, 0, "body", "remove_asset_ids"); err != nil {
		return nil, err
	}
	for i, id := range ch.Remove {
		if slices.Contains(ch.Add, id) {
			return nil, catalog.InvalidField("value_error", "an asset cannot be both added and removed", id,
				"body", "remove_asset_ids", i)
		}
	}
	var out *catalog.Stack
	err := s.inStackTx(ctx, id, func(r store.Repos) error {
		st, err := s.stack(ctx, r, p, id, true, "changing stacks")
		if err != nil {
			return err
		}
		added, err := joining(ctx, r, st.LibraryID, st.ID, ch.Add, false, "body", "add_asset_ids")
		if err != nil {
			return err
		}
		current, err := r.Assets().GetMany(ctx, st.AssetIDs)
		if err != nil {
			return err
		}
		if err := leftAuto(ctx, r, st, ch.Remove, s.now().UTC()); err != nil {
			return err
		}
		members := slices.DeleteFunc(append(current, added...), func(a catalog.Asset) bool {
			return slices.Contains(ch.Remove, a.ID)
		})
		var cover string
		if ch.CoverAssetID != nil {
			i := slices.IndexFunc(members, func(a catalog.Asset) bool { return a.ID == *ch.CoverAssetID })
			if i < 0 || members[i].TrashedAt != nil {
				return catalog.InvalidField("value_error", "the cover must be a member of the stack that is not in the trash",
					*ch.CoverAssetID, "body", "cover_asset_id")
			}
			cover = *ch.CoverAssetID
		}
		kept, err := settle(ctx, r, st, members, cover, false, s.now().UTC())
		if err != nil || !kept {
			return err
		}
		out, err = r.Stacks().Get(ctx, st.ID) // as stored
		return err
	})
	return out, err
}

// CreateAuto makes an automatic stack (source auto) of assets of a library
// inside the caller's transaction r; it is what the burst detector calls.
// The cover must be one of the assets (it gives way to a live member while
// it is trashed). Trashed assets may join: trash does not change
// membership. An asset already in a stack is ErrConflict; an asset that is
// missing or of another library, fewer than two assets, or a cover outside
// them is a validation error. The members' metadata.auto_stack_id reads
// as the stack's id from then on (catalog.Asset.AutoStackID).
func (s *Service) CreateAuto(ctx context.Context, r store.Repos, libraryID string, assetIDs []string, coverID string) (*catalog.Stack, error) {
	if err := checkIDs(assetIDs, catalog.MinStackAssets, "asset_ids"); err != nil {
		return nil, err
	}
	if !slices.Contains(assetIDs, coverID) {
		return nil, catalog.InvalidField("value_error", "the cover must be one of the assets", coverID, "cover_asset_id")
	}
	members, err := joining(ctx, r, libraryID, "", assetIDs, true, "asset_ids")
	if err != nil {
		return nil, err
	}
	return create(ctx, r, libraryID, members, coverID, catalog.StackAuto, s.now)
}

// UpdateAuto adds assets to an automatic stack and, when coverID is not
// empty, makes that member its cover, inside the caller's transaction r
// (the burst detector's). Assets already in the stack are ignored. A stack
// a user made (source manual) is ErrConflict: the detector leaves it alone.
func (s *Service) UpdateAuto(ctx context.Context, r store.Repos, stackID string, addIDs []string, coverID string) (*catalog.Stack, error) {
	if err := checkIDs(addIDs, 0, "asset_ids"); err != nil {
		return nil, err
	}
	st, err := r.Stacks().Get(ctx, stackID)
	if err != nil {
		return nil, err
	}
	if st.Source != catalog.StackAuto {
		return nil, fmt.Errorf("stack %s was made by a user; automatic stacking leaves it alone: %w", stackID, catalog.ErrConflict)
	}
	added, err := joining(ctx, r, st.LibraryID, st.ID, addIDs, true, "asset_ids")
	if err != nil {
		return nil, err
	}
	current, err := r.Assets().GetMany(ctx, st.AssetIDs)
	if err != nil {
		return nil, err
	}
	members := append(current, added...)
	if coverID != "" && !slices.ContainsFunc(members, func(a catalog.Asset) bool { return a.ID == coverID }) {
		return nil, catalog.InvalidField("value_error", "the cover must be a member of the stack", coverID, "cover_asset_id")
	}
	if _, err := settle(ctx, r, st, members, coverID, false, s.now().UTC()); err != nil {
		return nil, err
	}
	return r.Stacks().Get(ctx, st.ID) // as stored
}
