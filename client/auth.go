package client

import (
	"context"
	"errors"
	"fmt"

	"github.com/photoctl/photoctl/server/api"
)

// ErrNotSignedIn is returned when a session store holds no access token.
// It matches ErrUnauthenticated.
var ErrNotSignedIn = fmt.Errorf("not signed in: %w", ErrUnauthenticated)

// Login signs in with e-mail and password (POST /api/auth/login) and
// returns the new session's tokens and user. It sends no credential, so any
// client for the server can call it.
func (c *Client) Login(ctx context.Context, email, password string) (Tokens, *api.User, error) {
	var out api.TokenResponse
	_, err := c.do(ctx, &call{method: "POST", path: "/api/auth/login", anonymous: true,
		body: api.LoginRequest{Email: email, Password: password}, out: &out})
	if err != nil {
		return Tokens{}, nil, err
	}
	return tokensFrom(&out, c.now()), out.User, nil
}

// Refresh exchanges a refresh token for new tokens (POST
// /api/auth/refresh). The old refresh token is spent: presenting it again
// revokes the session.
func (c *Client) Refresh(ctx context.Context, refreshToken string) (Tokens, error) {
	var out api.TokenResponse
	_, err := c.do(ctx, &call{method: "POST", path: "/api/auth/refresh", anonymous: true,
		body: api.RefreshRequest{RefreshToken: refreshToken}, out: &out})
	if err != nil {
		return Tokens{}, err
	}
	return tokensFrom(&out, c.now()), nil
}

// Logout ends the client's session on the server (POST /api/auth/logout).
func (c *Client) Logout(ctx context.Context) error {
	_, err := c.do(ctx, &call{method: "POST", path: "/api/auth/logout"})
	return err
}

// rotate renews the session's stale tokens through the store, which makes
// sure one refresh token is spent once.
func (c *Client) rotate(ctx context.Context, stale Tokens) (Tokens, error) {
	t, err := c.session.Rotate(ctx, stale, func(ctx context.Context, cur Tokens) (Tokens, error) {
		if cur.RefreshToken == "" {
			return Tokens{}, ErrNotSignedIn
		}
		return c.Refresh(ctx, cur.RefreshToken)
	})
	if err != nil {
		if errors.Is(err, ErrUnauthenticated) {
			return Tokens{}, fmt.Errorf("the session has expired or was ended; sign in again: %w", err)
		}
		return Tokens{}, fmt.Errorf("refresh session: %w", err)
	}
	return t, nil
}
