package httpapi

import (
	"errors"
	"fmt"
	"net/http"
	"strconv"
	"strings"

	"github.com/gofiber/fiber/v2"
	"github.com/gofiber/fiber/v2/middleware/recover"

	"github.com/photoctl/photoctl/server/catalog"
	"github.com/photoctl/photoctl/server/immich"
)

// The Immich-compatible layer (spec immich-compat.md): Immich's paths,
// camelCase bodies, its error shape and its credentials (x-api-key or a
// bearer token), over the native services. It is mounted under
// immichPrefix on the main app and at the root of ImmichApp (the
// --immich-listen listener). Its routes are not in the native route table
// and OpenAPI document; docs/api.md lists them.

// immichPrefix is where the layer is mounted on the main app.
const immichPrefix = "/immich"

// immichRoute is one entry of the layer's route table.
type immichRoute struct {
	method, path string
	access       immichAccess
	handler      fiber.Handler
}

// immichAccess is what an Immich route requires: no credential (public),
// or a credential granting action ("" for any credential).
type immichAccess struct {
	public bool
	action catalog.Action
	cost   costClass
}

// immichRoutes is the layer's route table; endpoint is the API path that
// /.well-known/immich announces where it is mounted.
func (s *Server) immichRoutes(endpoint string) []immichRoute {
	anyCred := immichAccess{} // any credential, no action
	return []immichRoute{
		{"GET", "/.well-known/immich", immichAccess{public: true}, immichWellKnown(endpoint)},
		{"GET", "/api/server/ping", immichAccess{public: true}, immichPing},
		{"GET", "/api/server/version", immichAccess{public: true}, immichVersion},
		{"GET", "/api/server/media-types", immichAccess{public: true}, immichMediaTypes},
		{"GET", "/api/server/about", anyCred, immichAbout},
		{"GET", "/api/users/me", immichAccess{action: catalog.ActionUserRead}, s.immichMe},
		{"GET", "/api/api-keys/me", anyCred, s.immichMyKey},
		{"GET", "/api/assets/statistics", immichAccess{action: catalog.ActionAssetRead}, s.immichStatistics},
		{"POST", "/api/assets/bulk-upload-check", immichAccess{action: catalog.ActionAssetUpload}, s.immichCheck},
		{"POST", "/api/assets", immichAccess{action: catalog.ActionAssetUpload, cost: costUpload}, s.immichUpload},
		{"PUT", "/api/assets/copy", immichAccess{action: catalog.ActionAssetUpdate}, s.immichCopyAsset},
		{"DELETE", "/api/assets", immichAccess{action: catalog.ActionAssetTrash}, s.immichDeleteAssets},
		{"GET", "/api/assets/:id", immichAccess{action: catalog.ActionAssetRead}, s.immichAssetInfo},
		{"GET", "/api/assets/:id/original", immichAccess{action: catalog.ActionAssetRead}, s.immichOriginal},
		{"GET", "/api/tags", immichAccess{action: catalog.ActionAssetRead}, s.immichTags},
		{"PUT", "/api/tags", immichAccess{action: catalog.ActionAssetUpdate}, s.immichUpsertTags},
		{"PUT", "/api/tags/assets", immichAccess{action: catalog.ActionAssetUpdate}, s.immichBulkTagAssets},
		{"PUT", "/api/tags/:id/assets", immichAccess{action: catalog.ActionAssetUpdate}, s.immichTagAssets},
		{"POST", "/api/search/metadata", immichAccess{action: catalog.ActionAssetRead, cost: costSearch}, s.immichSearch},
		{"GET", "/api/albums", immichAccess{action: catalog.ActionAlbumRead}, s.immichAlbums},
		{"POST", "/api/albums", immichAccess{action: catalog.ActionAlbumWrite}, s.immichCreateAlbum},
		{"GET", "/api/albums/:id", immichAccess{action: catalog.ActionAlbumRead}, s.immichAlbum},
		{"PUT", "/api/albums/:id/assets", immichAccess{action: catalog.ActionAlbumWrite}, s.immichAddToAlbum},
		{"PUT", "/api/jobs/:name", anyCred, immichJob},
	}
}

// mountImmich registers the layer on r; prefix is r's path ("" at a root).
// Unknown paths under r answer Immich's 404.
func (s *Server) mountImmich(r fiber.Router, prefix string) {
	for _, rt := range s.immichRoutes(prefix + "/api") {
		r.Add(rt.method, rt.path, s.immichHandler(rt.access, rt.handler))
	}
	if prefix != "" {
		// A client given http://host/immich (no trailing slash) resolves
		// .well-known/immich against it, at the host's root (@immich/cli:
		// new URL(".well-known/immich", url)); only an Immich client asks
		// there, and the layer is what it wants. The second listener
		// answers at its own root with "/api".
		s.app.Get("/.well-known/immich", s.immichHandler(immichAccess{public: true}, immichWellKnown(prefix+"/api")))
	}
	r.Use(func(c *fiber.Ctx) error {
		return s.immichError(c, fiber.NewError(fiber.StatusNotFound, "Cannot "+c.Method()+" "+c.Path()))
	})
}

