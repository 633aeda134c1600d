// Package oidc signs users in through an OpenID provider (code flow with
// PKCE, state and nonce) and links provider identities to accounts. It is
// the only package importing github.com/coreos/go-oidc and
// golang.org/x/oauth2.
package oidc

import (
	"context"
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"time"

	"golang.org/x/oauth2"

	"github.com/photoctl/photoctl/server/auth"
	"github.com/photoctl/photoctl/server/catalog"
	"github.com/photoctl/photoctl/server/store"
)

// DefaultScopes are asked for when the configuration names none.
var DefaultScopes = []string{"openid", "email", "profile"}

// stateTTL is how long a started sign-in can be finished.
const stateTTL = 10 * time.Minute

// Config is the relying party's registration at the provider.
type Config struct {
	Issuer       string
	ClientID     string
	ClientSecret string
	Scopes       []string
	// CreateAccounts makes an account for a provider identity that matches
	// none; without it such a sign-in is refused (403).
	CreateAccounts bool
	// Timeout bounds each call to the provider.
	Timeout time.Duration
}

// Enabled reports whether a provider is configured.
func (c Config) Enabled() bool { return c.Issuer != "" }

// Service runs sign-ins through the provider.
type Service struct {
	store store.Store
	auth  *auth.Service
	cfg   Config
	now   func() time.Time
	disc  *discovery
}

// NewService returns the sign-in service for cfg. It does not contact the
// provider (see discovery).
func NewService(st store.Store, a *auth.Service, cfg Config, now func() time.Time) *Service {
	if len(cfg.Scopes) == 0 {
		cfg.Scopes = DefaultScopes
	}
	if cfg.Timeout <= 0 {
		cfg.Timeout = 10 * time.Second
	}
	client := &http.Client{Timeout: cfg.Timeout}
	return &Service{store: st, auth: a, cfg: cfg, now: now,
		disc: &discovery{issuer: cfg.Issuer, client: client, timeout: cfg.Timeout}}
}

// ErrNotConfigured answers every sign-in route when no provider is
// configured (decisions "No identity provider configured").
var ErrNotConfigured = fmt.Errorf("no identity provider is configured: %w", catalog.ErrNotFound)

// Started is a sign-in waiting for the user at the provider.
type Started struct {
	AuthorizeURL string
	State        string
}

// Start begins a sign-in: it keeps the PKCE verifier and nonce under a new
// state, server-side, and returns the provider URL to send the user to.
func (s *Service) Start(ctx context.Context, redirectURI string) (*Started, error) {
	if !s.cfg.Enabled() {
		return nil, ErrNotConfigured
	}
	if err := checkRedirectURI(redirectURI, "query"); err != nil {
		return nil, err
	}
	p, _, err := s.disc.get(ctx)
	if err != nil {
		return nil, err
	}
	state, nonce := randomToken(), randomToken()
	verifier := oauth2.GenerateVerifier()
	now := s.now()
	row := &catalog.OIDCState{StateHash: hashState(state), Verifier: verifier, Nonce: nonce,
		RedirectURI: redirectURI, CreatedAt: now, ExpiresAt: now.Add(stateTTL)}
	err = s.store.InTx(ctx, func(r store.Repos) error { return r.Identities().AddState(ctx, row, now) })
	if err != nil {
		return nil, err
	}
	u := s.oauth(p.Endpoint(), redirectURI).AuthCodeURL(state, oauth2.S256ChallengeOption(verifier),
		oauth2.SetAuthURLParam("nonce", nonce))
	return &Started{AuthorizeURL: u, State: state}, nil
}

// LogoutEndpoint returns the provider's end_session_endpoint.
func (s *Service) LogoutEndpoint(ctx context.Context) (string, error) {
	if !s.cfg.Enabled() {
		return "", ErrNotConfigured
	}
	_, c, err := s.disc.get(ctx)
	if err != nil {
		return "", err
	}
	if c.EndSession == "" {
		return "", fmt.Errorf("the identity provider announces no end_session_endpoint: %w", catalog.ErrNotFound)
	}
	return c.EndSession, nil
}

func (s *Service) oauth(ep oauth2.Endpoint, redirectURI string) *oauth2.Config {
	return &oauth2.Config{ClientID: s.cfg.ClientID, ClientSecret: s.cfg.ClientSecret, Endpoint: ep,
		RedirectURL: redirectURI, Scopes: s.cfg.Scopes}
}

// checkRedirectURI wants an absolute http(s) URL; the provider checks it
// against the client's registration.
func checkRedirectURI(raw string, where string) error {
	if raw == "" {
		return catalog.InvalidField("missing", "redirect_uri is required", nil, where, "redirect_uri")
	}
	u, err := url.Parse(raw)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return catalog.InvalidField("url_parsing", "redirect_uri must be an absolute http or https URL", raw,
			where, "redirect_uri")
	}
	return nil
}

// randomToken is 32 random bytes in URL-safe base64.
func randomToken() string {
	b := make([]byte, 32)
	_, _ = rand.Read(b) // crypto/rand.Read never fails (Go 1.24+)
	return base64.RawURLEncoding.EncodeToString(b)
}

// hashState is what the store keeps of a state: it is a bearer value until
// the callback spends it.
func hashState(state string) []byte {
	h := sha256.Sum256([]byte(state))
	return h[:]
}

var errBadState = catalog.InvalidField("value_error",
	"unknown, expired or already used state; start the sign-in again", nil, "body", "state")

// isRetrieveError reports a token endpoint that answered with an OAuth error.
func isRetrieveError(err error) (*oauth2.RetrieveError, bool) {
	var re *oauth2.RetrieveError
	ok := errors.As(err, &re)
	return re, ok
}

// Enabled reports whether a provider is configured (the gallery shows its
// sign-in button only then).
func (s *Service) Enabled() bool { return s != nil && s.cfg.Enabled() }

// ProviderName is what the gallery calls the provider: its issuer's host.
func (s *Service) ProviderName() string {
	if u, err := url.Parse(s.cfg.Issuer); err == nil && u.Host != "" {
		return u.Host
	}
	return s.cfg.Issuer
}
