package httpapi

import (
	"log/slog"
	"time"

	"github.com/gofiber/fiber/v2"

	"github.com/photoctl/photoctl/server/blob"
	"github.com/photoctl/photoctl/server/catalog"
)

// The surface for protocol adapters: packages that mount another protocol
// on the server (server/httpapi/immichapi) through Deps.Mounts. They speak
// their own paths and error shapes but share the server's credentials,
// rate limit, gates, request ids and responses, so each of these calls
// the one thing the native routes use; none is a second implementation.

// Cost is a rate-limit weight class: what a request takes from its
// caller's bucket and which gate it waits at.
type Cost = costClass

// The weight classes (configured by ratelimit.upload_cost and
// ratelimit.search_cost).
const (
	CostDefault Cost = costDefault
	CostUpload  Cost = costUpload
	CostSearch  Cost = costSearch
)

// AuthenticateAPIKey returns the principal of an API key (401 when it is
// unknown, expired or its user inactive).
func (s *Server) AuthenticateAPIKey(c *fiber.Ctx, key string) (*catalog.Principal, error) {
	return s.auth.AuthenticateAPIKey(c.UserContext(), key)
}

// AuthenticateHeader returns the principal of an Authorization header
// (a bearer session or OAuth token, or an API key), as the native routes
// accept it.
func (s *Server) AuthenticateHeader(c *fiber.Ctx, authorization string) (*catalog.Principal, error) {
	return s.auth.Authenticate(c.UserContext(), authorization)
}

// Charge takes the request's tokens of class cost from p's bucket,
// waiting a little when the bucket is nearly full, else refusing with a
// rate-limited error (429).
func (s *Server) Charge(c *fiber.Ctx, p *catalog.Principal, cost Cost) error {
	return s.charge(c, p, cost)
}

// EnterGate takes one of p's places in the gate of class cost and returns
// the function that gives it back; call it once the handler is done.
func (s *Server) EnterGate(c *fiber.Ctx, p *catalog.Principal, cost Cost) (leave func(), err error) {
	return s.enterGate(c, p, cost)
}

// SetPrincipal records the authenticated caller of the request, for
// Principal and the request log.
func SetPrincipal(c *fiber.Ctx, p *catalog.Principal) { c.Locals(localPrincipal, p) }

// Principal returns the authenticated caller of the request (nil before
// authentication).
func Principal(c *fiber.Ctx) *catalog.Principal { return principal(c) }

// RequestID returns the id the request-id middleware gave the request.
func RequestID(c *fiber.Ctx) string { return requestID(c) }

// RequestIDMiddleware gives every request an id, echoes it in
// X-Request-Id and logs the request; an error that reaches it gets the
// native error body.
func (s *Server) RequestIDMiddleware() fiber.Handler { return s.withRequestID }

// KeepAliveSafe is the outermost middleware of an app: it finishes a
// request's unread body after the answer, so the connection can carry the
// next request. readTimeout is the app's.
func KeepAliveSafe(readTimeout time.Duration) fiber.Handler { return keepAliveSafe(readTimeout) }

// StatusOf is the status code of an error's kind.
func StatusOf(err error) int { return statusOf(err) }

// DetailOf is an error's message without the ": kind" suffix of wrapping.
func DetailOf(err error) string { return detailOf(err) }

// JSONError turns an encoding/json error decoding body into a validation
// error that locates the problem.
func JSONError(err error, body []byte) error { return jsonError(err, body) }

// SendJSON writes v as the JSON body, with the server's encoder.
func SendJSON(c *fiber.Ctx, v any) error { return sendJSON(c, v) }

// SendBlob answers with a stored file (byte ranges, nosniff) and closes
// it; the caller sets the content type once it has succeeded.
func SendBlob(c *fiber.Ctx, f blob.File) error { return sendBlob(c, f) }

// CleanFileName is the base name a client sent, made safe to store and
// echo.
func CleanFileName(name string) string { return cleanFileName(name) }

// Logger is the server's logger (component "http").
func (s *Server) Logger() *slog.Logger { return s.log }
