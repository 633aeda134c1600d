package oidc

import (
	"context"
	"fmt"
	"net/http"
	"sync"
	"time"

	gooidc "github.com/coreos/go-oidc/v3/oidc"

	"github.com/photoctl/photoctl/server/catalog"
)

// discovery finds the provider through its .well-known/openid-configuration
// on first use, not at boot, so a provider that is down when the server
// starts does not stop it from serving. A failed discovery is tried again
// on the next request; a successful one is kept for the process's life.
type discovery struct {
	issuer  string
	client  *http.Client
	timeout time.Duration

	mu       sync.Mutex
	provider *gooidc.Provider
	claims   discoveryClaims
}

// discoveryClaims are the discovery fields go-oidc does not expose.
type discoveryClaims struct {
	EndSession string `json:"end_session_endpoint"`
}

// get returns the discovered provider, or ErrUnavailable when it cannot be
// reached or answers nonsense.
func (d *discovery) get(ctx context.Context) (*gooidc.Provider, discoveryClaims, error) {
	d.mu.Lock()
	defer d.mu.Unlock()
	if d.provider != nil {
		return d.provider, d.claims, nil
	}
	ctx, cancel := context.WithTimeout(ctx, d.timeout)
	defer cancel()
	p, err := gooidc.NewProvider(gooidc.ClientContext(ctx, d.client), d.issuer)
	if err != nil {
		return nil, discoveryClaims{}, unavailable("discover the identity provider", err)
	}
	var c discoveryClaims
	if err := p.Claims(&c); err != nil {
		return nil, discoveryClaims{}, unavailable("read the identity provider's discovery document", err)
	}
	d.provider, d.claims = p, c
	return p, c, nil
}

// unavailable wraps a provider failure as a 503 whose detail names the
// step, not the provider's internals.
func unavailable(step string, err error) error {
	return &providerError{step: step, err: err}
}

// providerError is a failed exchange with the provider (503).
type providerError struct {
	step string
	err  error
}

func (e *providerError) Error() string {
	return fmt.Sprintf("could not %s; try again later (%v)", e.step, e.err)
}

// Unwrap makes the error a catalog.ErrUnavailable.
func (e *providerError) Unwrap() []error { return []error{catalog.ErrUnavailable, e.err} }
