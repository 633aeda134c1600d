// Package web is the gallery's browser side: html/template pages, CSS and
// vanilla JavaScript modules, embedded in the binary (go:embed). It renders
// and serves bytes only; server/httpapi mounts it at / beside the API, signs
// the user in and out, and sets the headers (see docs/web.md).
package web

import (
	"bytes"
	"crypto/sha256"
	"embed"
	"encoding/hex"
	"fmt"
	"html/template"
	"io"
	"io/fs"
	"mime"
	"path"
	"sync"
)

//go:embed templates/*.html
var templateFiles embed.FS

//go:embed static
var staticFiles embed.FS

// ContentSecurityPolicy is sent with every gallery page: scripts, styles,
// fetches and media only from this origin (no inline script or style, no
// eval), images also from blob: and data: (previews built in the page),
// no plugins, no framing, forms only to this origin.
const ContentSecurityPolicy = "default-src 'self'; script-src 'self'; style-src 'self'; " +
	"img-src 'self' blob: data:; media-src 'self' blob:; connect-src 'self'; font-src 'self'; " +
	"object-src 'none'; base-uri 'none'; frame-ancestors 'none'; form-action 'self'"

// Page is what a page template shows.
type Page struct {
	// Title is the page's title, before " · photoctl".
	Title string
	// CSRF is the session's anti-forgery token (a <meta> for the scripts,
	// a hidden field in forms); empty when signed out.
	CSRF string
	// UserName names the signed-in user in the header.
	UserName string
	// Error is a message to show (a failed sign-in).
	Error string
	// Email refills the sign-in form after a failure.
	Email string
	// Next is where the sign-in form returns (a path of this site).
	Next string
	// OIDCProvider names the identity provider when one is configured.
	OIDCProvider string
	// Section is the header link the page belongs to ("photos", "albums",
	// …), marked aria-current.
	Section string
	// ID is what the page shows when its path names one (the viewer's
	// asset, an album, a person, a stack).
	ID string
}

// NavLink is a link of the header's section menu.
type NavLink struct {
	Path, Section, Label string
	// Write marks a link only owners and collaborators see (class write).
	Write bool
}

// Nav are the header's sections, in order. A page joins one through its
// route's section (server/httpapi's galleryRoutes). The scripts keep the
// chosen library in the links (?library=).
var Nav = []NavLink{
	{Path: "/", Section: "photos", Label: "Photos"},
	{Path: "/albums", Section: "albums", Label: "Albums"},
	{Path: "/people", Section: "people", Label: "People"},
	{Path: "/map", Section: "map", Label: "Map"},
	{Path: "/search", Section: "search", Label: "Search"},
	{Path: "/trash", Section: "trash", Label: "Trash"},
	{Path: "/upload", Section: "upload", Label: "Upload", Write: true},
	{Path: "/library", Section: "library", Label: "Library"},
}

var templates = sync.OnceValue(func() *template.Template {
	funcs := template.FuncMap{"static": staticURL, "navLinks": func() []NavLink { return Nav }}
	return template.Must(template.New("").Funcs(funcs).ParseFS(templateFiles, "templates/*.html"))
})

// Render writes the page named name ("signin", "timeline", "viewer").
func Render(w io.Writer, name string, p Page) error {
	var buf bytes.Buffer // a template error must not leave half a page
	if err := templates().ExecuteTemplate(&buf, name+".html", p); err != nil {
		return fmt.Errorf("render %s: %w", name, err)
	}
	_, err := w.Write(buf.Bytes())
	return err
}

// StaticFile is an embedded CSS or JavaScript file.
type StaticFile struct {
	Data        []byte
	ContentType string
	// ETag is a strong validator: a hash of the content.
	ETag string
}

var staticIndex = sync.OnceValue(func() map[string]StaticFile {
	sub, err := fs.Sub(staticFiles, "static")
	if err != nil {
		panic(err)
	}
	out := map[string]StaticFile{}
	err = fs.WalkDir(sub, ".", func(name string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		data, err := fs.ReadFile(sub, name)
		if err != nil {
			return err
		}
		sum := sha256.Sum256(data)
		ct := mime.TypeByExtension(path.Ext(name))
		switch path.Ext(name) { // not left to the system's mime table
		case ".js":
			ct = "text/javascript; charset=utf-8"
		case ".css":
			ct = "text/css; charset=utf-8"
		case ".svg":
			ct = "image/svg+xml"
		}
		out[name] = StaticFile{Data: data, ContentType: ct, ETag: `"` + hex.EncodeToString(sum[:12]) + `"`}
		return nil
	})
	if err != nil {
		panic(err)
	}
	return out
})

// Static returns the embedded file at name (relative to /static/).
func Static(name string) (StaticFile, bool) {
	f, ok := staticIndex()[name]
	return f, ok
}

// staticURL is a static file's address, with its content hash so a page
// always loads the stylesheet and entry script it was rendered with.
func staticURL(name string) string {
	f, ok := Static(name)
	if !ok {
		panic("web: no static file " + name)
	}
	return "/static/" + name + "?v=" + f.ETag[1:9]
}
