package auth

import (
	"context"
	"crypto/hmac"
	"crypto/sha256"
	"net/http"
	"slices"
	"time"

	"github.com/ory/fosite"
	fositeoauth2 "github.com/ory/fosite/handler/oauth2"
	"github.com/ory/fosite/handler/pkce"
	enigma "github.com/ory/fosite/token/hmac"

	"github.com/photoctl/photoctl/server/catalog"
)

// OAuthConfig sets the lifetimes of the OAuth authorization server's
// credentials.
type OAuthConfig struct {
	AccessTTL  time.Duration // access tokens (JWT)
	CodeTTL    time.Duration // authorization codes
	RefreshTTL time.Duration // refresh tokens, counted from each rotation
}

// OAuthServer is the authorization server for third-party apps (decisions
// "Authentication", third-party OAuth): the authorization-code grant with
// S256 PKCE and rotating refresh tokens. The protocol is ory/fosite's; this
// type supplies storage (fositeStore), the JWT access tokens that
// Service.Authenticate accepts, and the consent rule: the signed-in
// first-party session calling the authorize endpoint is the consent.
type OAuthServer struct {
	svc      *Service
	cfg      OAuthConfig
	provider fosite.OAuth2Provider
}

// NewOAuthServer builds the server on the signing key of svc.
func NewOAuthServer(svc *Service, cfg OAuthConfig) *OAuthServer {
	// The HMAC secret of codes and refresh tokens is derived from the JWT
	// signing key, so it is shared by every process on the database.
	mac := hmac.New(sha256.New, svc.key)
	mac.Write([]byte("photoctl oauth token hmac"))
	fc := &fosite.Config{
		AccessTokenLifespan:            cfg.AccessTTL,
		AuthorizeCodeLifespan:          cfg.CodeTTL,
		RefreshTokenLifespan:           cfg.RefreshTTL,
		GlobalSecret:                   mac.Sum(nil),
		EnforcePKCE:                    true,
		EnablePKCEPlainChallengeMethod: false,
		ScopeStrategy:                  actionScopeStrategy,
		RefreshTokenScopes:             []string{}, // every code grant gets a refresh token
		ClientSecretsHasher:            sha256Hasher{},
		SendDebugMessagesToClients:     false,
	}
	st := &fositeStore{svc: svc}
	codes := fositeoauth2.NewHMACSHAStrategy(&enigma.HMACStrategy{Config: fc}, fc)
	access := &jwtAccessStrategy{svc: svc, ttl: cfg.AccessTTL}
	explicit := &fositeoauth2.AuthorizeExplicitGrantHandler{
		AccessTokenStrategy: access, RefreshTokenStrategy: codes, AuthorizeCodeStrategy: codes,
		CoreStorage: st, TokenRevocationStorage: st, Config: fc,
	}
	refresh := &fositeoauth2.RefreshTokenGrantHandler{
		AccessTokenStrategy: access, RefreshTokenStrategy: codes, TokenRevocationStorage: st, Config: fc,
	}
	challenge := &pkce.Handler{AuthorizeCodeStrategy: codes, Storage: st, Config: fc}
	fc.AuthorizeEndpointHandlers.Append(explicit)
	fc.AuthorizeEndpointHandlers.Append(challenge)
	fc.TokenEndpointHandlers.Append(explicit)
	fc.TokenEndpointHandlers.Append(refresh)
	fc.TokenEndpointHandlers.Append(challenge)
	return &OAuthServer{svc: svc, cfg: cfg, provider: fosite.NewOAuth2Provider(st, fc)}
}

