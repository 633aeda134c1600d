package api

import "time"

// OAuthClientCreateRequest registers a third-party application
// (administrators only).
type OAuthClientCreateRequest struct {
	Name string `json:"name"`
	// RedirectURIs are matched exactly at the authorize endpoint.
	RedirectURIs []string `json:"redirect_uris"`
	// Scopes are the API-key actions the client may ask for ("all" allows any).
	Scopes []string `json:"scopes"`
	// Public clients get no secret and authenticate with PKCE alone.
	Public bool `json:"public,omitempty"`
}

// OAuthClient is a registered third-party application.
type OAuthClient struct {
	ID           string     `json:"id"`
	Name         string     `json:"name"`
	RedirectURIs []string   `json:"redirect_uris"`
	Scopes       []string   `json:"scopes"`
	Public       bool       `json:"public"`
	CreatedAt    time.Time  `json:"created_at"`
	RevokedAt    *time.Time `json:"revoked_at"`
}

// OAuthClientCreated is the 201 body of a registration: the client and,
// for a confidential client, its secret, shown this once.
type OAuthClientCreated struct {
	OAuthClient
	ClientSecret string `json:"client_secret,omitempty"`
}

// OAuthTokenResponse is the RFC 6749 §5.1 body of POST /api/oauth/token.
type OAuthTokenResponse struct {
	AccessToken  string `json:"access_token"`
	TokenType    string `json:"token_type"`
	ExpiresIn    int    `json:"expires_in"`
	RefreshToken string `json:"refresh_token"`
	Scope        string `json:"scope"`
}
