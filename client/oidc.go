package client

import (
	"context"
	"net/url"

	"github.com/photoctl/photoctl/server/api"
)

// OIDCStart begins a sign-in through the server's identity provider (GET
// /api/auth/oidc/start): the user opens AuthorizeURL, and the provider
// sends the code and state to redirectURI.
func (c *Client) OIDCStart(ctx context.Context, redirectURI string) (*api.OIDCStartResponse, error) {
	var out api.OIDCStartResponse
	_, err := c.do(ctx, &call{method: "GET", path: "/api/auth/oidc/start", anonymous: true, idempotent: true,
		query: url.Values{"redirect_uri": {redirectURI}}, out: &out})
	if err != nil {
		return nil, err
	}
	return &out, nil
}

// OIDCCallback finishes the sign-in with the code and state the provider
// sent to redirectURI (POST /api/auth/oidc/callback) and returns the new
// session, as Login does.
func (c *Client) OIDCCallback(ctx context.Context, code, state, redirectURI string) (Tokens, *api.User, error) {
	var out api.TokenResponse
	_, err := c.do(ctx, &call{method: "POST", path: "/api/auth/oidc/callback", anonymous: true,
		body: api.OIDCCallbackRequest{Code: code, State: state, RedirectURI: redirectURI}, out: &out})
	if err != nil {
		return Tokens{}, nil, err
	}
	return tokensFrom(&out, c.now()), out.User, nil
}

// LogoutEndpoint returns the identity provider's logout URL (GET
// /api/oauth/logout-endpoint).
func (c *Client) LogoutEndpoint(ctx context.Context) (string, error) {
	var out api.LogoutEndpoint
	_, err := c.do(ctx, &call{method: "GET", path: "/api/oauth/logout-endpoint", anonymous: true, idempotent: true, out: &out})
	return out.LogoutEndpoint, err
}
