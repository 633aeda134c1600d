package api

import "time"

// LoginRequest is the body of POST /api/auth/login.
type LoginRequest struct {
	Email    string `json:"email"`
	Password string `json:"password"`
}

// RefreshRequest is the body of POST /api/auth/refresh.
type RefreshRequest struct {
	RefreshToken string `json:"refresh_token"`
}

// TokenResponse is returned by login and refresh. User is set on login.
type TokenResponse struct {
	AccessToken  string `json:"access_token"`
	RefreshToken string `json:"refresh_token"`
	TokenType    string `json:"token_type"`
	ExpiresIn    int    `json:"expires_in"`
	User         *User  `json:"user,omitempty"`
}

// APIKeyScope bounds an API key. LibraryIDs null means every library the
// user can reach.
type APIKeyScope struct {
	Actions    []string `json:"actions"`
	LibraryIDs []string `json:"library_ids"`
}

// APIKeyCreateRequest is the body of POST /api/api-keys.
type APIKeyCreateRequest struct {
	Name  string       `json:"name"`
	Scope *APIKeyScope `json:"scope"`
}

// APIKeyUpdateRequest is the body of PATCH /api/api-keys/{id}.
type APIKeyUpdateRequest struct {
	Name  *string      `json:"name"`
	Scope *APIKeyScope `json:"scope"`
}

// APIKey is an API key record; the secret is never part of it.
type APIKey struct {
	ID         string      `json:"id"`
	Name       string      `json:"name"`
	Scope      APIKeyScope `json:"scope"`
	LastUsedAt *time.Time  `json:"last_used_at"`
	CreatedAt  time.Time   `json:"created_at"`
	UpdatedAt  time.Time   `json:"updated_at"`
}

// APIKeyCreated is the 201 body of a key creation: the record and the
// secret, shown this once.
type APIKeyCreated struct {
	APIKey
	Secret string `json:"secret"`
}
