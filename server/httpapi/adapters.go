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
// exported, with the two below.

// SetPrincipal records the authenticated caller of the request, for
// Principal and the request log.
func SetPrincipal(c *fiber.Ctx, p *catalog.Principal) { c.Locals(localPrincipal, p) }

// Logger is the server's logger (component "http").
func (s *Server) Logger() *slog.Logger { return s.log }
