// Package mcpapi is the MCP adapter of the server: it serves the tools of
// server/mcp over the services, with the request's principal, and answers
// them with the conversions the REST handlers use (server/httpapi/convert).
// It knows no HTTP framework: server/httpapi routes /api/mcp, checks the
// credential and the per-user limit, and hands the request to Handler.
package mcpapi

import (
	"net/http"

	"github.com/photoctl/photoctl/server/api"

	"github.com/photoctl/photoctl/server/albums"
	"github.com/photoctl/photoctl/server/assets"
	"github.com/photoctl/photoctl/server/catalog"
	"github.com/photoctl/photoctl/server/libraries"
	"github.com/photoctl/photoctl/server/mcp"
	"github.com/photoctl/photoctl/server/people"
	"github.com/photoctl/photoctl/server/ratelimit"
	"github.com/photoctl/photoctl/server/search"
)

// Deps are the services the tools call and the tools' own rate limit.
type Deps struct {
	Assets    *assets.Service
	Albums    *albums.Service
	People    *people.Service
	Libraries *libraries.Service
	Search    *search.Service
	// Limiter charges each tool call its weight (Costs) per user, on top
	// of the per-user limit every request pays; nil disables it.
	Limiter *ratelimit.Limiter
	Costs   mcp.Costs
}

// Adapter builds the MCP handler of each request. It is safe for
// concurrent use; tool schemas are computed once and shared.
type Adapter struct {
	d       Deps
	factory *mcp.Factory
}

// New returns an Adapter over d.
func New(d Deps) *Adapter { return &Adapter{d: d, factory: mcp.NewFactory()} }

// Handler serves one Streamable HTTP request of the MCP transport for p,
// the request's authenticated principal. Tools p's credential does not
// grant are hidden and refused (mcp.Options.Allows); each call pays its
// weight under the user's key.
func (a *Adapter) Handler(p *catalog.Principal) http.Handler {
	return a.factory.Handler(backend{d: &a.d, p: p}, mcp.Options{
		Allows:  p.Allows,
		Limiter: a.d.Limiter, LimitKey: "mcp:" + p.User.ID, Costs: a.d.Costs,
		Version: api.APIVersion,
	})
}
