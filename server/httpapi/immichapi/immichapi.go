// Package immichapi is the Immich-compatible HTTP layer (spec
// immich-compat.md): Immich's paths, camelCase bodies, its error shape and
// its credentials (x-api-key or a bearer token), over the native services
// and the use cases of server/immich. It is mounted under Prefix on the
// main app (Mount, through httpapi.Deps.Mounts) and at the root of App
// (the --immich-listen listener). Its routes are not in the native route
// table and OpenAPI document; docs/api.md lists them.
//
// It imports server/httpapi for what every route shares (credentials, the
// rate limit and gates, request ids, responses, the upload loop);
// httpapi never imports it.
package immichapi

import (
	"github.com/gofiber/fiber/v2"
	"github.com/gofiber/fiber/v2/middleware/recover"

	"github.com/photoctl/photoctl/server/assets"
	"github.com/photoctl/photoctl/server/auth"
	"github.com/photoctl/photoctl/server/catalog"
	"github.com/photoctl/photoctl/server/httpapi"
	"github.com/photoctl/photoctl/server/immich"
)

// Prefix is where the layer is mounted on the main app.
const Prefix = "/immich"

// Deps are the services the layer calls besides the server's.
type Deps struct {
	Auth   *auth.Service   // the credentials: API keys (x-api-key) and bearer tokens
	Immich *immich.Service // the layer's use cases: its library, checks, search, albums, tags
	Assets *assets.Service // the native upload, download, trash and deletion
}

// layer is the Immich layer of one server: its handlers are methods.
type layer struct {
	s      *httpapi.Server
	auth   *auth.Service
	immich *immich.Service
	assets *assets.Service
}

func newLayer(s *httpapi.Server, d Deps) *layer {
	return &layer{s: s, auth: d.Auth, immich: d.Immich, assets: d.Assets}
}

// Mount registers the layer under Prefix on the app of s, and the host
// root's /.well-known/immich. Unknown paths under Prefix answer Immich's
// 404. Give it to httpapi.New in Deps.Mounts, which runs it before the
// gallery and the native 404 take the remaining paths.
func Mount(s *httpapi.Server, d Deps) {
	newLayer(s, d).mount(s.App().Group(Prefix), Prefix)
}

// App returns a second fiber app serving the layer at its root, for
// clients that insist on /api at the root (serve --immich-listen). It
// shares the configuration, handlers and services of s.
func App(s *httpapi.Server, d Deps) *fiber.App {
	cfg := s.App().Config()
	cfg.AppName = "photoctl-immich"
	app := fiber.New(cfg)
	app.Use(httpapi.KeepAliveSafe(cfg.ReadTimeout))
	app.Use(s.WithRequestID)
	app.Use(recover.New())
	newLayer(s, d).mount(app, "")
	return app
}

// route is one entry of the layer's route table.
type route struct {
	method, path string
	access       access
	handler      fiber.Handler
}

// access is what an Immich route requires: no credential (public),
// or a credential granting action ("" for any credential).
type access struct {
	public bool
	action catalog.Action
	cost   httpapi.Cost
}

// routes is the layer's route table; endpoint is the API path that
// /.well-known/immich announces where it is mounted.
func (l *layer) routes(endpoint string) []route {
	anyCred := access{} // any credential, no action
	return []route{
		{"GET", "/.well-known/immich", access{public: true}, wellKnown(endpoint)},
		{"GET", "/api/server/ping", access{public: true}, ping},
		{"GET", "/api/server/version", access{public: true}, version},
		{"GET", "/api/server/media-types", access{public: true}, mediaTypes},
		{"GET", "/api/server/about", anyCred, about},
		{"GET", "/api/users/me", access{action: catalog.ActionUserRead}, l.me},
		{"GET", "/api/api-keys/me", anyCred, l.myKey},
		{"GET", "/api/assets/statistics", access{action: catalog.ActionAssetRead}, l.statistics},
		{"POST", "/api/assets/bulk-upload-check", access{action: catalog.ActionAssetUpload}, l.check},
		{"POST", "/api/assets", access{action: catalog.ActionAssetUpload, cost: httpapi.CostUpload}, l.upload},
		{"PUT", "/api/assets/copy", access{action: catalog.ActionAssetUpdate}, l.copyAsset},
		{"DELETE", "/api/assets", access{action: catalog.ActionAssetTrash}, l.deleteAssets},
		{"GET", "/api/assets/:id", access{action: catalog.ActionAssetRead}, l.assetInfo},
		{"GET", "/api/assets/:id/original", access{action: catalog.ActionAssetRead}, l.original},
		{"GET", "/api/tags", access{action: catalog.ActionAssetRead}, l.tags},
		{"PUT", "/api/tags", access{action: catalog.ActionAssetUpdate}, l.upsertTags},
		{"PUT", "/api/tags/assets", access{action: catalog.ActionAssetUpdate}, l.bulkTagAssets},
		{"PUT", "/api/tags/:id/assets", access{action: catalog.ActionAssetUpdate}, l.tagAssets},
		{"POST", "/api/search/metadata", access{action: catalog.ActionAssetRead, cost: httpapi.CostSearch}, l.search},
		{"GET", "/api/albums", access{action: catalog.ActionAlbumRead}, l.albums},
		{"POST", "/api/albums", access{action: catalog.ActionAlbumWrite}, l.createAlbum},
		{"GET", "/api/albums/:id", access{action: catalog.ActionAlbumRead}, l.album},
		{"PUT", "/api/albums/:id/assets", access{action: catalog.ActionAlbumWrite}, l.addToAlbum},
		{"PUT", "/api/jobs/:name", anyCred, job},
	}
}

// mount registers the layer on r; prefix is r's path ("" at a root).
// Unknown paths under r answer Immich's 404.
func (l *layer) mount(r fiber.Router, prefix string) {
	for _, rt := range l.routes(prefix + "/api") {
		r.Add(rt.method, rt.path, l.handler(rt.access, rt.handler))
	}
	if prefix != "" {
		// A client given http://host/immich (no trailing slash) resolves
		// .well-known/immich against it, at the host's root (@immich/cli:
		// new URL(".well-known/immich", url)); only an Immich client asks
		// there, and the layer is what it wants. The second listener
		// answers at its own root with "/api".
		l.s.App().Get("/.well-known/immich", l.handler(access{public: true}, wellKnown(prefix+"/api")))
	}
	r.Use(func(c *fiber.Ctx) error {
		return l.answerError(c, fiber.NewError(fiber.StatusNotFound, "Cannot "+c.Method()+" "+c.Path()))
	})
}
