package api

import "time"

// Library is a library as seen by the caller, with the caller's role
// (owner, collaborator or viewer).
type Library struct {
	ID        string     `json:"id"`
	Name      string     `json:"name"`
	OwnerID   string     `json:"owner_id"`
	Role      string     `json:"role"`
	TrashedAt *time.Time `json:"trashed_at"`
	CreatedAt time.Time  `json:"created_at"`
	UpdatedAt time.Time  `json:"updated_at"`
}

// LibraryCreateRequest is the body of POST /api/libraries.
type LibraryCreateRequest struct {
	Name string `json:"name"`
}

// LibraryUpdateRequest is the body of PATCH /api/libraries/{id}.
type LibraryUpdateRequest struct {
	Name *string `json:"name"`
}

// Member is one current member of a library: the member's UserSummary
// fields, their role (owner, collaborator or viewer) and when they joined.
// id is the user id, so it pages the member list as starting_after_id.
type Member struct {
	ID          string  `json:"id"`
	DisplayName *string `json:"display_name"`
	Role        string  `json:"role"`
	// InvitationID names the invitation that admitted the member; null for
	// the owner.
	InvitationID *string   `json:"invitation_id"`
	JoinedAt     time.Time `json:"joined_at"`
	UpdatedAt    time.Time `json:"updated_at"`
}

// MemberUpdateRequest is the body of PATCH /api/libraries/{id}/members/{user_id}.
type MemberUpdateRequest struct {
	Role string `json:"role"`
}
