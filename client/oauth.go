package client

import (
	"context"
	"iter"
	"net/url"

	"github.com/photoctl/photoctl/server/api"
)

// OAuthClients iterates over the registered third-party OAuth clients,
// newest first (administrators, session only).
func (c *Client) OAuthClients(ctx context.Context) iter.Seq2[api.OAuthClient, error] {
	return walk(ctx, c, "/api/oauth/clients", url.Values{}, "", 0, func(o api.OAuthClient) string { return o.ID })
}

// CreateOAuthClient registers a client and returns it with its secret,
// which the server shows this once (none for a public client).
func (c *Client) CreateOAuthClient(ctx context.Context, req api.OAuthClientCreateRequest) (*api.OAuthClientCreated, error) {
	var o api.OAuthClientCreated
	if _, err := c.do(ctx, &call{method: "POST", path: "/api/oauth/clients", body: req, out: &o}); err != nil {
		return nil, err
	}
	return &o, nil
}

// RevokeOAuthClient revokes a client and every token issued to it.
func (c *Client) RevokeOAuthClient(ctx context.Context, id string) error {
	_, err := c.do(ctx, &call{method: "DELETE", path: "/api/oauth/clients/" + url.PathEscape(id), idempotent: true})
	return err
}
