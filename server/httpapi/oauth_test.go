package httpapi_test

import (
	"context"
	"errors"
	"net/http"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
	"golang.org/x/oauth2"

	"github.com/photoctl/photoctl/server/api"
	"github.com/photoctl/photoctl/server/app"
	"github.com/photoctl/photoctl/server/servertest"
)

const oauthRedirect = "http://127.0.0.1:9/callback"

// adminSession creates a superuser and signs it in.
func adminSession(t *testing.T, s *servertest.Server) string {
	t.Helper()
	u := servertest.User{Email: "admin@example.com", Password: "correct horse battery"}
	_, err := s.App().CreateUser(context.Background(), app.NewUser{Email: u.Email, Password: u.Password,
		FirstName: "Admin", Superuser: true})
	require.NoError(t, err)
	return s.Login(u).AccessToken
}

func registerClient(t *testing.T, s *servertest.Server, admin string, req api.OAuthClientCreateRequest) api.OAuthClientCreated {
	t.Helper()
	if req.Name == "" {
		req.Name = "Photo frame"
	}
	if req.RedirectURIs == nil {
		req.RedirectURIs = []string{oauthRedirect}
	}
	return servertest.Expect[api.OAuthClientCreated](t, s.Do("POST", "/api/oauth/clients", admin, req), http.StatusCreated)
}

// thirdParty is a third-party app using golang.org/x/oauth2 against the
// real server.
type thirdParty struct {
	t   *testing.T
	s   *servertest.Server
	cfg oauth2.Config
}

func newThirdParty(t *testing.T, s *servertest.Server, c api.OAuthClientCreated, scopes ...string) *thirdParty {
	style := oauth2.AuthStyleInHeader
	if c.ClientSecret == "" {
		style = oauth2.AuthStyleInParams
	}
	return &thirdParty{t: t, s: s, cfg: oauth2.Config{ClientID: c.ID, ClientSecret: c.ClientSecret,
		RedirectURL: oauthRedirect, Scopes: scopes,
		Endpoint: oauth2.Endpoint{AuthURL: s.URL + "/api/oauth/authorize", TokenURL: s.URL + "/api/oauth/token",
			AuthStyle: style}}}
}

