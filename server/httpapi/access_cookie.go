package httpapi

import (
	"fmt"
	"strings"

	"github.com/gofiber/fiber/v2"

	"github.com/photoctl/photoctl/server/catalog"
)

// The gallery's cookies (gallery_session.go). The session cookie is a
// credential of the API too: a request without an Authorization header
// that carries it is authenticated as that first-party session.
const (
	// sessionCookie holds the session's access token (a session JWT).
	sessionCookie = "photoctl_session"
	// refreshCookie holds the session's refresh token; its path is the
	// renewal route's, so no other request carries it.
	refreshCookie = "photoctl_refresh"
	// csrfHeader carries the session's anti-forgery token on the API.
	csrfHeader = "X-CSRF-Token"
)

// credential is the request's credential as an Authorization value: the
// header when there is one (API clients are unaffected by any cookie),
// else the session cookie, reported by fromCookie.
func (s *Server) credential(c *fiber.Ctx) (header string, fromCookie bool) {
	if h := c.Get(fiber.HeaderAuthorization); h != "" {
		return h, false
	}
	v := c.Cookies(sessionCookie)
	if v == "" || strings.ContainsAny(v, " \t") {
		return "", false
	}
	return "Bearer " + v, true
}

// checkCookieRequest holds a request authenticated by the session cookie
// to what a browser may do with it: the cookie carries a first-party
// session only (never an API key or an OAuth token), and a request that
// can change state must carry the session's CSRF token (a page of another
// origin can make the browser send the cookie, but cannot read the token).
func (s *Server) checkCookieRequest(c *fiber.Ctx, p *catalog.Principal) error {
	if p.Kind != catalog.CredSession {
		return fmt.Errorf("the session cookie carries only a first-party session: %w", catalog.ErrUnauthenticated)
	}
	if safeMethod(c.Method()) {
		return nil
	}
	if !s.auth.CheckCSRF(p.CredentialID, c.Get(csrfHeader)) {
		return fmt.Errorf("a request authenticated by the session cookie must send the page's CSRF token in %s: %w",
			csrfHeader, catalog.ErrForbidden)
	}
	return nil
}

// safeMethod reports whether a method only reads.
func safeMethod(m string) bool {
	return m == fiber.MethodGet || m == fiber.MethodHead || m == fiber.MethodOptions
}
