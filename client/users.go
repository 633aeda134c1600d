package client

import (
	"context"

	"github.com/photoctl/photoctl/server/api"
)

// Ping checks that the server is up (GET /api/health/ping, no credential).
func (c *Client) Ping(ctx context.Context) error {
	_, err := c.Health(ctx)
	return err
}

// Health returns the server's health answer, with its version
// (GET /api/health/ping, no credential).
func (c *Client) Health(ctx context.Context) (*api.Health, error) {
	var h api.Health
	if _, err := c.do(ctx, &call{method: "GET", path: "/api/health/ping", anonymous: true, idempotent: true,
		out: &h}); err != nil {
		return nil, err
	}
	return &h, nil
}

// Me returns the authenticated user (GET /api/users/me).
func (c *Client) Me(ctx context.Context) (*api.User, error) {
	var u api.User
	if _, err := c.do(ctx, &call{method: "GET", path: "/api/users/me", idempotent: true, out: &u}); err != nil {
		return nil, err
	}
	return &u, nil
}

// Preferences returns the current user's preferences.
func (c *Client) Preferences(ctx context.Context) (*api.Preferences, error) {
	var p api.Preferences
	if _, err := c.do(ctx, &call{method: "GET", path: "/api/users/me/preferences", idempotent: true, out: &p}); err != nil {
		return nil, err
	}
	return &p, nil
}

// UpdatePreferences changes the preferences u sets (PATCH
// /api/users/me/preferences) and returns them all.
func (c *Client) UpdatePreferences(ctx context.Context, u api.PreferencesUpdate) (*api.Preferences, error) {
	var p api.Preferences
	if _, err := c.do(ctx, &call{method: "PATCH", path: "/api/users/me/preferences", body: preferencesBody(u), out: &p}); err != nil {
		return nil, err
	}
	return &p, nil
}

// preferencesBody is PreferencesUpdate with its absent fields left out:
// api.Optional marshals an unset field as null, which would clear it.
func preferencesBody(u api.PreferencesUpdate) map[string]any {
	m := map[string]any{}
	if u.ImmichLibraryID.Set {
		m["immich_library_id"] = u.ImmichLibraryID
	}
	if u.DefaultLibraryID.Set {
		m["default_library_id"] = u.DefaultLibraryID
	}
	return m
}
