package oidc

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"strings"

	gooidc "github.com/coreos/go-oidc/v3/oidc"
	"golang.org/x/oauth2"

	"github.com/photoctl/photoctl/server/auth"
	"github.com/photoctl/photoctl/server/catalog"
	"github.com/photoctl/photoctl/server/store"
)

// claims are what the sign-in uses of the ID token and userinfo.
type claims struct {
	Subject       string          `json:"sub"`
	Email         string          `json:"email"`
	EmailVerified json.RawMessage `json:"email_verified"` // a bool, or "true" from some providers
	GivenName     string          `json:"given_name"`
	FamilyName    string          `json:"family_name"`
}

func (c claims) verified() bool {
	s := strings.Trim(string(c.EmailVerified), `"`)
	return s == "true"
}

// Callback finishes a sign-in: it spends the state, exchanges the code
// (with the PKCE verifier) for tokens, verifies the ID token and its nonce,
// finds or makes the account, and opens a first-party session.
func (s *Service) Callback(ctx context.Context, code, state, redirectURI string) (*auth.Tokens, *catalog.User, error) {
	if !s.cfg.Enabled() {
		return nil, nil, ErrNotConfigured
	}
	if err := checkCallback(code, state, redirectURI); err != nil {
		return nil, nil, err
	}
	p, _, err := s.disc.get(ctx)
	if err != nil {
		return nil, nil, err
	}
	st, err := s.takeState(ctx, state)
	if err != nil {
		return nil, nil, err
	}
	if st.RedirectURI != redirectURI {
		return nil, nil, catalog.InvalidField("value_error", "redirect_uri differs from the one the sign-in started with",
			redirectURI, "body", "redirect_uri")
	}
	id, err := s.identify(ctx, p, code, st)
	if err != nil {
		return nil, nil, err
	}
	var tokens *auth.Tokens
	var user *catalog.User
	err = s.store.InTx(ctx, func(r store.Repos) error {
		if user, err = s.account(ctx, r, id); err != nil {
			return err
		}
		if !user.IsActive {
			return fmt.Errorf("the account %s is deactivated: %w", user.Email, catalog.ErrForbidden)
		}
		tokens, err = s.auth.OpenSession(ctx, r, user.ID)
		return err
	})
	if err != nil {
		return nil, nil, err
	}
	return tokens, user, nil
}

func checkCallback(code, state, redirectURI string) error {
	var fields []catalog.FieldError
	for _, f := range []struct{ name, v string }{{"code", code}, {"state", state}} {
		if f.v == "" {
			fields = append(fields, catalog.FieldError{Loc: []any{"body", f.name}, Msg: f.name + " is required", Type: "missing"})
		}
	}
	if len(fields) > 0 {
		return &catalog.ValidationError{Fields: fields}
	}
	return checkRedirectURI(redirectURI, "body")
}

// takeState spends the state: a second callback with it finds nothing.
func (s *Service) takeState(ctx context.Context, state string) (*catalog.OIDCState, error) {
	var st *catalog.OIDCState
	err := s.store.InTx(ctx, func(r store.Repos) error {
		var err error
		st, err = r.Identities().TakeState(ctx, hashState(state))
		return err
	})
	if errors.Is(err, catalog.ErrNotFound) || (err == nil && !s.now().Before(st.ExpiresAt)) {
		return nil, errBadState
	}
	return st, err
}

// identify exchanges the code and returns the verified identity. A
// provider that cannot be reached or fails is a 503; a code or ID token it
// does not stand behind is a 401.
func (s *Service) identify(ctx context.Context, p *gooidc.Provider, code string, st *catalog.OIDCState) (*claims, error) {
	ctx, cancel := context.WithTimeout(ctx, s.cfg.Timeout)
	defer cancel()
	ctx = context.WithValue(ctx, oauth2.HTTPClient, s.disc.client)
	tok, err := s.oauth(p.Endpoint(), st.RedirectURI).Exchange(ctx, code, oauth2.VerifierOption(st.Verifier))
	if err != nil {
		if re, ok := isRetrieveError(err); ok && re.Response != nil && re.Response.StatusCode < http.StatusInternalServerError {
			return nil, fmt.Errorf("the identity provider refused the authorization code (%s): %w",
				re.ErrorCode, catalog.ErrUnauthenticated)
		}
		return nil, unavailable("exchange the authorization code at the identity provider", err)
	}
	raw, _ := tok.Extra("id_token").(string)
	if raw == "" {
		return nil, unavailable("sign in", errors.New("the identity provider returned no ID token"))
	}
	idt, err := p.VerifierContext(gooidc.ClientContext(ctx, s.disc.client),
		&gooidc.Config{ClientID: s.cfg.ClientID, Now: s.now}).Verify(ctx, raw)
	if err != nil {
		if strings.Contains(err.Error(), "fetching keys") {
			return nil, unavailable("fetch the identity provider's signing keys", err)
		}
		return nil, fmt.Errorf("the identity provider's ID token does not verify: %v: %w", err, catalog.ErrUnauthenticated)
	}
	if idt.Nonce != st.Nonce {
		return nil, fmt.Errorf("the ID token's nonce does not match the sign-in: %w", catalog.ErrUnauthenticated)
	}
	var c claims
	if err := idt.Claims(&c); err != nil {
		return nil, unavailable("read the ID token", err)
	}
	if c.Email == "" {
		// Providers may keep profile claims out of the ID token when an
		// access token comes with it: ask userinfo.
		info, err := p.UserInfo(gooidc.ClientContext(ctx, s.disc.client), oauth2.StaticTokenSource(tok))
		if err != nil {
			return nil, unavailable("read the user's profile at the identity provider", err)
		}
		var ic claims
		if err := info.Claims(&ic); err != nil {
			return nil, unavailable("read the user's profile at the identity provider", err)
		}
		if ic.Subject != c.Subject {
			return nil, fmt.Errorf("the provider's userinfo is for another subject: %w", catalog.ErrUnauthenticated)
		}
		c = ic
	}
	return &c, nil
}
