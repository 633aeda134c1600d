package httpapi

import (
	"net/http"

	"github.com/gofiber/fiber/v2"
	"github.com/gofiber/fiber/v2/middleware/adaptor"

	"github.com/photoctl/photoctl/server/catalog"
	"github.com/photoctl/photoctl/server/httpapi/openapi"
)

// MCP serves the assistant interface at /api/mcp (mcpapi.Adapter): its
// Handler answers one request of the Streamable HTTP transport for the
// request's authenticated principal, charging each tool call to the
// principal's user. The routes, the credential rule and the per-request
// limit stay here, in the native route table.
type MCP interface {
	Handler(p *catalog.Principal) http.Handler
}

// mcpPath is where the Streamable HTTP transport is served.
const mcpPath = "/api/mcp"

// mcpRoutes serve the MCP transport. The credential rule is the spec's
// default one: an API key or an OAuth access token; a first-party session
// is refused with 403 by authorize. Each HTTP request pays the per-user limit once
// (429 with Retry-After); each tool call then pays its weight to the MCP
// limiter (a tool error with the retry delay).
func (s *Server) mcpRoutes() []route {
	doc := func(summary string) openapi.Doc {
		return openapi.Doc{Summary: summary, Tag: "mcp", Status: 200, Resp: map[string]any{}}
	}
	post := doc("Model Context Protocol over Streamable HTTP (stateless, JSON answers): assistants' tools over the library")
	post.Body = map[string]any{}
	a := access{kinds: []catalog.CredentialKind{catalog.CredAPIKey, catalog.CredOAuth}}
	return []route{
		{"POST", mcpPath, a, s.serveMCP, post},
		{"GET", mcpPath, a, s.serveMCP, doc("Streamable HTTP event stream: not offered by this stateless server (405)")},
		{"DELETE", mcpPath, a, s.serveMCP, doc("Streamable HTTP session end: not offered by this stateless server (405)")},
	}
}

func (s *Server) serveMCP(c *fiber.Ctx) error {
	return adaptor.HTTPHandler(s.mcp.Handler(Principal(c)))(c)
}
