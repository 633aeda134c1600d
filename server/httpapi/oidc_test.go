package httpapi_test

import (
	"net"
	"net/http"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/photoctl/photoctl/server/api"
	"github.com/photoctl/photoctl/server/app"
	"github.com/photoctl/photoctl/server/servertest"
	"github.com/photoctl/photoctl/server/servertest/oidcprovider"
)

// oidcRedirect is where the provider sends the browser back; the tests stop
// there and read the code (nothing listens on it).
const oidcRedirect = "http://127.0.0.1:9/callback"

// withProvider points the server at the test provider.
func withProvider(p *oidcprovider.Provider) func(*app.Config) {
	return func(c *app.Config) {
		c.OIDC.Issuer, c.OIDC.ClientID, c.OIDC.ClientSecret = p.Issuer, oidcprovider.ClientID, oidcprovider.ClientSecret
		c.OIDC.Timeout = 5 * time.Second
	}
}

// oidcStart starts a sign-in and returns the server's answer.
func oidcStart(t *testing.T, s *servertest.Server) api.OIDCStartResponse {
	t.Helper()
	out := servertest.Expect[api.OIDCStartResponse](t, s.Do("GET", "/api/auth/oidc/start?redirect_uri="+url.QueryEscape(oidcRedirect), "", nil), http.StatusOK)
	require.NotEmpty(t, out.State)
	return out
}

// authorize plays the browser: it follows the authorize URL through the
// provider's login to the redirect and returns the code and state there.
func authorize(t *testing.T, authorizeURL string) (code, state string) {
	t.Helper()
	c := &http.Client{Timeout: 10 * time.Second, CheckRedirect: func(req *http.Request, _ []*http.Request) error {
		if strings.HasPrefix(req.URL.String(), oidcRedirect) {
			return http.ErrUseLastResponse
		}
		return nil
	}}
	resp, err := c.Get(authorizeURL)
	require.NoError(t, err)
	resp.Body.Close()
	require.Equal(t, http.StatusFound, resp.StatusCode, "the provider redirects back with a code")
	loc, err := url.Parse(resp.Header.Get("Location"))
	require.NoError(t, err)
	require.NotEmpty(t, loc.Query().Get("code"), "redirect: %s", loc)
	return loc.Query().Get("code"), loc.Query().Get("state")
}

func oidcCallback(s *servertest.Server, code, state string) *servertest.Response {
	return s.Do("POST", "/api/auth/oidc/callback", "", api.OIDCCallbackRequest{Code: code, State: state, RedirectURI: oidcRedirect})
}

// oidcSignIn runs a whole sign-in as subject and returns the callback's answer.
func oidcSignIn(t *testing.T, s *servertest.Server, p *oidcprovider.Provider, subject string) *servertest.Response {
	t.Helper()
	p.SignInAs(subject)
	start := oidcStart(t, s)
	code, state := authorize(t, start.AuthorizeURL)
	require.Equal(t, start.State, state)
	return oidcCallback(s, code, state)
}

func requireTokens(t *testing.T, r *servertest.Response) api.TokenResponse {
	t.Helper()
	tok := servertest.Expect[api.TokenResponse](t, r, http.StatusOK)
	require.NotEmpty(t, tok.AccessToken)
	require.NotEmpty(t, tok.RefreshToken)
	require.Equal(t, "Bearer", tok.TokenType)
	require.NotNil(t, tok.User)
	return tok
}

func TestOIDCSignInCreatesAnAccountOnce(t *testing.T) {
	p := oidcprovider.Start(t)
	p.AddUser(oidcprovider.User{Subject: "sub-new", Email: "new@example.com", EmailVerified: true, FirstName: "Nora", LastName: "New"})
	s := servertest.Start(t, withProvider(p))

	first := requireTokens(t, oidcSignIn(t, s, p, "sub-new"))
	require.Equal(t, "new@example.com", first.User.Email)
	require.Equal(t, "Nora", first.User.FirstName)

	me := s.Do("GET", "/api/users/me", first.AccessToken, nil)
	require.Equal(t, http.StatusOK, me.Status, "the session works: %s", me.Body)
	libs := s.Do("GET", "/api/libraries", first.AccessToken, nil).Map(t)
	require.Len(t, libs["data"], 1, "a new account starts with its first library")

	again := requireTokens(t, oidcSignIn(t, s, p, "sub-new"))
	require.Equal(t, first.User.ID, again.User.ID, "the linked subject signs in to the same account")

	r := s.Do("POST", "/api/auth/refresh", "", api.RefreshRequest{RefreshToken: again.RefreshToken})
	require.Equal(t, http.StatusOK, r.Status, "the session refreshes like a password one: %s", r.Body)
}

