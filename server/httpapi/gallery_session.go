package httpapi

import (
	"crypto/subtle"
	"errors"
	"fmt"
	"net/url"
	"strings"
	"time"

	"github.com/gofiber/fiber/v2"

	"github.com/photoctl/photoctl/server/auth"
	"github.com/photoctl/photoctl/server/catalog"
	"github.com/photoctl/photoctl/server/web"
)

// oidcStateCookie binds a started sign-in through the identity provider to
// the browser that started it (no login CSRF through a forged callback).
const oidcStateCookie = "photoctl_oidc_state"

// oidcNextCookie carries where a sign-in through the identity provider
// returns (safeNext), across the provider's pages.
const oidcNextCookie = "photoctl_oidc_next"

func urlQueryEscape(s string) string { return url.QueryEscape(s) }

// safeNext is where a sign-in returns: a path of this site, never another
// origin ("//host", "/\host").
func safeNext(next string) string {
	if !strings.HasPrefix(next, "/") || strings.HasPrefix(next, "//") || strings.HasPrefix(next, `/\`) ||
		strings.HasPrefix(next, "/signin") || strings.ContainsAny(next, "\r\n") {
		return "/"
	}
	return next
}

// secure reports whether the request came over TLS (directly or, as the
// proxy says, in front of us): cookies are then marked Secure.
func secure(c *fiber.Ctx) bool { return c.Protocol() == "https" }

// setSessionCookies gives the browser the session: the access token for
// every request (pages and API), the refresh token only for /signin (the
// renewal).
func (s *Server) setSessionCookies(c *fiber.Ctx, t *auth.Tokens) {
	ttl := int(s.auth.SessionTTL().Seconds())
	setCookie(c, sessionCookie, t.AccessToken, "/", ttl)
	setCookie(c, refreshCookie, t.RefreshToken, "/signin", ttl)
}

func (s *Server) clearSessionCookies(c *fiber.Ctx) {
	clearCookie(c, sessionCookie, "/")
	clearCookie(c, refreshCookie, "/signin")
}

// setCookie sets one of the gallery's cookies: HttpOnly, SameSite=Lax,
// Secure over TLS, scoped to path, for maxAge seconds.
func setCookie(c *fiber.Ctx, name, value, path string, maxAge int) {
	c.Cookie(&fiber.Cookie{Name: name, Value: value, Path: path, HTTPOnly: true,
		Secure: secure(c), SameSite: fiber.CookieSameSiteLaxMode, MaxAge: maxAge})
}

// clearCookie removes one of the gallery's cookies.
func clearCookie(c *fiber.Ctx, name, path string) {
	c.Cookie(&fiber.Cookie{Name: name, Value: "", Path: path, HTTPOnly: true, Secure: secure(c),
		SameSite: fiber.CookieSameSiteLaxMode, MaxAge: -1, Expires: time.Unix(0, 0)})
}

// renew rotates the refresh cookie's token into new cookies; false when
// there is none or it no longer works.
func (s *Server) renew(c *fiber.Ctx) (bool, error) {
	rt := c.Cookies(refreshCookie)
	if rt == "" {
		return false, nil
	}
	t, err := s.auth.Refresh(c.UserContext(), rt)
	if errors.Is(err, catalog.ErrUnauthenticated) {
		s.clearSessionCookies(c)
		return false, nil
	}
	if err != nil {
		return false, err
	}
	s.setSessionCookies(c, t)
	return true, nil
}

// signInPage shows the sign-in form, unless the session is still alive
// or its refresh cookie renews it: then it goes on to next.
func (s *Server) signInPage(c *fiber.Ctx) error {
	next := safeNext(c.Query("next"))
	if p, err := s.pageSession(c); err != nil || p != nil {
		if err != nil {
			return err
		}
		galleryHeaders(c)
		return c.Redirect(next, fiber.StatusSeeOther)
	}
	if ok, err := s.renew(c); err != nil || ok {
		if err != nil {
			return err
		}
		galleryHeaders(c)
		return c.Redirect(next, fiber.StatusSeeOther)
	}
	return s.renderPage(c, fiber.StatusOK, "signin", s.signInForm(next, "", ""))
}

func (s *Server) signInForm(next, email, problem string) web.Page {
	p := web.Page{Title: "Sign in", Email: email, Error: problem, Next: next}
	if s.oidc.Enabled() {
		p.OIDCProvider = s.oidc.ProviderName()
	}
	return p
}

// signIn checks the form's password through the same service as
// POST /api/auth/login, with the same per-address and per-account limits,
// and sets the session cookies.
func (s *Server) signIn(c *fiber.Ctx) error {
	form, err := url.ParseQuery(string(c.Body()))
	if err != nil || !strings.HasPrefix(c.Get(fiber.HeaderContentType), fiber.MIMEApplicationForm) {
		return catalog.InvalidField("value_error", "the sign-in form must be sent as application/x-www-form-urlencoded", nil, "body")
	}
	email, password := strings.TrimSpace(form.Get("email")), form.Get("password")
	if email == "" || password == "" {
		return s.renderPage(c, fiber.StatusUnprocessableEntity, "signin", s.signInForm(safeNext(c.Query("next")), email, "Enter your e-mail and password."))
	}
	if s.loginLimiter != nil {
		for _, k := range []string{"addr:" + c.IP(), "account:" + catalog.NameKey(email)} {
			if ok, wait := s.loginLimiter.Allow(k, 1); !ok {
				return &catalog.RateLimitedError{RetryAfter: wait}
			}
		}
	}
	tokens, _, err := s.auth.Login(c.UserContext(), email, password)
	if errors.Is(err, catalog.ErrUnauthenticated) {
		return s.renderPage(c, fiber.StatusUnauthorized, "signin", s.signInForm(safeNext(c.Query("next")), email, "Incorrect e-mail or password."))
	}
	if err != nil {
		return err
	}
	s.setSessionCookies(c, tokens)
	galleryHeaders(c)
	return c.Redirect(safeNext(c.Query("next")), fiber.StatusSeeOther)
}

// renewSession is the scripts' renewal after a 401 from the API: 204 with
// new cookies, or 401. It needs no CSRF token: it changes nothing but the
// caller's own cookies, and SameSite=Lax keeps the refresh cookie off
// cross-site POSTs.
func (s *Server) renewSession(c *fiber.Ctx) error {
	galleryHeaders(c)
	c.Set(fiber.HeaderCacheControl, "no-store")
	ok, err := s.renew(c)
	if err != nil {
		return err
	}
	if !ok {
		return fmt.Errorf("no session to renew; sign in again: %w", catalog.ErrUnauthenticated)
	}
	return c.SendStatus(fiber.StatusNoContent)
}

// signOut ends the session (the form's csrf_token must be the session's)
// and clears the cookies.
func (s *Server) signOut(c *fiber.Ctx) error {
	galleryHeaders(c)
	p, err := s.pageSession(c)
	if err != nil {
		return err
	}
	if p != nil {
		form, _ := url.ParseQuery(string(c.Body()))
		if !s.auth.CheckCSRF(p.CredentialID, form.Get("csrf_token")) {
			return fiberForbidden("sign-out needs the page's CSRF token (csrf_token)")
		}
		if err := s.auth.Logout(c.UserContext(), p); err != nil {
			return err
		}
	}
	s.clearSessionCookies(c)
	return c.Redirect("/signin", fiber.StatusSeeOther)
}

// oidcSignInStart sends the browser to the identity provider, which
// returns it to /signin/oidc/callback.
func (s *Server) oidcSignInStart(c *fiber.Ctx) error {
	galleryHeaders(c)
	if !s.oidc.Enabled() {
		return fiber.NewError(fiber.StatusNotFound, "no identity provider is configured")
	}
	if s.loginLimiter != nil {
		if ok, wait := s.loginLimiter.Allow("addr:"+c.IP(), 1); !ok {
			return &catalog.RateLimitedError{RetryAfter: wait}
		}
	}
	started, err := s.oidc.Start(c.UserContext(), s.oidcRedirectURI(c))
	if err != nil {
		return err
	}
	setCookie(c, oidcStateCookie, started.State, "/signin/oidc", 600)
	setCookie(c, oidcNextCookie, safeNext(c.Query("next")), "/signin/oidc", 600)
	return c.Redirect(started.AuthorizeURL, fiber.StatusFound)
}

func (s *Server) oidcRedirectURI(c *fiber.Ctx) string {
	return c.Protocol() + "://" + c.Hostname() + "/signin/oidc/callback"
}

// oidcSignInFinish finishes the provider's sign-in, as
// POST /api/auth/oidc/callback does, and sets the session cookies.
func (s *Server) oidcSignInFinish(c *fiber.Ctx) error {
	galleryHeaders(c)
	if !s.oidc.Enabled() {
		return fiber.NewError(fiber.StatusNotFound, "no identity provider is configured")
	}
	state := c.Query("state")
	bound := c.Cookies(oidcStateCookie)
	if state == "" || subtle.ConstantTimeCompare([]byte(state), []byte(bound)) != 1 {
		return fiberForbidden("this sign-in was not started by this browser")
	}
	next := safeNext(c.Cookies(oidcNextCookie))
	clearCookie(c, oidcStateCookie, "/signin/oidc")
	clearCookie(c, oidcNextCookie, "/signin/oidc")
	if e := c.Query("error"); e != "" {
		return s.renderPage(c, fiber.StatusUnauthorized, "signin", s.signInForm(next, "", "The identity provider refused the sign-in: "+e))
	}
	tokens, _, err := s.oidc.Callback(c.UserContext(), c.Query("code"), state, s.oidcRedirectURI(c))
	if err != nil {
		return err
	}
	s.setSessionCookies(c, tokens)
	return c.Redirect(next, fiber.StatusSeeOther)
}

func fiberForbidden(detail string) error {
	return fmt.Errorf("%s: %w", detail, catalog.ErrForbidden)
}
