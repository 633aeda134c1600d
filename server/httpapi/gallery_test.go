package httpapi_test

import (
	"encoding/json"
	"io"
	"net/http"
	"net/url"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/photoctl/photoctl/server/api"
	"github.com/photoctl/photoctl/server/servertest"
)

// galleryClient talks to the gallery as a browser would, one redirect at
// a time, carrying its cookies by hand.
type galleryClient struct {
	t       *testing.T
	s       *servertest.Server
	cookies map[string]*http.Cookie
}

func newGalleryClient(t *testing.T, s *servertest.Server) *galleryClient {
	return &galleryClient{t: t, s: s, cookies: map[string]*http.Cookie{}}
}

// do sends a request with the cookies whose path covers it and keeps the
// ones the answer sets.
func (g *galleryClient) do(method, path string, body string, headers map[string]string) (*http.Response, string) {
	g.t.Helper()
	req, err := http.NewRequest(method, g.s.URL+path, strings.NewReader(body))
	require.NoError(g.t, err)
	for k, v := range headers {
		req.Header.Set(k, v)
	}
	for _, c := range g.cookies {
		if strings.HasPrefix(req.URL.Path, c.Path) {
			req.AddCookie(&http.Cookie{Name: c.Name, Value: c.Value})
		}
	}
	client := &http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	resp, err := client.Do(req)
	require.NoError(g.t, err)
	defer resp.Body.Close()
	data, err := io.ReadAll(resp.Body)
	require.NoError(g.t, err)
	for _, c := range resp.Cookies() {
		if c.MaxAge < 0 || (!c.Expires.IsZero() && c.Expires.Before(time.Now())) {
			delete(g.cookies, c.Name)
		} else {
			g.cookies[c.Name] = c
		}
	}
	return resp, string(data)
}

func (g *galleryClient) signIn(u servertest.User, next string, headers map[string]string) *http.Response {
	g.t.Helper()
	form := url.Values{"email": {u.Email}, "password": {u.Password}}.Encode()
	h := map[string]string{"Content-Type": "application/x-www-form-urlencoded"}
	for k, v := range headers {
		h[k] = v
	}
	resp, _ := g.do("POST", "/signin?next="+url.QueryEscape(next), form, h)
	return resp
}

// csrf signs in and reads the CSRF token from the timeline page's <meta>.
func (g *galleryClient) csrf() string {
	g.t.Helper()
	resp, page := g.do("GET", "/", "", nil)
	require.Equal(g.t, http.StatusOK, resp.StatusCode, page)
	m := regexp.MustCompile(`<meta name="csrf-token" content="([^"]+)">`).FindStringSubmatch(page)
	require.NotNil(g.t, m, page)
	return m[1]
}

// TestGallerySessionCookieAndCSRF: signing in through the gallery's form
// sets an HttpOnly, SameSite=Lax session cookie (Secure behind TLS) that
// the API accepts as a first-party session; a state-changing API request
// authenticated by it needs the page's CSRF token (403 in the contract's
// shape without it), while requests with an Authorization header need
// none; the cookie never carries an API key; signing out needs the token
// and ends the session.
func TestGallerySessionCookieAndCSRF(t *testing.T) {
	s := servertest.Start(t)
	u, bearer := s.Session()
	g := newGalleryClient(t, s)

	resp := g.signIn(servertest.User{Email: u.Email, Password: "wrong"}, "/", nil)
	require.Equal(t, http.StatusUnauthorized, resp.StatusCode)
	require.Empty(t, g.cookies)

	resp = g.signIn(u, "//evil.example/steal", nil)
	require.Equal(t, http.StatusSeeOther, resp.StatusCode)
	require.Equal(t, "/", resp.Header.Get("Location"), "a sign-in never sends the browser to another origin")
	session := g.cookies["photoctl_session"]
	require.NotNil(t, session)
	require.True(t, session.HttpOnly)
	require.Equal(t, http.SameSiteLaxMode, session.SameSite)
	require.Equal(t, "/", session.Path)
	require.False(t, session.Secure, "plain HTTP: not Secure")
	refresh := g.cookies["photoctl_refresh"]
	require.NotNil(t, refresh)
	require.True(t, refresh.HttpOnly)
	require.Equal(t, "/signin", refresh.Path, "the refresh token goes only to the renewal")

	behindTLS := newGalleryClient(t, s)
	behindTLS.signIn(u, "/", map[string]string{"X-Forwarded-Proto": "https"})
	require.True(t, behindTLS.cookies["photoctl_session"].Secure, "over TLS: Secure")

	// The cookie reads the API as the session does.
	r, body := g.do("GET", "/api/users/me", "", nil)
	require.Equal(t, http.StatusOK, r.StatusCode, body)
	require.Contains(t, body, u.Email)

	token := g.csrf()
	create := `{"name":"Holidays"}`
	jsonType := map[string]string{"Content-Type": "application/json"}
	for name, h := range map[string]map[string]string{
		"no token":    jsonType,
		"wrong token": {"Content-Type": "application/json", "X-CSRF-Token": token[:len(token)-2] + "xx"},
		"other session's token": {"Content-Type": "application/json",
			"X-CSRF-Token": behindTLS.csrf()},
	} {
		r, body := g.do("POST", "/api/albums", create, h)
		require.Equal(t, http.StatusForbidden, r.StatusCode, "%s: %s", name, body)
		var e api.ErrorResponse
		require.NoError(t, json.Unmarshal([]byte(body), &e), body)
		require.Contains(t, e.Detail, "CSRF", name)
	}
	r, body = g.do("POST", "/api/albums", create, map[string]string{"Content-Type": "application/json", "X-CSRF-Token": token})
	require.Equal(t, http.StatusCreated, r.StatusCode, body)

	// An Authorization header is used as it is, whatever the cookies:
	// API clients need no CSRF token.
	r, body = g.do("POST", "/api/albums", `{"name":"Work"}`,
		map[string]string{"Content-Type": "application/json", "Authorization": "Bearer " + bearer})
	require.Equal(t, http.StatusCreated, r.StatusCode, body)

	// The cookie carries a session, never an API key.
	key := s.CreateKey(bearer, []string{"all"}, nil)
	keyed := newGalleryClient(t, s)
	keyed.cookies["photoctl_session"] = &http.Cookie{Name: "photoctl_session", Value: key, Path: "/"}
	r, body = keyed.do("GET", "/api/users/me", "", nil)
	require.Equal(t, http.StatusUnauthorized, r.StatusCode, body)

	// The renewal rotates the tokens into new cookies; the CSRF token,
	// bound to the session, stays.
	old := g.cookies["photoctl_refresh"].Value
	r, body = g.do("POST", "/signin/renew", "", nil)
	require.Equal(t, http.StatusNoContent, r.StatusCode, body)
	require.NotEqual(t, old, g.cookies["photoctl_refresh"].Value)
	require.Equal(t, token, g.csrf())

	// Signing out needs the token, then ends the session.
	form := map[string]string{"Content-Type": "application/x-www-form-urlencoded"}
	r, _ = g.do("POST", "/signout", "", form)
	require.Equal(t, http.StatusForbidden, r.StatusCode)
	ended := g.cookies["photoctl_session"].Value
	r, _ = g.do("POST", "/signout", url.Values{"csrf_token": {token}}.Encode(), form)
	require.Equal(t, http.StatusSeeOther, r.StatusCode)
	require.Nil(t, g.cookies["photoctl_session"], "the cookie is cleared")
	require.Equal(t, http.StatusUnauthorized, s.Do("GET", "/api/users/me", ended, nil).Status, "the session is over")
	r2, _ := g.do("GET", "/", "", nil)
	require.Equal(t, http.StatusSeeOther, r2.StatusCode)
	require.Equal(t, "/signin?next=%2F", r2.Header.Get("Location"))
}

