package httpapi

import (
	"bytes"
	"errors"
	"strings"

	"github.com/gofiber/fiber/v2"

	"github.com/photoctl/photoctl/server/catalog"
	"github.com/photoctl/photoctl/server/web"
)

// mountGallery registers the web gallery (server/web) at / beside the API:
// its pages, its sign-in and sign-out (gallery_session.go) and its static
// files. None of its paths starts with /api or /immich.
func (s *Server) mountGallery() {
	for _, r := range galleryRoutes {
		s.app.Get(r.path, s.galleryPage(r))
	}
	s.app.Get("/signin", s.signInPage)
	s.app.Post("/signin", s.signIn)
	s.app.Post("/signin/renew", s.renewSession)
	s.app.Get("/signin/oidc", s.oidcSignInStart)
	s.app.Get("/signin/oidc/callback", s.oidcSignInFinish)
	s.app.Post("/signout", s.signOut)
	s.app.Get("/static/+", s.staticFile)
	s.app.Head("/static/+", s.staticFile)
}

// galleryRoute is a page of the gallery: its path, its template (server/web)
// and its title; idPrefix, when set, is the catalog prefix the path's :id
// must carry (any other id is a 404 before the page is rendered).
type galleryRoute struct {
	path, page, title, section, idPrefix string
}

// galleryRoutes are the gallery's pages. section names the header link the
// page belongs to (the link marked aria-current).
var galleryRoutes = []galleryRoute{
	{path: "/", page: "timeline", title: "Photos", section: "photos"},
	{path: "/photos/:id", page: "viewer", title: "Photo", section: "photos", idPrefix: catalog.PrefixAsset},
	{path: "/stacks/:id", page: "stack", title: "Stack", section: "photos", idPrefix: catalog.PrefixStack},
	{path: "/albums", page: "albums", title: "Albums", section: "albums"},
	{path: "/albums/:id", page: "album", title: "Album", section: "albums", idPrefix: catalog.PrefixAlbum},
	{path: "/people", page: "people", title: "People", section: "people"},
	{path: "/people/:id", page: "person", title: "Person", section: "people", idPrefix: catalog.PrefixPerson},
	{path: "/library", page: "library", title: "Library", section: "library"},
	{path: "/join", page: "join", title: "Join a library", section: "library"},
	{path: "/search", page: "search", title: "Search", section: "search"},
	{path: "/map", page: "map", title: "Map", section: "map"},
	{path: "/trash", page: "trash", title: "Trash", section: "trash"},
	{path: "/upload", page: "upload", title: "Upload", section: "upload"},
}

// galleryHeaders are the security headers of every gallery response.
func galleryHeaders(c *fiber.Ctx) {
	c.Set("Content-Security-Policy", web.ContentSecurityPolicy)
	c.Set(fiber.HeaderXContentTypeOptions, "nosniff")
	c.Set(fiber.HeaderXFrameOptions, "DENY")
	c.Set(fiber.HeaderReferrerPolicy, "same-origin")
}

// renderPage answers with a page. Pages hold the CSRF token: never stored
// by a cache.
func (s *Server) renderPage(c *fiber.Ctx, status int, name string, p web.Page) error {
	galleryHeaders(c)
	var buf bytes.Buffer
	if err := web.Render(&buf, name, p); err != nil {
		return err
	}
	c.Set(fiber.HeaderCacheControl, "no-store")
	c.Set(fiber.HeaderContentType, fiber.MIMETextHTMLCharsetUTF8)
	return c.Status(status).Send(buf.Bytes())
}

// galleryPage serves a page that needs a signed-in user; without one it
// sends the browser to the sign-in form, which comes back here.
func (s *Server) galleryPage(r galleryRoute) fiber.Handler {
	return func(c *fiber.Ctx) error {
		p, err := s.pageSession(c)
		if err != nil {
			return err
		}
		if p == nil {
			galleryHeaders(c)
			return c.Redirect("/signin?next="+urlQueryEscape(c.OriginalURL()), fiber.StatusSeeOther)
		}
		page := web.Page{Title: r.title, Section: r.section, CSRF: s.auth.CSRFToken(p.CredentialID), UserName: userName(p.User)}
		if r.idPrefix != "" {
			page.ID = c.Params("id")
			if !strings.HasPrefix(page.ID, r.idPrefix) {
				galleryHeaders(c)
				return fiber.NewError(fiber.StatusNotFound, "no such page: "+c.Path())
			}
		}
		return s.renderPage(c, fiber.StatusOK, r.page, page)
	}
}

// pageSession is the signed-in principal of a page request (nil when the
// session cookie is missing, expired or ended).
func (s *Server) pageSession(c *fiber.Ctx) (*catalog.Principal, error) {
	v := c.Cookies(sessionCookie)
	if v == "" {
		return nil, nil
	}
	p, err := s.auth.Authenticate(c.UserContext(), "Bearer "+v)
	if errors.Is(err, catalog.ErrUnauthenticated) || (err == nil && p.Kind != catalog.CredSession) {
		return nil, nil
	}
	return p, err
}

func userName(u *catalog.User) string {
	if n := strings.TrimSpace(u.FirstName + " " + u.LastName); n != "" {
		return n
	}
	return u.Email
}

// staticFile serves the gallery's CSS and JavaScript from the binary. A
// request naming the content's hash (?v=, as the pages do) may be cached
// for a year; others revalidate with the strong ETag.
func (s *Server) staticFile(c *fiber.Ctx) error {
	galleryHeaders(c)
	f, ok := web.Static(c.Params("+"))
	if !ok {
		return fiber.NewError(fiber.StatusNotFound, "no file "+c.Path())
	}
	c.Set(fiber.HeaderETag, f.ETag)
	if v := c.Query("v"); v != "" && strings.HasPrefix(f.ETag, `"`+v) {
		c.Set(fiber.HeaderCacheControl, "public, max-age=31536000, immutable")
	} else {
		c.Set(fiber.HeaderCacheControl, "no-cache")
	}
	c.Set(fiber.HeaderContentType, f.ContentType)
	if notModified(c, f.ETag) {
		return c.SendStatus(fiber.StatusNotModified)
	}
	if c.Method() == fiber.MethodHead {
		c.Response().Header.SetContentLength(len(f.Data))
		return nil
	}
	return c.Send(f.Data)
}
