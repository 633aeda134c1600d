package httpapi

import (
	"log/slog"

	"github.com/gofiber/fiber/v2"

	"github.com/photoctl/photoctl/server/catalog"
)

// The surface for protocol adapters: packages that mount another protocol
// on the server (server/httpapi/immichapi) through Deps.Mounts. They speak
// their own paths and error shapes but share the server's credentials,
// rate limit and gates (Charge, EnterGate, Cost), request ids (RequestID,
// WithRequestID), responses (SendJSON, SendBlob, StatusOf, DetailOf,
// JSONError), the upload loop (ReceiveUpload) and the principal
// (Principal, SetPrincipal): the very functions the native routes use,
// exported, with the few accessors below.

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

// SetPrincipal records the authenticated caller of the request, for
// Principal and the request log.
func SetPrincipal(c *fiber.Ctx, p *catalog.Principal) { c.Locals(localPrincipal, p) }

// Logger is the server's logger (component "http").
func (s *Server) Logger() *slog.Logger { return s.log }