func TestOIDCRefusesANewIdentityWhenAccountCreationIsOff(t *testing.T) {
	p := oidcprovider.Start(t)
	p.AddUser(oidcprovider.User{Subject: "sub-x", Email: "stranger@example.com", EmailVerified: true})
	s := servertest.Start(t, withProvider(p), func(c *app.Config) { c.OIDC.CreateAccounts = false })

	d := requireDetail(t, oidcSignIn(t, s, p, "sub-x"), http.StatusForbidden)
	require.Contains(t, d, "does not create accounts")
}

func TestOIDCLinksAnAccountByVerifiedEmail(t *testing.T) {
	p := oidcprovider.Start(t)
	s := servertest.Start(t, withProvider(p), func(c *app.Config) { c.OIDC.CreateAccounts = false })
	u := s.CreateUser()
	p.AddUser(oidcprovider.User{Subject: "sub-unverified", Email: u.Email, EmailVerified: false})
	p.AddUser(oidcprovider.User{Subject: "sub-a", Email: u.Email, EmailVerified: true})
	p.AddUser(oidcprovider.User{Subject: "sub-b", Email: u.Email, EmailVerified: true})

	d := requireDetail(t, oidcSignIn(t, s, p, "sub-unverified"), http.StatusForbidden)
	require.Contains(t, d, "not verified")

	tok := requireTokens(t, oidcSignIn(t, s, p, "sub-a"))
	require.Equal(t, u.ID, tok.User.ID, "the verified e-mail links the existing account")
	s.Login(u) // the password still works

	t.Run("another subject with the same e-mail is a conflict, every time", func(t *testing.T) {
		for range 2 {
			d := requireDetail(t, oidcSignIn(t, s, p, "sub-b"), http.StatusConflict)
			require.Contains(t, d, "linked to another identity")
		}
		tok := requireTokens(t, oidcSignIn(t, s, p, "sub-a"))
		require.Equal(t, u.ID, tok.User.ID, "the linked subject still signs in")
	})

	t.Run("a deactivated account cannot sign in", func(t *testing.T) {
		s.SetActive(u.ID, false)
		t.Cleanup(func() { s.SetActive(u.ID, true) })
		requireDetail(t, oidcSignIn(t, s, p, "sub-a"), http.StatusForbidden)
	})
}

func TestOIDCStateIsSingleUseAndExpires(t *testing.T) {
	p := oidcprovider.Start(t)
	p.AddUser(oidcprovider.User{Subject: "sub-s", Email: "state@example.com", EmailVerified: true})
	s := servertest.Start(t, withProvider(p))
	p.SignInAs("sub-s")

	start := oidcStart(t, s)
	code, state := authorize(t, start.AuthorizeURL)
	requireTokens(t, oidcCallback(s, code, state))
	r := oidcCallback(s, code, state)
	require.Equal(t, http.StatusUnprocessableEntity, r.Status, "a used state: %s", r.Body)
	require.Contains(t, string(r.Body), `"loc":["body","state"]`)

	r = oidcCallback(s, code, "never-issued")
	require.Equal(t, http.StatusUnprocessableEntity, r.Status, "an unknown state: %s", r.Body)

	start = oidcStart(t, s)
	code, state = authorize(t, start.AuthorizeURL)
	s.Clock.Advance(11 * time.Minute)
	t.Cleanup(func() { s.Clock.Advance(-11 * time.Minute) })
	r = oidcCallback(s, code, state)
	require.Equal(t, http.StatusUnprocessableEntity, r.Status, "an expired state: %s", r.Body)

	t.Run("the redirect_uri must be the one the sign-in started with", func(t *testing.T) {
		s.Clock.Advance(-11 * time.Minute)
		t.Cleanup(func() { s.Clock.Advance(11 * time.Minute) })
		start := oidcStart(t, s)
		code, state := authorize(t, start.AuthorizeURL)
		r := s.Do("POST", "/api/auth/oidc/callback", "", api.OIDCCallbackRequest{Code: code, State: state,
			RedirectURI: "http://127.0.0.1:9/elsewhere"})
		require.Equal(t, http.StatusUnprocessableEntity, r.Status, "body: %s", r.Body)
		require.Contains(t, string(r.Body), `"loc":["body","redirect_uri"]`)
	})
	t.Run("bad requests are 422", func(t *testing.T) {
		r := s.Do("GET", "/api/auth/oidc/start", "", nil)
		require.Equal(t, http.StatusUnprocessableEntity, r.Status, "no redirect_uri: %s", r.Body)
		r = s.Do("GET", "/api/auth/oidc/start?redirect_uri=not-a-url", "", nil)
		require.Equal(t, http.StatusUnprocessableEntity, r.Status, "relative redirect_uri: %s", r.Body)
		r = s.Do("POST", "/api/auth/oidc/callback", "", `{"code":"x"}`)
		require.Equal(t, http.StatusUnprocessableEntity, r.Status, "missing fields: %s", r.Body)
	})
}

