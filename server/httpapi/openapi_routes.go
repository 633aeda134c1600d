package httpapi

import (
	"fmt"
	"slices"

	"github.com/gofiber/fiber/v2"

	"github.com/photoctl/photoctl/server/catalog"
	"github.com/photoctl/photoctl/server/httpapi/openapi"
)

// The OpenAPI document is generated from the route table (routes.go) by
// server/httpapi/openapi, so it describes exactly what the server
// registers. docs/openapi.json is a copy that TestOpenAPIUpToDate keeps
// current.

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

// openAPIJSON generates the OpenAPI 3.1 document of routes.
func openAPIJSON(routes []route) ([]byte, error) {
	ops := make([]openapi.Operation, len(routes))
	for i, r := range routes {
		ops[i] = openapi.Operation{Method: r.method, Path: r.path, Access: r.access.openAPI(), Doc: r.doc}
	}
	return openapi.JSON(openapi.API{
		SessionCookie: sessionCookie,
		Paging:        openapi.Paging{Min: minLimit, Max: maxLimit, Default: defaultLimit},
		Operations:    ops,
	})
}

// openAPI describes a for the document: the credential kinds by their names,
// and whether the session cookie reaches the route (it carries a
// first-party session, access_cookie.go).
func (a access) openAPI() openapi.Access {
	var kinds []string
	for _, k := range a.kinds {
		kinds = append(kinds, kindName(k))
	}
	return openapi.Access{
		Public:     a.public,
		PerAddress: a.perAddress,
		Kinds:      kinds,
		Cookie:     a.kinds == nil || slices.Contains(a.kinds, catalog.CredSession),
		Action:     string(a.action),
		Sharing:    a.sharing,
	}
}
