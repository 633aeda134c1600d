package auth

import (
	"context"
	"fmt"
	"net"
	"net/url"

	"github.com/photoctl/photoctl/server/catalog"
	"github.com/photoctl/photoctl/server/query"
	"github.com/photoctl/photoctl/server/store"
)

// OAuthClientSecretPrefix starts every OAuth client secret.
const OAuthClientSecretPrefix = "oauthsecret_"

const maxRedirectURIs = 10

// NewOAuthClient is what an administrator registers.
type NewOAuthClient struct {
	Name         string
	RedirectURIs []string
	Scopes       []catalog.Action
	// Public clients get no secret and must use PKCE alone (native and
	// browser apps that cannot keep a secret).
	Public bool
}

var errNotAdmin = fmt.Errorf("only an administrator (superuser) can manage OAuth clients: %w", catalog.ErrForbidden)

// CreateOAuthClient registers a client and returns it with its secret,
// which exists nowhere else afterwards ("" for a public client).
func (s *Service) CreateOAuthClient(ctx context.Context, p *catalog.Principal, n NewOAuthClient) (*catalog.OAuthClient, string, error) {
	if !p.User.IsSuperuser {
		return nil, "", errNotAdmin
	}
	name, err := catalog.CleanName(n.Name, "body", "name")
	if err != nil {
		return nil, "", err
	}
	if err := validateRedirectURIs(n.RedirectURIs); err != nil {
		return nil, "", err
	}
	if len(n.Scopes) == 0 {
		return nil, "", catalog.InvalidField("too_short", "scopes must name at least one action", n.Scopes, "body", "scopes")
	}
	for i, a := range n.Scopes {
		if !a.Valid() {
			return nil, "", catalog.InvalidField("enum", "unknown action; see the API documentation for the list",
				string(a), "body", "scopes", i)
		}
	}
	now := s.now()
	c := &catalog.OAuthClient{ID: catalog.NewID(catalog.PrefixOAuthClient, now), Name: name,
		RedirectURIs: n.RedirectURIs, Scopes: n.Scopes, CreatedBy: p.User.ID, CreatedAt: now}
	secret := ""
	if !n.Public {
		if secret, c.SecretHash, err = newSecret(OAuthClientSecretPrefix); err != nil {
			return nil, "", err
		}
	}
	if err := s.store.InTx(ctx, func(r store.Repos) error { return r.OAuth().CreateClient(ctx, c) }); err != nil {
		return nil, "", err
	}
	return c, secret, nil
}

// validateRedirectURIs accepts absolute URIs without a fragment; plain
// http only on a loopback host (RFC 8252 native apps). Matching at the
// authorize endpoint is exact.
func validateRedirectURIs(uris []string) error {
	if len(uris) == 0 || len(uris) > maxRedirectURIs {
		return catalog.InvalidField("value_error", fmt.Sprintf("redirect_uris must list 1 to %d URIs", maxRedirectURIs),
			uris, "body", "redirect_uris")
	}
	for i, raw := range uris {
		u, err := url.Parse(raw)
		msg := ""
		switch {
		case err != nil || !u.IsAbs() || u.Opaque != "":
			msg = "must be an absolute URI"
		case u.Fragment != "" || u.RawFragment != "":
			msg = "must not have a fragment"
		case u.Scheme == "http" && !isLoopback(u.Hostname()):
			msg = "plain http is allowed only for loopback hosts (127.0.0.1, [::1], localhost); use https"
		case (u.Scheme == "http" || u.Scheme == "https") && u.Host == "":
			msg = "must name a host"
		}
		if msg != "" {
			return catalog.InvalidField("value_error", "redirect URI "+msg, raw, "body", "redirect_uris", i)
		}
	}
	return nil
}

func isLoopback(host string) bool {
	if host == "localhost" {
		return true
	}
	ip := net.ParseIP(host)
	return ip != nil && ip.IsLoopback()
}

// ListOAuthClients pages every client, newest first (administrators only).
func (s *Service) ListOAuthClients(ctx context.Context, p *catalog.Principal, pg query.Page) ([]catalog.OAuthClient, bool, error) {
	if !p.User.IsSuperuser {
		return nil, false, errNotAdmin
	}
	return s.store.Read().OAuth().ListClients(ctx, pg)
}

// GetOAuthClient reads one client (administrators only).
func (s *Service) GetOAuthClient(ctx context.Context, p *catalog.Principal, id string) (*catalog.OAuthClient, error) {
	if !p.User.IsSuperuser {
		return nil, errNotAdmin
	}
	return s.store.Read().OAuth().GetClient(ctx, id)
}

// RevokeOAuthClient ends a client at once: it can no longer authorize or
// exchange tokens, and every access token issued to it stops working
// (the per-request grant check sees the client's revocation).
func (s *Service) RevokeOAuthClient(ctx context.Context, p *catalog.Principal, id string) (*catalog.OAuthClient, error) {
	if !p.User.IsSuperuser {
		return nil, errNotAdmin
	}
	var c *catalog.OAuthClient
	err := s.store.InTx(ctx, func(r store.Repos) error {
		if err := r.OAuth().RevokeClient(ctx, id, s.now()); err != nil {
			return err
		}
		var err error
		c, err = r.OAuth().GetClient(ctx, id)
		return err
	})
	return c, err
}
