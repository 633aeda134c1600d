package catalog

import "time"

// UserSummary is the public view of an account that other members see.
type UserSummary struct {
	ID string
	// DisplayName is "" when the user gave no name.
	DisplayName string
}

// Summary returns the public view of u.
func (u *User) Summary() UserSummary { return UserSummary{ID: u.ID, DisplayName: u.DisplayName()} }

// Member is one current member of a library.
type Member struct {
	User UserSummary
	Role Role
	// InvitationID names the invitation that admitted the member; nil for
	// the owner.
	InvitationID *string
	JoinedAt     time.Time
	UpdatedAt    time.Time
}

// Invitation offers a role in a library to whoever holds its token. Its
// state is derived (State), never stored.
type Invitation struct {
	ID        string
	LibraryID string
	CreatedBy UserSummary
	// TokenHash is the SHA-256 of the secret token; the token itself is
	// shown once, at creation, and stored nowhere.
	TokenHash  []byte
	Role       Role
	ExpiresAt  time.Time // exclusive
	MaxJoiners int
	// JoinerCount is how many distinct accounts redeemed the invitation,
	// departed members included (derived by the store).
	JoinerCount int
	DisabledAt  *time.Time
	CreatedAt   time.Time
	UpdatedAt   time.Time
}

// InvitationState is the derived state of an invitation (spec "Invitation
// state").
type InvitationState string

// Invitation states.
const (
	InvitationActive    InvitationState = "active"
	InvitationExhausted InvitationState = "exhausted"
	InvitationExpired   InvitationState = "expired"
	InvitationDisabled  InvitationState = "disabled"
)

// State derives the invitation's state at now: disabled beats everything;
// expired (now at or after ExpiresAt) is reported before exhausted when
// both hold (decisions.md).
func (i *Invitation) State(now time.Time) InvitationState {
	switch {
	case i.DisabledAt != nil:
		return InvitationDisabled
	case !now.Before(i.ExpiresAt):
		return InvitationExpired
	case i.JoinerCount >= i.MaxJoiners:
		return InvitationExhausted
	default:
		return InvitationActive
	}
}

// RemainingPlaces is how many new accounts may still join; never negative.
func (i *Invitation) RemainingPlaces() int { return max(0, i.MaxJoiners-i.JoinerCount) }

// Invitation limits.
const (
	// MaxInvitationJoiners bounds max_joiners.
	MaxInvitationJoiners = 1000
)

// Stable library-sharing error codes (decisions.md "Sharing error codes";
// CodeLibraryNotFound and CodeMemberRemoved are additions documented in
// docs/api.md).
const (
	CodeInvitationNotFound        = "invitation_not_found"
	CodeInvitationExpired         = "invitation_expired"
	CodeInvitationExhausted       = "invitation_exhausted"
	CodeInvitationDisabled        = "invitation_disabled"
	CodeAlreadyMember             = "already_member"
	CodeNotLibraryOwner           = "not_library_owner"
	CodeOwnerCannotLeave          = "owner_cannot_leave"
	CodeMemberNotFound            = "member_not_found"
	CodeLastLiveLibrary           = "last_live_library"
	CodeFirstPartySessionRequired = "first_party_session_required"
	CodeLibraryNotFound           = "library_not_found"
	CodeMemberRemoved             = "member_removed"
)
