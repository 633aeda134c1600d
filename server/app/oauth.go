package app

import (
	"errors"
	"time"

	"github.com/photoctl/photoctl/server/auth"
)

// OAuthConfig sets the OAuth authorization server for third-party apps.
type OAuthConfig struct {
	// AccessTTL is the lifetime of an OAuth access token (a JWT).
	AccessTTL time.Duration `koanf:"access_ttl"`
	// CodeTTL is how long an authorization code may wait for its exchange.
	CodeTTL time.Duration `koanf:"code_ttl"`
}

func oauthDefaults() OAuthConfig {
	return OAuthConfig{AccessTTL: 15 * time.Minute, CodeTTL: 2 * time.Minute}
}

// Validate reports a lifetime that is not positive.
func (c OAuthConfig) Validate() error {
	if c.AccessTTL <= 0 || c.CodeTTL <= 0 {
		return errors.New("oauth: access_ttl and code_ttl must be positive")
	}
	return nil
}

// server is the auth package's view; refresh tokens live as long as
// first-party ones (auth.refresh_ttl), counted from each rotation.
func (c OAuthConfig) server(a AuthConfig) auth.OAuthConfig {
	return auth.OAuthConfig{AccessTTL: c.AccessTTL, CodeTTL: c.CodeTTL, RefreshTTL: a.RefreshTTL}
}
