package client

import (
	"context"
	"iter"
	"net/url"

	"github.com/photoctl/photoctl/server/api"
)

// APIKeyQuery filters and orders the API key list. Zero values are the
// server's defaults.
type APIKeyQuery struct {
	Name      string // case-insensitive substring
	LibraryID string // keys whose scope reaches this library
	OrderBy   string // created_at, last_used_at or name
	Order     string // asc or desc
}

func (q APIKeyQuery) values() url.Values {
	v := url.Values{}
	setIf(v, "name", q.Name)
	setIf(v, "library_id", q.LibraryID)
	setIf(v, "order_by", q.OrderBy)
	setIf(v, "order", q.Order)
	return v
}

// APIKeys iterates over the user's API keys (session only).
func (c *Client) APIKeys(ctx context.Context, q APIKeyQuery) iter.Seq2[api.APIKey, error] {
	return walk(ctx, c, "/api/api-keys", q.values(), "", 0, func(k api.APIKey) string { return k.ID })
}

// APIKey returns one API key record.
func (c *Client) APIKey(ctx context.Context, id string) (*api.APIKey, error) {
	var k api.APIKey
	if _, err := c.do(ctx, &call{method: "GET", path: "/api/api-keys/" + url.PathEscape(id), idempotent: true, out: &k}); err != nil {
		return nil, err
	}
	return &k, nil
}

// CreateAPIKey creates a key with an explicit scope and returns it with its
// secret, which the server shows this once (session only).
func (c *Client) CreateAPIKey(ctx context.Context, name string, scope api.APIKeyScope) (*api.APIKeyCreated, error) {
	var k api.APIKeyCreated
	if _, err := c.do(ctx, &call{method: "POST", path: "/api/api-keys",
		body: api.APIKeyCreateRequest{Name: name, Scope: &scope}, out: &k}); err != nil {
		return nil, err
	}
	return &k, nil
}

// UpdateAPIKey renames a key or replaces its scope (nil fields stay).
func (c *Client) UpdateAPIKey(ctx context.Context, id string, u api.APIKeyUpdateRequest) (*api.APIKey, error) {
	body := map[string]any{}
	if u.Name != nil {
		body["name"] = *u.Name
	}
	if u.Scope != nil {
		body["scope"] = *u.Scope
	}
	var k api.APIKey
	if _, err := c.do(ctx, &call{method: "PATCH", path: "/api/api-keys/" + url.PathEscape(id), body: body, out: &k}); err != nil {
		return nil, err
	}
	return &k, nil
}

// DeleteAPIKey revokes a key.
func (c *Client) DeleteAPIKey(ctx context.Context, id string) error {
	_, err := c.do(ctx, &call{method: "DELETE", path: "/api/api-keys/" + url.PathEscape(id), idempotent: true})
	return err
}

// setIf sets a query parameter when the value is not empty.
func setIf(v url.Values, key, value string) {
	if value != "" {
		v.Set(key, value)
	}
}
