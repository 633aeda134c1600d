package store

import (
	"context"
	"time"

	"github.com/photoctl/photoctl/server/catalog"
	"github.com/photoctl/photoctl/server/query"
)

// Invitations stores library invitations and the accounts that redeemed
// them. Every read fills JoinerCount and CreatedBy.
type Invitations interface {
	// Create inserts an invitation; a token hash already in use is
	// ErrConflict.
	Create(ctx context.Context, inv *catalog.Invitation) error
	// Get returns an invitation by id, or ErrNotFound.
	Get(ctx context.Context, id string) (*catalog.Invitation, error)
	// GetByTokenHash returns the invitation whose token hashes to hash, or
	// ErrNotFound.
	GetByTokenHash(ctx context.Context, hash []byte) (*catalog.Invitation, error)
	// List pages a library's invitations, newest first.
	List(ctx context.Context, libraryID string, p query.Page) ([]catalog.Invitation, bool, error)
	// Disable sets disabled_at and updated_at to t unless the invitation is
	// already disabled (then nothing changes). ErrNotFound for an unknown id.
	Disable(ctx context.Context, id string, t time.Time) error
	// Redeemed reports whether userID has redeemed the invitation before.
	Redeemed(ctx context.Context, id, userID string) (bool, error)
	// Redeem records that userID redeemed the invitation at t. It counts
	// each account once: a repeat is ErrConflict and changes nothing.
	// Callers check the count and redeem in one transaction.
	Redeem(ctx context.Context, id, userID string, t time.Time) error
}

// MemberStore is the membership part of Libraries: current members only
// (departed ones are gone from here; invitations remember who redeemed
// them, and removals are recorded for the rejoin rule).
type MemberStore interface {
	// Members pages a library's current members, most recently joined
	// first (composite key: joined time, user id).
	Members(ctx context.Context, libraryID string, p query.Page) ([]catalog.Member, bool, error)
	// Member returns one current member, or ErrNotFound.
	Member(ctx context.Context, libraryID, userID string) (*catalog.Member, error)
	// AddMember inserts a current member; one who is already a member is
	// ErrConflict.
	AddMember(ctx context.Context, libraryID string, m *catalog.Member) error
	// SetMemberRole changes a member's role; ErrNotFound if not a member.
	SetMemberRole(ctx context.Context, libraryID, userID string, role catalog.Role, t time.Time) error
	// DeleteMember ends a membership; ErrNotFound if not a member.
	DeleteMember(ctx context.Context, libraryID, userID string) error
	// RecordRemoval notes that the owner removed userID at t (the latest
	// removal wins).
	RecordRemoval(ctx context.Context, libraryID, userID string, t time.Time) error
	// RemovedAt returns when the owner last removed userID, or nil.
	RemovedAt(ctx context.Context, libraryID, userID string) (*time.Time, error)
}
