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
	// Version is the server's version ("v1.2.3", or "dev" for a build
	// without one).
	Version string `json:"version"`
}

// UserUpdate is the body of PATCH /api/users/me. Absent fields stay. A
// password change sends current_password with password; it ends the
// account's other sessions.
type UserUpdate struct {
	FirstName       *string `json:"first_name"`
	LastName        *string `json:"last_name"`
	CurrentPassword *string `json:"current_password"`
	Password        *string `json:"password"`
}

// StorageUsage is the body of GET /api/users/me/storage: the allowance
// (null: unlimited) and the bytes charged to it (the files of every
// library the user owns, whoever uploaded them).
type StorageUsage struct {
	QuotaBytes *int64 `json:"quota_bytes"`
	UsedBytes  int64  `json:"used_bytes"`
}

// AdminUser is an account as a superuser sees it: the User record and its
// storage allowance.
type AdminUser struct {
	User
	QuotaBytes *int64 `json:"quota_bytes"`
}

// AdminUserCreate is the body of POST /api/admin/users. Without a password
// the server generates one and returns it once.
type AdminUserCreate struct {
	Email       string  `json:"email"`
	Password    *string `json:"password"`
	FirstName   string  `json:"first_name"`
	LastName    string  `json:"last_name"`
	QuotaBytes  *int64  `json:"quota_bytes"`
	IsSuperuser bool    `json:"is_superuser"`
}

// AdminUserCreated answers POST /api/admin/users: the account and, when
// the server generated it, the password (shown this once; null otherwise).
type AdminUserCreated struct {
	AdminUser
	Password *string `json:"password"`
}

// AdminUserUpdate is the body of PATCH /api/admin/users/{id}. Absent
// fields stay; quota_bytes null makes the allowance unlimited; password
// resets the password and ends every session of the account.
type AdminUserUpdate struct {
	FirstName   *string         `json:"first_name"`
	LastName    *string         `json:"last_name"`
	IsActive    *bool           `json:"is_active"`
	IsSuperuser *bool           `json:"is_superuser"`
	QuotaBytes  Optional[int64] `json:"quota_bytes"`
	Password    *string         `json:"password"`
}
