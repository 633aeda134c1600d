package catalog

import (
	"fmt"
	"time"
)

// User is an account.
type User struct {
	ID           string
	Email        string
	FirstName    string
	LastName     string
	PasswordHash string
	IsActive     bool
	IsSuperuser  bool
	IsVerified   bool
	QuotaBytes   *int64
	CreatedAt    time.Time
	UpdatedAt    time.Time
}

// DisplayName is the public name shown to other members, or "" if the user
// gave none.
func (u *User) DisplayName() string {
	switch {
	case u.FirstName != "" && u.LastName != "":
		return u.FirstName + " " + u.LastName
	case u.FirstName != "":
		return u.FirstName
	default:
		return u.LastName
	}
}

// Preferences are a user's settings.
type Preferences struct {
	ImmichLibraryID  *string
	DefaultLibraryID *string
}

// Library is the top-level container of assets.
type Library struct {
	ID        string
	Name      string
	OwnerID   string
	TrashedAt *time.Time
	CreatedAt time.Time
	UpdatedAt time.Time
}

// Membership is a library as seen by one member.
type Membership struct {
	Library Library
	Role    Role
}

// RequireWrite refuses (ErrForbidden) a role that may not organize the
// library's content; what names the refused operation.
func (m *Membership) RequireWrite(what string) error {
	if !m.Role.CanWrite() {
		return fmt.Errorf("%s needs the collaborator or owner role in this library: %w", what, ErrForbidden)
	}
	return nil
}

// RequireOwner refuses (ErrForbidden) any role but the library's owner.
func (m *Membership) RequireOwner(what string) error {
	if !m.Role.IsOwner() {
		return fmt.Errorf("%s is reserved to the library's owner: %w", what, ErrForbidden)
	}
	return nil
}

// MaxIDs bounds each id list of one request: bulk bodies and ids filters
// (spec "Limits").
const MaxIDs = 100

// APIKey is a stored API key record. The secret itself is never stored.
type APIKey struct {
	ID         string
	UserID     string
	Name       string
	SecretHash []byte
	Scope      Scope
	LastUsedAt *time.Time
	CreatedAt  time.Time
	UpdatedAt  time.Time
}

// Session is a first-party sign-in: one refresh-token family.
type Session struct {
	ID        string
	UserID    string
	CreatedAt time.Time
	ExpiresAt time.Time
	RevokedAt *time.Time
}

// RefreshToken is one link of a session's rotating refresh-token chain.
type RefreshToken struct {
	ID        string
	SessionID string
	UserID    string
	Hash      []byte
	CreatedAt time.Time
	ExpiresAt time.Time
	RotatedAt *time.Time
}

// Event is one entry of the change feed.
type Event struct {
	ID         string
	Type       string
	LibraryID  string
	ResourceID string
	Data       []byte // JSON object
	CreatedAt  time.Time
}
