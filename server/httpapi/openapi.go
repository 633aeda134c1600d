package httpapi

import (
	"bytes"
	"encoding/json"
	"fmt"

	"github.com/gofiber/fiber/v2"
	"github.com/swaggest/openapi-go"
	"github.com/swaggest/openapi-go/openapi31"
)

// The OpenAPI document is generated from the route table (routes.go), so it
// describes exactly what the server registers. docs/openapi.json is a copy
// that TestOpenAPIUpToDate keeps current.

// openAPI serves the OpenAPI 3.1 document, generated on the first request:
// reflecting every route's wire types allocates about 20 MB, which a server
// that is never asked for its document should not carry from its start.
func (s *Server) openAPI(c *fiber.Ctx) error {
	doc, err := s.openAPIDoc()
	if err != nil {
		// The document depends only on the route table and the wire types,
		// so this is a programming error that TestOpenAPIUpToDate catches.
		return fmt.Errorf("generate OpenAPI document: %w", err)
	}
	c.Set(fiber.HeaderContentType, fiber.MIMEApplicationJSON)
	return c.Send(doc)
}

// openAPIJSON generates the OpenAPI 3.1 document of routes: indented JSON
// with a trailing newline, its keys in a fixed order (the document's fields
// in the specification's order, map keys sorted).
func openAPIJSON(routes []route) ([]byte, error) {
	r := newSchemaReflector()
	spec := r.SpecEns()
	spec.Info.WithTitle("photoctl API").WithVersion("1.0.0").
		WithDescription("The photoctl photo library API. Every path begins with /api; bodies are JSON.")
	spec.WithServers(openapi31.Server{URL: "/"})
	spec.SetHTTPBearerTokenSecurity(bearerAuth, "",
		"API key `apikey_…`, OAuth access token or first-party session JWT, sent as `Authorization: Bearer …`.")
	spec.SetAPIKeySecurity(sessionCookieAuth, sessionCookie, openapi.InCookie,
		"The web gallery's first-party session (set by its sign-in form), read when there is no Authorization header. "+
			"A request it authenticates with a method other than GET, HEAD or OPTIONS must send the session's CSRF token "+
			"in `X-CSRF-Token` (403 without it); see docs/api.md.")
	if err := addErrorComponents(r); err != nil {
		return nil, fmt.Errorf("document error responses: %w", err)
	}
	seen := map[string]bool{}
	for _, rt := range routes {
		if !seen[rt.doc.tag] {
			seen[rt.doc.tag] = true
			spec.Tags = append(spec.Tags, openapi31.Tag{Name: rt.doc.tag})
		}
		if err := addOperation(r, rt); err != nil {
			return nil, fmt.Errorf("document %s %s: %w", rt.method, rt.path, err)
		}
	}
	raw, err := spec.MarshalJSON()
	if err != nil {
		return nil, fmt.Errorf("marshal OpenAPI document: %w", err)
	}
	var out bytes.Buffer
	if err := json.Indent(&out, raw, "", "  "); err != nil {
		return nil, fmt.Errorf("indent OpenAPI document: %w", err)
	}
	out.WriteByte('\n')
	return out.Bytes(), nil
}
