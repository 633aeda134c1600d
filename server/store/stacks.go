package store

import (
	"context"

	"github.com/photoctl/photoctl/server/catalog"
	"github.com/photoctl/photoctl/server/query"
)

// Stacks stores stacks and their membership (the assets' stack_id), and
// derives what collapsed asset lists show (see catalog.Stack): the cover of
// a stack and its trashed members, never its other live members. It
// derives it from the members' trash state at each Create and Update, so a
// caller that trashes or restores members writes their stacks again in the
// same transaction (stacks.Resettle does). Every method is scoped by the
// ids it is given; callers check library access and the stack rules (at
// least two members, a cover among them) first.
type Stacks interface {
	// Create inserts s and makes s.AssetIDs its members. A member already in
	// another stack is ErrConflict, and nothing is written.
	Create(ctx context.Context, s *catalog.Stack) error
	// Get returns a stack with its members.
	Get(ctx context.Context, id string) (*catalog.Stack, error)
	// GetMany returns the stacks with these ids that exist, in any order.
	GetMany(ctx context.Context, ids []string) ([]catalog.Stack, error)
	// List pages the stacks matching f, newest first (by id).
	List(ctx context.Context, f query.StackFilter, p query.Page) ([]catalog.Stack, bool, error)
	// Update writes cover and updated_at and makes s.AssetIDs exactly the
	// members: assets leaving become unstacked. A new member already in
	// another stack is ErrConflict.
	Update(ctx context.Context, s *catalog.Stack) error
	// Delete unstacks every member and removes the stack.
	Delete(ctx context.Context, id string) error
}
