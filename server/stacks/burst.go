package stacks

import (
	"context"
	"fmt"
	"slices"
	"time"

	"github.com/photoctl/photoctl/server/catalog"
	"github.com/photoctl/photoctl/server/store"
)

// MergeAuto folds the automatic stacks mergeIDs into the automatic stack
// keepID, adds addIDs to it and, when coverID is not empty, makes that
// member its cover, inside the caller's transaction r: the burst detector
// calls it when a new shot bridges two bursts. Each folded stack is
// removed with its stack.deleted event, and its members join keepID (one
// stack.updated event). A stack a user made is ErrConflict, and nothing is
// written.
func (s *Service) MergeAuto(ctx context.Context, r store.Repos, keepID string, mergeIDs, addIDs []string, coverID string) (*catalog.Stack, error) {
	folded, err := r.Stacks().GetMany(ctx, mergeIDs)
	if err != nil {
		return nil, err
	}
	if len(folded) != len(unique(mergeIDs)) {
		return nil, fmt.Errorf("merge stacks %v: %w", mergeIDs, catalog.ErrNotFound)
	}
	add := slices.Clone(addIDs)
	for _, st := range folded {
		if st.Source != catalog.StackAuto || st.ID == keepID {
			return nil, fmt.Errorf("stack %s was made by a user or is the one kept; automatic stacking leaves it alone: %w",
				st.ID, catalog.ErrConflict)
		}
		add = append(add, st.AssetIDs...)
	}
	now := s.now().UTC()
	for i := range folded {
		if err := dissolve(ctx, r, &folded[i], now); err != nil {
			return nil, err
		}
	}
	return s.UpdateAuto(ctx, r, keepID, unique(add), coverID)
}

// leftAuto records, when st is an automatic stack, that a user took these
// of its members out of it, so that burst detection does not stack them
// again (store.Bursts.Exclude).
func leftAuto(ctx context.Context, r store.Repos, st *catalog.Stack, ids []string, now time.Time) error {
	if st.Source != catalog.StackAuto {
		return nil
	}
	var members []string
	for _, id := range ids {
		if slices.Contains(st.AssetIDs, id) {
			members = append(members, id)
		}
	}
	return r.Bursts().Exclude(ctx, members, now)
}

// DissolveAuto removes the automatic stack id inside the caller's
// transaction r, with its stack.deleted event: its members become
// ordinary assets again, free to join a burst. A stack a user made is
// ErrConflict, and nothing is written. Unlike a user's unstacking, it
// records no exclusion.
func (s *Service) DissolveAuto(ctx context.Context, r store.Repos, id string) error {
	st, err := r.Stacks().Get(ctx, id)
	if err != nil {
		return err
	}
	if st.Source != catalog.StackAuto {
		return fmt.Errorf("stack %s was made by a user; automatic stacking leaves it alone: %w", id, catalog.ErrConflict)
	}
	return dissolve(ctx, r, st, s.now().UTC())
}
