package api

import "time"

// User is the spec's User record.
type User struct {
	ID          string    `json:"id"`
	IsActive    bool      `json:"is_active"`
	IsSuperuser bool      `json:"is_superuser"`
	IsVerified  bool      `json:"is_verified"`
	CreatedAt   time.Time `json:"created_at"`
	UpdatedAt   time.Time `json:"updated_at"`
	Email       string    `json:"email"`
	FirstName   string    `json:"first_name"`
	LastName    string    `json:"last_name"`
}

// UserSummary is the public view of another user.
type UserSummary struct {
	ID          string  `json:"id"`
	DisplayName *string `json:"display_name"`
}

// Preferences are the current user's settings.
type Preferences struct {
	ImmichLibraryID  *string `json:"immich_library_id"`
	DefaultLibraryID *string `json:"default_library_id"`
}

// PreferencesUpdate is the body of PATCH /api/users/me/preferences. An
// absent field is left alone; null clears it.
type PreferencesUpdate struct {
	ImmichLibraryID  Optional[string] `json:"immich_library_id"`
	DefaultLibraryID Optional[string] `json:"default_library_id"`
}

// Health is the body of GET /api/health/ping.
type Health struct {
	Status string `json:"status"`
}
