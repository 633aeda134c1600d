// Package httpapi is the fiber application of the photoctl API: the route
// table, authentication and authorization, request decoding, the answers
// (converted to wire types by httpapi/convert) and the error contract.
// Fiber is imported here and in immichapi only; convert, mcpapi and
// openapi know none.
package httpapi

import (
	"cmp"
	"log/slog"
	"sync"
	"time"

	"github.com/gofiber/fiber/v2"
	"github.com/gofiber/fiber/v2/middleware/recover"
	segjson "github.com/segmentio/encoding/json"

	"github.com/photoctl/photoctl/server/albums"
	"github.com/photoctl/photoctl/server/assets"
	"github.com/photoctl/photoctl/server/auth"
	"github.com/photoctl/photoctl/server/events"
	"github.com/photoctl/photoctl/server/libraries"
	"github.com/photoctl/photoctl/server/oidc"
	"github.com/photoctl/photoctl/server/people"
	"github.com/photoctl/photoctl/server/ratelimit"
	"github.com/photoctl/photoctl/server/search"
	"github.com/photoctl/photoctl/server/stacks"
	"github.com/photoctl/photoctl/server/tasks"
	"github.com/photoctl/photoctl/server/users"
)

// Deps are the services the HTTP layer calls.
type Deps struct {
	Auth      *auth.Service
	Libraries *libraries.Service
	Users     *users.Service
	Events    *events.Service
	Assets    *assets.Service
	Tasks     *tasks.Service
	People    *people.Service
	Albums    *albums.Service
	Stacks    *stacks.Service
	Search    *search.Service
	MCP       MCP           // the assistant interface (mcp.go); required
	OIDC      *oidc.Service // sign-in through the identity provider (oidc.go)
	OAuth     *auth.OAuthServer
	Limiters  Limiters
	Log       *slog.Logger
	// MaxBodyBytes bounds any request body (the upload limit plus slack).
	MaxBodyBytes int64
	// CompressJSON compresses large JSON answers for clients that accept
	// it (compressJSON).
	CompressJSON bool
	Now          func() time.Time
	// Version is the server's version, reported by GET /api/health/ping
	// ("dev" when empty).
	Version string
	// Mounts register the protocol adapters (immichapi.Mount) on the new
	// server, outside the native route table and document: after the
	// native routes, before the gallery and the 404 take the remaining
	// paths (fiber matches in the order of registration).
	Mounts []func(*Server)
}

// Server holds the fiber app and what its handlers use.
type Server struct {
	app          *fiber.App
	auth         *auth.Service
	libs         *libraries.Service
	users        *users.Service
	events       *events.Service
	assets       *assets.Service
	tasks        *tasks.Service
	people       *people.Service
	albums       *albums.Service
	stacks       *stacks.Service
	search       *search.Service
	mcp          MCP
	oidc         *oidc.Service
	oauth        *auth.OAuthServer
	limiter      *ratelimit.Limiter
	gate         *ratelimit.Gate  // nil: no bound on requests at once
	uploads      *ratelimit.Gate  // nil: no bound on uploads at once
	maxWait      time.Duration    // the longest a request waits for its tokens
	owners       credentialOwners // access_owners.go
	loginLimiter *ratelimit.Limiter
	costs        map[Cost]float64
	log          *slog.Logger
	now          func() time.Time
	openAPIDoc   func() ([]byte, error) // openapi_routes.go
	version      string
}

// New builds the fiber app with every route registered.
func New(d Deps) *Server {
	s := &Server{
		auth: d.Auth, libs: d.Libraries, users: d.Users, events: d.Events, assets: d.Assets, tasks: d.Tasks,
		people:  d.People,
		limiter: d.Limiters.PerUser, gate: d.Limiters.Gate, uploads: d.Limiters.Uploads, maxWait: d.Limiters.MaxWait, loginLimiter: d.Limiters.PerAddress, owners: newCredentialOwners(),
		costs: map[Cost]float64{CostDefault: 1, CostUpload: max(0, d.Limiters.UploadCost),
			CostSearch: max(1, d.Limiters.SearchCost)},
		log: componentLogger(d.Log), now: d.Now,
		albums: d.Albums, stacks: d.Stacks,
		search:  d.Search,
		mcp:     d.MCP,
		oidc:    d.OIDC,
		oauth:   d.OAuth,
		version: cmp.Or(d.Version, "dev"),
	}
	s.app = fiber.New(fiber.Config{
		AppName:               "photoctl",
		DisableStartupMessage: true,
		StreamRequestBody:     true,
		// Uploads are parsed part by part from the stream (assets_upload.go),
		// never pre-parsed into memory or temporary files by fasthttp.
		DisablePreParseMultipartForm: true,
		BodyLimit:                    int(min(d.MaxBodyBytes, int64(^uint32(0)>>1))),
		ReadTimeout:                  10 * time.Minute,
		IdleTimeout:                  2 * time.Minute,
		ErrorHandler:                 s.handleError,
		// Same output as encoding/json at twice its speed and without its
		// per-value allocations: a page of 100 assets is ~240 KB of JSON.
		JSONEncoder: segjson.Marshal,

		// Request line and headers: 100 prefixed ids in a query (the spec's
		// ids filters) plus a bearer token exceed fasthttp's 4 KiB default.
		ReadBufferSize: 16 << 10,
	})
	s.app.Use(KeepAliveSafe(s.app.Config().ReadTimeout))
	s.app.Use(s.WithRequestID)
	s.app.Use(recover.New())
	if d.CompressJSON {
		s.app.Use(compressJSON())
	}
	table := s.routes()
	for _, r := range table {
		s.app.Add(r.method, r.path, s.authorize(r.access), r.handler)
	}
	s.openAPIDoc = sync.OnceValues(func() ([]byte, error) { return openAPIJSON(table) })
	for _, mount := range d.Mounts {
		mount(s) // outside the native table and document (adapters.go)
	}
	s.mountGallery() // the web gallery at / (gallery.go)
	s.app.Use(notFound)
	return s
}

// App returns the fiber application (for listeners and tests).
func (s *Server) App() *fiber.App { return s.app }
