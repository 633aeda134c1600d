package client

import (
	"context"
	"sync"
	"time"

	"github.com/photoctl/photoctl/server/api"
)

// Tokens are a first-party session: the short-lived access token sent with
// every request and the refresh token that rotates it.
type Tokens struct {
	AccessToken  string    `json:"access_token"`
	RefreshToken string    `json:"refresh_token"`
	ExpiresAt    time.Time `json:"expires_at"` // zero when unknown
}

// tokensFrom converts a login or refresh answer received at now.
func tokensFrom(r *api.TokenResponse, now time.Time) Tokens {
	t := Tokens{AccessToken: r.AccessToken, RefreshToken: r.RefreshToken}
	if r.ExpiresIn > 0 {
		t.ExpiresAt = now.Add(time.Duration(r.ExpiresIn) * time.Second)
	}
	return t
}

// TokenStore keeps a session's tokens, possibly beyond the process (the
// CLI's profiles file). Implementations are safe for concurrent use.
//
// Refresh tokens rotate and the server revokes the whole session when a
// rotated one is presented again, so two refreshes of the same tokens must
// never both reach the server: Rotate serialises them, across processes if
// the store is shared between processes.
type TokenStore interface {
	// Tokens returns the tokens to send now.
	Tokens() (Tokens, error)
	// Rotate replaces stale, the tokens a request was refused with. Under
	// the store's lock it reads the current tokens; if they are no longer
	// stale (someone else refreshed meanwhile) it returns them, else it
	// calls refresh with them, saves what refresh returns and returns that.
	Rotate(ctx context.Context, stale Tokens, refresh func(context.Context, Tokens) (Tokens, error)) (Tokens, error)
}

// MemoryTokens is a TokenStore that lives as long as the process.
type MemoryTokens struct {
	mu     sync.Mutex
	tokens Tokens
}

// NewMemoryTokens returns a store holding t.
func NewMemoryTokens(t Tokens) *MemoryTokens { return &MemoryTokens{tokens: t} }

// Tokens returns the current tokens.
func (m *MemoryTokens) Tokens() (Tokens, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	return m.tokens, nil
}

// Rotate implements TokenStore.
func (m *MemoryTokens) Rotate(ctx context.Context, stale Tokens, refresh func(context.Context, Tokens) (Tokens, error)) (Tokens, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.tokens.AccessToken != stale.AccessToken {
		return m.tokens, nil
	}
	fresh, err := refresh(ctx, m.tokens)
	if err != nil {
		return Tokens{}, err
	}
	m.tokens = fresh
	return fresh, nil
}
