package catalog

import "time"

// Identifier prefixes of the OAuth authorization server. oauthclient_ is
// fixed by decisions.md; a grant id is internal but appears in tokens.
const (
	PrefixOAuthClient = "oauthclient_"
	PrefixOAuthGrant  = "oauthgrant_"
)

// OAuthClient is a third-party application an administrator registered.
// A public client has no secret and must prove itself with PKCE alone.
type OAuthClient struct {
	ID           string
	Name         string
	SecretHash   []byte // nil for a public client
	RedirectURIs []string
	// Scopes are the actions the client may ever be granted.
	Scopes    []Action
	CreatedBy string
	CreatedAt time.Time
	RevokedAt *time.Time
}

// Public reports whether the client authenticates without a secret.
func (c *OAuthClient) Public() bool { return len(c.SecretHash) == 0 }

// OAuthGrant is a user's consent to a client: the family of every token
// one authorization produced (the code, its access tokens and the refresh
// chain).
type OAuthGrant struct {
	ID        string
	ClientID  string
	UserID    string
	Scopes    []Action
	CreatedAt time.Time
	RevokedAt *time.Time
	// ClientRevokedAt is the client's revocation time, read with the grant.
	ClientRevokedAt *time.Time
}

// Live reports whether tokens of the grant may still be used.
func (g *OAuthGrant) Live() bool { return g.RevokedAt == nil && g.ClientRevokedAt == nil }