// TestGalleryResponsesCarrySecurityHeaders: every gallery response —
// pages, scripts, styles, redirects — has the strict
// Content-Security-Policy, nosniff and its correct content type; the API's
// file responses carry nosniff and the file's type too.
func TestGalleryResponsesCarrySecurityHeaders(t *testing.T) {
	s := servertest.Start(t)
	u, bearer := s.Session()
	g := newGalleryClient(t, s)
	g.signIn(u, "/", nil)
	page := func(path string) (*http.Response, string) { return g.do("GET", path, "", nil) }
	_, timeline := page("/")
	scripts := regexp.MustCompile(`src="(/static/[^"]+)"`).FindAllStringSubmatch(timeline, -1)
	styles := regexp.MustCompile(`href="(/static/[^"]+)"`).FindAllStringSubmatch(timeline, -1)
	require.Len(t, scripts, 1)
	require.NotEmpty(t, styles) // app.css, and a page's own
	a := s.UploadAsset(bearer, "a.jpg", servertest.JPEG(t, 32, 32, 1), nil)
	cases := []struct{ path, status, contentType string }{
		{"/", "200", "text/html; charset=utf-8"},
		{"/photos/" + a.ID, "200", "text/html; charset=utf-8"},
		{"/stacks/stack_01", "200", "text/html; charset=utf-8"}, // a page renders for any id of the prefix
		{"/albums", "200", "text/html; charset=utf-8"},
		{"/albums/album_01", "200", "text/html; charset=utf-8"},
		{"/albums/asset_01", "404", ""},
		{"/signin", "303", ""},
		{strings.ReplaceAll(scripts[0][1], "&amp;", "&"), "200", "text/javascript; charset=utf-8"},
		{"/static/api.js", "200", "text/javascript; charset=utf-8"},
		{"/static/nothing.js", "404", ""},
	}
	for _, style := range styles {
		cases = append(cases, struct{ path, status, contentType string }{
			strings.ReplaceAll(style[1], "&amp;", "&"), "200", "text/css; charset=utf-8"})
	}
	for _, c := range cases {
		r, body := page(c.path)
		require.Equal(t, c.status, strconv.Itoa(r.StatusCode), "%s: %s", c.path, body)
		csp := r.Header.Get("Content-Security-Policy")
		require.Contains(t, csp, "default-src 'self'", c.path)
		require.Contains(t, csp, "script-src 'self';", c.path)
		require.NotContains(t, csp, "unsafe-inline", c.path)
		require.NotContains(t, csp, "unsafe-eval", c.path)
		require.Equal(t, "nosniff", r.Header.Get("X-Content-Type-Options"), c.path)
		if c.contentType != "" {
			require.Equal(t, c.contentType, r.Header.Get("Content-Type"), c.path)
		}
		if c.status == "200" && strings.HasPrefix(c.contentType, "text/html") {
			require.Equal(t, "no-store", r.Header.Get("Cache-Control"), "pages hold the CSRF token")
			require.NotContains(t, body, "<script>", "no inline script")
			require.NotContains(t, body, "style=", "no inline style")
		}
	}
	// The original through the session cookie, as the viewer downloads it.
	r, _ := page("/api/assets/" + a.ID + "/original")
	require.Equal(t, http.StatusOK, r.StatusCode)
	require.Equal(t, "image/jpeg", r.Header.Get("Content-Type"))
	require.Equal(t, "nosniff", r.Header.Get("X-Content-Type-Options"))
	require.Contains(t, r.Header.Get("Content-Disposition"), "attachment")
}