func TestOIDCProviderDownIs503AndPasswordsStillWork(t *testing.T) {
	p := oidcprovider.Start(t)
	p.AddUser(oidcprovider.User{Subject: "sub-d", Email: "down@example.com", EmailVerified: true})
	s := servertest.Start(t, withProvider(p))
	u := s.CreateUser()
	p.SignInAs("sub-d")

	start := oidcStart(t, s)
	code, state := authorize(t, start.AuthorizeURL)
	p.Stop()
	requireDetail(t, oidcCallback(s, code, state), http.StatusServiceUnavailable)
	s.Login(u)
}

func TestOIDCDiscoveryIsRetriedUntilTheProviderIsUp(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err)
	addr := ln.Addr().String()
	require.NoError(t, ln.Close())
	s := servertest.Start(t, func(c *app.Config) {
		c.OIDC.Issuer, c.OIDC.ClientID, c.OIDC.ClientSecret = "http://"+addr, oidcprovider.ClientID, oidcprovider.ClientSecret
	})
	u := s.CreateUser()

	requireDetail(t, s.Do("GET", "/api/auth/oidc/start?redirect_uri="+url.QueryEscape(oidcRedirect), "", nil),
		http.StatusServiceUnavailable)
	requireDetail(t, s.Do("GET", "/api/oauth/logout-endpoint", "", nil), http.StatusServiceUnavailable)
	s.Login(u)

	ln, err = net.Listen("tcp", addr)
	require.NoError(t, err)
	p := oidcprovider.StartOn(t, ln)
	p.AddUser(oidcprovider.User{Subject: "sub-late", Email: "late@example.com", EmailVerified: true})
	requireTokens(t, oidcSignIn(t, s, p, "sub-late"))
}

func TestOIDCLogoutEndpointComesFromDiscovery(t *testing.T) {
	p := oidcprovider.Start(t)
	s := servertest.Start(t, withProvider(p))
	r := s.Do("GET", "/api/oauth/logout-endpoint", "", nil)
	require.Equal(t, http.StatusOK, r.Status, "no credential needed: %s", r.Body)
	require.JSONEq(t, `{"logout_endpoint":"`+p.Issuer+`/end_session"}`, string(r.Body))
}

func TestOIDCRoutesWithoutAProviderAre404(t *testing.T) {
	s := servertest.Start(t)
	for _, r := range []*servertest.Response{
		s.Do("GET", "/api/auth/oidc/start?redirect_uri="+url.QueryEscape(oidcRedirect), "", nil),
		s.Do("POST", "/api/auth/oidc/callback", "", api.OIDCCallbackRequest{Code: "c", State: "s", RedirectURI: oidcRedirect}),
		s.Do("GET", "/api/oauth/logout-endpoint", "", nil),
	} {
		require.Equal(t, "no identity provider is configured", requireDetail(t, r, http.StatusNotFound))
	}
}