// Authorize answers GET /api/oauth/authorize for the signed-in user p (the
// consent). When the client and redirect URI are trusted it writes a 302 to
// the redirect URI carrying either the code and state or an RFC 6749 error
// and returns nil. Otherwise it writes nothing and returns a validation
// error: an untrusted redirect must never be followed.
func (o *OAuthServer) Authorize(ctx context.Context, w http.ResponseWriter, r *http.Request, p *catalog.Principal) error {
	if err := o.checkRedirect(ctx, r); err != nil {
		return err
	}
	w = redirectFound{w}
	ar, err := o.provider.NewAuthorizeRequest(ctx, r)
	if err != nil {
		o.provider.WriteAuthorizeError(ctx, w, ar, err)
		return nil
	}
	if len(ar.GetRequestedScopes()) == 0 {
		o.provider.WriteAuthorizeError(ctx, w, ar, fosite.ErrInvalidScope.WithHint("Ask for at least one scope (API-key action names)."))
		return nil
	}
	for _, sc := range ar.GetRequestedScopes() {
		ar.GrantScope(sc)
	}
	ar.SetID(catalog.NewID(catalog.PrefixOAuthGrant, o.svc.now()))
	resp, err := o.provider.NewAuthorizeResponse(ctx, ar, &fosite.DefaultSession{Subject: p.User.ID})
	if err != nil {
		o.provider.WriteAuthorizeError(ctx, w, ar, err)
		return nil
	}
	o.provider.WriteAuthorizeResponse(ctx, w, ar, resp)
	return nil
}

// checkRedirect refuses, without redirecting, a request whose client is
// unknown or revoked or whose redirect_uri is not registered exactly.
func (o *OAuthServer) checkRedirect(ctx context.Context, r *http.Request) error {
	q := r.URL.Query()
	id := q.Get("client_id")
	c, err := o.svc.store.Read().OAuth().GetClient(ctx, id)
	if err != nil || c.RevokedAt != nil {
		return catalog.InvalidField("value_error", "unknown or revoked OAuth client", id, "query", "client_id")
	}
	uri := q.Get("redirect_uri")
	if !slices.Contains(c.RedirectURIs, uri) {
		return catalog.InvalidField("value_error", "redirect_uri must be one of the client's registered redirect URIs, exactly",
			uri, "query", "redirect_uri")
	}
	if m := q.Get("response_mode"); m != "" && m != "query" {
		return catalog.InvalidField("enum", "response_mode must be query", m, "query", "response_mode")
	}
	return nil
}

// Token answers POST /api/oauth/token (form-encoded) with RFC 6749 bodies:
// the tokens, or {error, error_description} with 400 or 401.
func (o *OAuthServer) Token(ctx context.Context, w http.ResponseWriter, r *http.Request) {
	ar, err := o.provider.NewAccessRequest(ctx, r, &fosite.DefaultSession{})
	if err != nil {
		o.provider.WriteAccessError(ctx, w, ar, err)
		return
	}
	resp, err := o.provider.NewAccessResponse(ctx, ar)
	if err != nil {
		o.provider.WriteAccessError(ctx, w, ar, err)
		return
	}
	o.provider.WriteAccessResponse(ctx, w, ar, resp)
}

// redirectFound answers redirects with 302 Found, the status RFC 6749
// §4.1.2 shows, where fosite uses 303.
type redirectFound struct{ http.ResponseWriter }

func (w redirectFound) WriteHeader(code int) {
	if code == http.StatusSeeOther {
		code = http.StatusFound
	}
	w.ResponseWriter.WriteHeader(code)
}

// actionScopeStrategy lets a client granted "all" ask for any single action;
// otherwise a scope must be listed exactly.
func actionScopeStrategy(haystack []string, needle string) bool {
	if slices.Contains(haystack, needle) {
		return true
	}
	return slices.Contains(haystack, string(catalog.ActionAll)) && catalog.Action(needle).Valid()
}

// sha256Hasher compares client secrets with their stored SHA-256: the
// secrets are random 32-byte values, so a fast hash is safe (as for API keys).
type sha256Hasher struct{}

func (sha256Hasher) Compare(_ context.Context, hash, data []byte) error {
	if !hmac.Equal(hash, hashSecret(string(data))) {
		return fosite.ErrInvalidClient
	}
	return nil
}

func (sha256Hasher) Hash(_ context.Context, data []byte) ([]byte, error) {
	return hashSecret(string(data)), nil
}