// authorize sends the user's browser (holding a first-party session) to
// the authorize URL and returns the redirect it gets, unfollowed.
func (p *thirdParty) authorize(session, authURL string) (int, *url.URL) {
	p.t.Helper()
	req, err := http.NewRequest("GET", authURL, nil)
	require.NoError(p.t, err)
	req.Header.Set("Authorization", "Bearer "+session)
	noFollow := &http.Client{Timeout: 30 * time.Second,
		CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	resp, err := noFollow.Do(req)
	require.NoError(p.t, err)
	defer resp.Body.Close()
	loc, err := url.Parse(resp.Header.Get("Location"))
	require.NoError(p.t, err)
	return resp.StatusCode, loc
}

// code runs the authorize step with a fresh PKCE verifier.
func (p *thirdParty) code(session string) (code, verifier string) {
	p.t.Helper()
	verifier = oauth2.GenerateVerifier()
	status, loc := p.authorize(session, p.cfg.AuthCodeURL("st4te-xyz", oauth2.S256ChallengeOption(verifier)))
	require.Equal(p.t, http.StatusFound, status)
	require.Equal(p.t, "st4te-xyz", loc.Query().Get("state"))
	require.NotEmpty(p.t, loc.Query().Get("code"), "redirect: %s", loc)
	return loc.Query().Get("code"), verifier
}

func (p *thirdParty) tokens(session string) *oauth2.Token {
	p.t.Helper()
	code, verifier := p.code(session)
	tok, err := p.cfg.Exchange(context.Background(), code, oauth2.VerifierOption(verifier))
	require.NoError(p.t, err)
	return tok
}

func (p *thirdParty) refresh(refreshToken string) (*oauth2.Token, error) {
	return p.cfg.TokenSource(context.Background(), &oauth2.Token{RefreshToken: refreshToken}).Token()
}

func requireOAuthError(t *testing.T, err error, code string) {
	t.Helper()
	var re *oauth2.RetrieveError
	require.True(t, errors.As(err, &re), "want an OAuth error, got %v", err)
	require.Equal(t, code, re.ErrorCode, "%s", re.Body)
}

func TestOAuthCodeFlow(t *testing.T) {
	s := servertest.Start(t)
	admin := adminSession(t, s)
	client := registerClient(t, s, admin, api.OAuthClientCreateRequest{Scopes: []string{"asset.read", "user.read", "album.read"}})
	require.Regexp(t, `^oauthclient_[0-9a-z]{26}$`, client.ID)
	require.NotEmpty(t, client.ClientSecret)
	user, session := s.Session()
	app := newThirdParty(t, s, client, "asset.read", "user.read")

	tok := app.tokens(session)
	require.Equal(t, "Bearer", tok.Type())
	require.NotEmpty(t, tok.RefreshToken)
	require.InDelta(t, (15 * time.Minute).Seconds(), time.Until(tok.Expiry).Seconds(), 30)
	require.Equal(t, "asset.read user.read", tok.Extra("scope"))

	t.Run("the token acts as the user on a listed read", func(t *testing.T) {
		r := s.Do("GET", "/api/users/me", tok.AccessToken, nil)
		require.Equal(t, http.StatusOK, r.Status, "%s", r.Body)
		require.Equal(t, user.ID, r.Map(t)["id"])
		require.Equal(t, http.StatusOK, s.Do("GET", "/api/assets", tok.AccessToken, nil).Status)
	})
	t.Run("an action outside the granted scopes is 403", func(t *testing.T) {
		r := s.Do("GET", "/api/albums", tok.AccessToken, nil)
		require.Equal(t, http.StatusForbidden, r.Status, "%s", r.Body)
		r = s.Do("PATCH", "/api/users/me/preferences", tok.AccessToken, map[string]any{})
		require.Equal(t, http.StatusForbidden, r.Status, "%s", r.Body)
	})
	t.Run("API-key management and sharing operations refuse OAuth tokens with 403", func(t *testing.T) {
		r := s.Do("GET", "/api/api-keys", tok.AccessToken, nil)
		require.Equal(t, http.StatusForbidden, r.Status, "%s", r.Body)
		lib := s.Libraries(session)[0]
		r = s.Do("POST", "/api/libraries/"+lib.ID+"/invitations", tok.AccessToken, map[string]any{"role": "viewer"})
		require.Equal(t, http.StatusForbidden, r.Status, "%s", r.Body)
		require.Equal(t, "first_party_session_required", r.Map(t)["code"])
		r = s.Do("GET", "/api/oauth/authorize?client_id="+client.ID, tok.AccessToken, nil)
		require.Equal(t, http.StatusForbidden, r.Status, "an OAuth token cannot consent to more")
	})
	t.Run("a wrong PKCE verifier is invalid_grant", func(t *testing.T) {
		code, _ := app.code(session)
		_, err := app.cfg.Exchange(context.Background(), code, oauth2.VerifierOption(oauth2.GenerateVerifier()))
		requireOAuthError(t, err, "invalid_grant")
	})
	t.Run("a missing PKCE verifier is refused", func(t *testing.T) {
		code, _ := app.code(session)
		_, err := app.cfg.Exchange(context.Background(), code)
		require.Error(t, err)
	})
	t.Run("a code is single-use; replaying it revokes what it issued", func(t *testing.T) {
		code, verifier := app.code(session)
		first, err := app.cfg.Exchange(context.Background(), code, oauth2.VerifierOption(verifier))
		require.NoError(t, err)
		_, err = app.cfg.Exchange(context.Background(), code, oauth2.VerifierOption(verifier))
		requireOAuthError(t, err, "invalid_grant")
		require.Equal(t, http.StatusUnauthorized, s.Do("GET", "/api/users/me", first.AccessToken, nil).Status)
	})
	t.Run("the wrong client secret is invalid_client", func(t *testing.T) {
		code, verifier := app.code(session)
		bad := app.cfg
		bad.ClientSecret = "oauthsecret_wrong"
		_, err := bad.Exchange(context.Background(), code, oauth2.VerifierOption(verifier))
		requireOAuthError(t, err, "invalid_client")
	})
}

func TestOAuthRefreshRotation(t *testing.T) {
	s := servertest.Start(t)
	client := registerClient(t, s, adminSession(t, s), api.OAuthClientCreateRequest{Scopes: []string{"all"}})
	_, session := s.Session()
	app := newThirdParty(t, s, client, "user.read")
	first := app.tokens(session)

	second, err := app.refresh(first.RefreshToken)
	require.NoError(t, err)
	require.NotEqual(t, first.RefreshToken, second.RefreshToken, "each use returns a new refresh token")
	require.NotEqual(t, first.AccessToken, second.AccessToken)
	require.Equal(t, http.StatusOK, s.Do("GET", "/api/users/me", second.AccessToken, nil).Status)

	third, err := app.refresh(second.RefreshToken)
	require.NoError(t, err)

	// Replaying a rotated refresh token means it leaked: the family ends.
	_, err = app.refresh(first.RefreshToken)
	requireOAuthError(t, err, "invalid_grant")
	_, err = app.refresh(third.RefreshToken)
	requireOAuthError(t, err, "invalid_grant")
	require.Equal(t, http.StatusUnauthorized, s.Do("GET", "/api/users/me", third.AccessToken, nil).Status)

	t.Run("another authorization of the same app is a separate family", func(t *testing.T) {
		other := app.tokens(session)
		require.Equal(t, http.StatusOK, s.Do("GET", "/api/users/me", other.AccessToken, nil).Status)
		_, err := app.refresh(other.RefreshToken)
		require.NoError(t, err)
	})
}

func TestOAuthTokensEnd(t *testing.T) {
	s := servertest.Start(t)
	admin := adminSession(t, s)
	client := registerClient(t, s, admin, api.OAuthClientCreateRequest{Scopes: []string{"user.read"}})
	app := newThirdParty(t, s, client, "user.read")

	t.Run("a deactivated user's tokens are 401 and do not refresh", func(t *testing.T) {
		u, session := s.Session()
		tok := app.tokens(session)
		s.SetActive(u.ID, false)
		require.Equal(t, http.StatusUnauthorized, s.Do("GET", "/api/users/me", tok.AccessToken, nil).Status)
		_, err := app.refresh(tok.RefreshToken)
		requireOAuthError(t, err, "invalid_grant")
	})
	t.Run("revoking the client ends its tokens at once", func(t *testing.T) {
		_, session := s.Session()
		tok := app.tokens(session)
		require.Equal(t, http.StatusOK, s.Do("GET", "/api/users/me", tok.AccessToken, nil).Status)
		require.Equal(t, http.StatusNoContent, s.Do("DELETE", "/api/oauth/clients/"+client.ID, admin, nil).Status)
		require.Equal(t, http.StatusUnauthorized, s.Do("GET", "/api/users/me", tok.AccessToken, nil).Status)
		_, err := app.refresh(tok.RefreshToken)
		requireOAuthError(t, err, "invalid_client")
		r := s.Do("GET", "/api/oauth/clients/"+client.ID, admin, nil)
		require.Equal(t, http.StatusOK, r.Status)
		require.NotNil(t, r.Map(t)["revoked_at"])
		status, _ := app.authorize(session, app.cfg.AuthCodeURL("state-123", oauth2.S256ChallengeOption(oauth2.GenerateVerifier())))
		require.Equal(t, http.StatusUnprocessableEntity, status, "a revoked client cannot be authorized")
	})
	t.Run("an expired access token is 401; a refresh brings a working one", func(t *testing.T) {
		app := newThirdParty(t, s, registerClient(t, s, admin, api.OAuthClientCreateRequest{Scopes: []string{"user.read"}}), "user.read")
		_, session := s.Session()
		tok := app.tokens(session)
		s.Clock.Advance(16 * time.Minute)
		r := s.Do("GET", "/api/users/me", tok.AccessToken, nil)
		require.Equal(t, http.StatusUnauthorized, r.Status, "%s", r.Body)
		fresh, err := app.refresh(tok.RefreshToken)
		require.NoError(t, err)
		require.Equal(t, http.StatusOK, s.Do("GET", "/api/users/me", fresh.AccessToken, nil).Status)
	})
}

func TestOAuthPublicClient(t *testing.T) {
	s := servertest.Start(t)
	client := registerClient(t, s, adminSession(t, s), api.OAuthClientCreateRequest{Public: true,
		Scopes: []string{"user.read"}})
	require.Empty(t, client.ClientSecret)
	require.True(t, client.Public)
	_, session := s.Session()
	app := newThirdParty(t, s, client, "user.read")
	tok := app.tokens(session)
	require.Equal(t, http.StatusOK, s.Do("GET", "/api/users/me", tok.AccessToken, nil).Status)
	next, err := app.refresh(tok.RefreshToken)
	require.NoError(t, err)
	require.NotEmpty(t, next.AccessToken)
}

func TestOAuthAuthorizeErrors(t *testing.T) {
	s := servertest.Start(t)
	client := registerClient(t, s, adminSession(t, s), api.OAuthClientCreateRequest{Scopes: []string{"asset.read"}})
	_, session := s.Session()
	app := newThirdParty(t, s, client, "asset.read")
	challenge := oauth2.S256ChallengeOption(oauth2.GenerateVerifier())

	t.Run("an untrusted redirect is a 422, never followed", func(t *testing.T) {
		for name, mutate := range map[string]func(*oauth2.Config){
			"unknown client":             func(c *oauth2.Config) { c.ClientID = "oauthclient_nope" },
			"unregistered redirect URI":  func(c *oauth2.Config) { c.RedirectURL = "http://127.0.0.1:9/other" },
			"redirect URI differs a bit": func(c *oauth2.Config) { c.RedirectURL = oauthRedirect + "/" },
		} {
			cfg := app.cfg
			mutate(&cfg)
			p := &thirdParty{t: t, s: s, cfg: cfg}
			status, loc := p.authorize(session, cfg.AuthCodeURL("state-123", challenge))
			require.Equal(t, http.StatusUnprocessableEntity, status, name)
			require.Empty(t, loc.String(), name)
		}
	})
	t.Run("errors after the redirect is trusted go to the redirect URI", func(t *testing.T) {
		cases := map[string]struct {
			url  string
			want string
		}{
			"a scope the client may not ask for": {strings.Replace(app.cfg.AuthCodeURL("state-123", challenge), "scope=asset.read",
				"scope=asset.read+album.read", 1), "invalid_scope"},
			"no scope":              {strings.Replace(app.cfg.AuthCodeURL("state-123", challenge), "scope=asset.read", "scope=", 1), "invalid_scope"},
			"no PKCE challenge":     {app.cfg.AuthCodeURL("state-123"), "invalid_request"},
			"plain PKCE":            {app.cfg.AuthCodeURL("state-123", oauth2.SetAuthURLParam("code_challenge", strings.Repeat("a", 43)), oauth2.SetAuthURLParam("code_challenge_method", "plain")), "invalid_request"},
			"an implicit-grant ask": {strings.Replace(app.cfg.AuthCodeURL("state-123", challenge), "response_type=code", "response_type=token", 1), "unsupported_response_type"},
		}
		for name, tc := range cases {
			status, loc := app.authorize(session, tc.url)
			require.Equal(t, http.StatusFound, status, name)
			require.Equal(t, "127.0.0.1:9", loc.Host, name)
			require.Equal(t, tc.want, loc.Query().Get("error"), "%s: %s", name, loc)
			require.Empty(t, loc.Query().Get("code"), name)
		}
	})
	t.Run("without a session it is 401", func(t *testing.T) {
		require.Equal(t, http.StatusUnauthorized, s.Do("GET", "/api/oauth/authorize?client_id="+client.ID, "", nil).Status)
	})
}

func TestOAuthClientAdministration(t *testing.T) {
	s := servertest.Start(t)
	admin := adminSession(t, s)
	_, session := s.Session()

	t.Run("a non-admin cannot register, list or revoke clients", func(t *testing.T) {
		r := s.Do("POST", "/api/oauth/clients", session, api.OAuthClientCreateRequest{Name: "x",
			RedirectURIs: []string{oauthRedirect}, Scopes: []string{"all"}})
		require.Equal(t, http.StatusForbidden, r.Status, "%s", r.Body)
		require.Equal(t, http.StatusForbidden, s.Do("GET", "/api/oauth/clients", session, nil).Status)
		require.Equal(t, http.StatusForbidden, s.Do("DELETE", "/api/oauth/clients/oauthclient_x", session, nil).Status)
	})
	t.Run("an admin's API key cannot manage clients", func(t *testing.T) {
		key := s.CreateKey(admin, []string{"all"}, nil)
		require.Equal(t, http.StatusForbidden, s.Do("GET", "/api/oauth/clients", key, nil).Status)
	})
	t.Run("bad registrations are 422 at the field", func(t *testing.T) {
		cases := map[string]struct {
			req api.OAuthClientCreateRequest
			loc []any
		}{
			"no redirect URI":         {api.OAuthClientCreateRequest{Name: "a", Scopes: []string{"all"}}, []any{"body", "redirect_uris"}},
			"plain http off loopback": {api.OAuthClientCreateRequest{Name: "a", RedirectURIs: []string{"http://example.com/cb"}, Scopes: []string{"all"}}, []any{"body", "redirect_uris", float64(0)}},
			"a fragment":              {api.OAuthClientCreateRequest{Name: "a", RedirectURIs: []string{"https://example.com/cb#x"}, Scopes: []string{"all"}}, []any{"body", "redirect_uris", float64(0)}},
			"no scope":                {api.OAuthClientCreateRequest{Name: "a", RedirectURIs: []string{oauthRedirect}}, []any{"body", "scopes"}},
			"an unknown scope":        {api.OAuthClientCreateRequest{Name: "a", RedirectURIs: []string{oauthRedirect}, Scopes: []string{"asset.read", "admin"}}, []any{"body", "scopes", float64(1)}},
			"a blank name":            {api.OAuthClientCreateRequest{Name: " ", RedirectURIs: []string{oauthRedirect}, Scopes: []string{"all"}}, []any{"body", "name"}},
		}
		for name, tc := range cases {
			r := s.Do("POST", "/api/oauth/clients", admin, tc.req)
			require.Equal(t, http.StatusUnprocessableEntity, r.Status, "%s: %s", name, r.Body)
			detail := r.Map(t)["detail"].([]any)
			require.Equal(t, tc.loc, detail[0].(map[string]any)["loc"], name)
		}
	})
	t.Run("clients list newest first without secrets", func(t *testing.T) {
		a := registerClient(t, s, admin, api.OAuthClientCreateRequest{Name: "A", Scopes: []string{"all"}})
		b := registerClient(t, s, admin, api.OAuthClientCreateRequest{Name: "B", Scopes: []string{"all"},
			RedirectURIs: []string{"https://app.example.com/cb", "com.example.app:/cb"}})
		r := s.Do("GET", "/api/oauth/clients?limit=1", admin, nil)
		page := servertest.Expect[api.Page[api.OAuthClient]](t, r, http.StatusOK)
		require.NotContains(t, string(r.Body), a.ClientSecret)
		require.Len(t, page.Data, 1)
		require.Equal(t, b.ID, page.Data[0].ID)
		require.True(t, page.HasMore)
		require.Equal(t, http.StatusNotFound, s.Do("DELETE", "/api/oauth/clients/oauthclient_nope", admin, nil).Status)
	})
}
