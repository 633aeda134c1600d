package catalog

import "time"

// Identity links an account to a subject of an OpenID provider. An account
// has at most one subject per issuer.
type Identity struct {
	Issuer    string
	Subject   string
	UserID    string
	Email     string // the e-mail the provider gave when the link was made
	CreatedAt time.Time
}

// OIDCState is a sign-in through the provider that has started and not yet
// finished: what the callback needs to complete the code flow. It is used
// once and expires.
type OIDCState struct {
	StateHash   []byte // SHA-256 of the state value sent to the provider
	Verifier    string // PKCE code verifier
	Nonce       string
	RedirectURI string
	CreatedAt   time.Time
	ExpiresAt   time.Time
}
