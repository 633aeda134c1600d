package api

import "time"

// Invitation is the spec's InvitationResponse; every field is required.
// State is derived: disabled, then expired, then exhausted, else active.
type Invitation struct {
	ID              string      `json:"id"`
	LibraryID       string      `json:"library_id"`
	CreatedBy       UserSummary `json:"created_by"`
	Role            string      `json:"role"`
	ExpiresAt       time.Time   `json:"expires_at"`
	MaxJoiners      int         `json:"max_joiners"`
	JoinerCount     int         `json:"joiner_count"`
	RemainingPlaces int         `json:"remaining_places"`
	State           string      `json:"state"`
	DisabledAt      *time.Time  `json:"disabled_at"`
	CreatedAt       time.Time   `json:"created_at"`
	UpdatedAt       time.Time   `json:"updated_at"`
}

// InvitationCreateRequest is the body of POST /api/libraries/{id}/invitations.
// Every field is required; expires_at is an RFC 3339 instant in the future.
type InvitationCreateRequest struct {
	Role       *string `json:"role"`
	ExpiresAt  *string `json:"expires_at"`
	MaxJoiners *int    `json:"max_joiners"`
}

// InvitationCreated is the 201 body of an invitation create: the record
// and its secret token, shown this once.
type InvitationCreated struct {
	Invitation
	Token string `json:"token"`
}

// InvitationTokenRequest is the body of the preview and join operations.
type InvitationTokenRequest struct {
	Token string `json:"token"`
}

// LibraryRef names a library to someone who is not (yet) a member.
type LibraryRef struct {
	ID   string `json:"id"`
	Name string `json:"name"`
}

// InvitationPreview is what a token holder sees before joining.
type InvitationPreview struct {
	Invitation Invitation  `json:"invitation"`
	Library    LibraryRef  `json:"library"`
	Owner      UserSummary `json:"owner"`
}