// ImmichApp returns a second fiber app serving the layer at its root, for
// clients that insist on /api at the root (serve --immich-listen). It
// shares the handlers and services of s.
func (s *Server) ImmichApp() *fiber.App {
	cfg := s.app.Config()
	cfg.AppName = "photoctl-immich"
	app := fiber.New(cfg)
	app.Use(keepAliveSafe(cfg.ReadTimeout))
	app.Use(s.withRequestID)
	app.Use(recover.New())
	s.mountImmich(app, "")
	return app
}

// immichHandler authenticates (401), rate-limits (429) and checks the
// action (403 naming the Immich permission) before h; every error becomes
// Immich's body here, so the native error handler never sees one.
func (s *Server) immichHandler(a immichAccess, h fiber.Handler) fiber.Handler {
	return func(c *fiber.Ctx) error {
		err := s.immichAuthorize(c, a)
		leave := func() {}
		if err == nil && !a.public {
			leave, err = s.enterGate(c, principal(c), a.cost)
		}
		if err == nil {
			err = h(c)
			leave()
		}
		if err != nil {
			return s.immichError(c, err)
		}
		return nil
	}
}

func (s *Server) immichAuthorize(c *fiber.Ctx, a immichAccess) error {
	if a.public {
		return nil
	}
	var p *catalog.Principal
	var err error
	if key := c.Get("x-api-key"); key != "" {
		p, err = s.auth.AuthenticateAPIKey(c.UserContext(), key)
	} else if c.Get(fiber.HeaderAuthorization) != "" {
		p, err = s.auth.Authenticate(c.UserContext(), c.Get(fiber.HeaderAuthorization))
	} else {
		err = fmt.Errorf("authentication required: send x-api-key or Authorization: Bearer: %w", catalog.ErrUnauthenticated)
	}
	if err != nil {
		return err
	}
	if err := s.charge(c, p, a.cost); err != nil {
		return err
	}
	if a.action != "" && !p.Allows(a.action) {
		return fmt.Errorf("Missing required permission: %s: %w", immich.Permission(a.action), catalog.ErrForbidden)
	}
	c.Locals(localPrincipal, p)
	return nil
}

// immichError answers err in Immich's shape {message, error, statusCode}.
// Validation problems are Immich's 400, except a library that cannot be
// chosen (422); unknown errors are logged and answered 500.
func (s *Server) immichError(c *fiber.Ctx, err error) error {
	status := statusOf(err)
	msg := detailOf(err)
	var ve *catalog.ValidationError
	var rl *catalog.RateLimitedError
	switch {
	case errors.Is(err, immich.ErrLibraryChoice):
		status = fiber.StatusUnprocessableEntity
		msg = strings.TrimSuffix(err.Error(), ": "+immich.ErrLibraryChoice.Error())
	case errors.Is(err, immich.ErrBadPage):
		status = fiber.StatusBadRequest
	case errors.As(err, &ve):
		status, msg = fiber.StatusBadRequest, immichValidationMessage(ve)
	case errors.As(err, &rl):
		c.Set(fiber.HeaderRetryAfter, strconv.Itoa(rl.Seconds()))
	case status == fiber.StatusInternalServerError:
		s.log.ErrorContext(c.UserContext(), "request failed", "err", err, "request_id", requestID(c),
			"method", c.Method(), "path", c.Path())
		msg = "internal error; the server log has details under request id " + requestID(c)
	}
	return sendJSON(c.Status(status), immich.ErrorBody{Message: msg, Error: http.StatusText(status), StatusCode: status})
}

// immichValidationMessage spells field errors as "assets.3.checksum: …".
func immichValidationMessage(ve *catalog.ValidationError) string {
	if len(ve.Fields) == 0 {
		return ve.Error()
	}
	parts := make([]string, len(ve.Fields))
	for i, f := range ve.Fields {
		var loc []string
		for j, l := range f.Loc {
			if j == 0 && (l == "body" || l == "query" || l == "path" || l == "header") && len(f.Loc) > 1 {
				continue
			}
			loc = append(loc, fmt.Sprint(l))
		}
		parts[i] = strings.Join(loc, ".") + ": " + f.Msg
	}
	return strings.Join(parts, "; ")
}
