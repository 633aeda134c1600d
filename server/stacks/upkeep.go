package stacks

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"time"

	"github.com/photoctl/photoctl/server/catalog"
	"github.com/photoctl/photoctl/server/store"
)

// StackIDs lists the distinct stacks of assets, in first-seen order.
func StackIDs(list []*catalog.Asset) []string {
	var out []string
	for _, a := range list {
		if a.StackID != nil && !slices.Contains(out, *a.StackID) {
			out = append(out, *a.StackID)
		}
	}
	return out
}

// Resettle keeps stacks whole after some of their members were trashed,
// restored or deleted inside the caller's transaction r (the asset
// operation's): a trashed cover gives way to the earliest captured live
// member, the first member restored in a fully trashed stack becomes its
// cover, and a stack that deletion left with fewer than two members is
// dissolved. membersLeft says that members were deleted, so the stack
// changed even when its cover did not. Each change writes its stack event.
// Stacks that no longer exist are skipped.
func Resettle(ctx context.Context, r store.Repos, stackIDs []string, membersLeft bool, now time.Time) error {
	for _, id := range stackIDs {
		st, err := r.Stacks().Get(ctx, id)
		if errors.Is(err, catalog.ErrNotFound) {
			continue
		}
		if err != nil {
			return err
		}
		members, err := r.Assets().GetMany(ctx, st.AssetIDs)
		if err != nil {
			return err
		}
		if _, err := settle(ctx, r, st, members, "", membersLeft, now); err != nil {
			return err
		}
	}
	return nil
}

// InLibrary is a 404 unless stack id ("" passes) is in the library; asset
// lists filtered by a stack check it first.
func InLibrary(ctx context.Context, r store.Repos, id, libraryID string) error {
	if id == "" {
		return nil
	}
	st, err := r.Stacks().Get(ctx, id)
	if err == nil && st.LibraryID != libraryID {
		err = catalog.ErrNotFound
	}
	if errors.Is(err, catalog.ErrNotFound) {
		return fmt.Errorf("stack %s is not in this library: %w", id, catalog.ErrNotFound)
	}
	return err
}
