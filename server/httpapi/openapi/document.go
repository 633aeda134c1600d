// Package openapi generates the OpenAPI 3.1 document of the native REST API
// from a plain description of its operations. server/httpapi describes its
// route table in these terms (openapi_routes.go), so the document says
// exactly what the server registers; this package knows no HTTP framework
// and no handler. The schemas are reflected from the server/api wire types
// by swaggest/openapi-go.
package openapi

import (
	"bytes"
	"encoding/json"
	"fmt"

	"github.com/photoctl/photoctl/server/api"

	openapigo "github.com/swaggest/openapi-go"
	"github.com/swaggest/openapi-go/openapi31"
)

// API is what the document describes: the operations, in the order the
// document lists their tags, and the few facts of the server that the
// operations' prose and parameters repeat.
type API struct {
	// SessionCookie is the name of the web gallery's session cookie, a
	// credential wherever a first-party session is.
	SessionCookie string
	// Paging bounds the limit query parameter of the paged operations.
	Paging Paging
	// Operations lists every operation once.
	Operations []Operation
}

// Paging gives the bounds and the default of a page's size.
type Paging struct {
	Min, Max, Default int
}

// Operation is one route: its method, its path in the router's syntax
// (/api/libraries/:id), who may call it and what it takes and answers.
type Operation struct {
	Method string
	Path   string
	Access Access
	Doc    Doc
}

// Access says who may call an operation, as far as the document tells.
type Access struct {
	// Public operations need no credential.
	Public bool
	// PerAddress limits a public operation by client address (429).
	PerAddress bool
	// Kinds names, for the prose, the credential kinds accepted ("API
	// key"); nil accepts all of them.
	Kinds []string
	// Cookie is true when the session cookie authenticates the operation
	// (it accepts a first-party session).
	Cookie bool
	// Action is what an API key or OAuth token must grant; "" needs none.
	Action string
	// Sharing operations answer 403, 404 and 409 with a code.
	Sharing bool
}

// Doc describes what an operation takes and answers.
type Doc struct {
	Summary string
	Tag     string
	Query   []string // query parameter names beyond paging
	Must    []string // the query parameters among Query that are required
	Paged   bool
	Body    any   // JSON request body type, nil for none
	Form    any   // multipart/form-data body (a struct with formData tags), nil for none
	Status  int   // success status
	Resp    any   // success body type
	Also    []int // other success statuses with the same body (200 for a named-create match)
	Errs    []int // failures beyond the common ones (401 on sign-in, 409)
}

// JSON generates the OpenAPI 3.1 document of a: indented JSON with a
// trailing newline, its keys in a fixed order (the document's fields in the
// specification's order, map keys sorted), so the same description always
// gives the same bytes.
func JSON(a API) ([]byte, error) {
	r := newSchemaReflector()
	spec := r.SpecEns()
	spec.Info.WithTitle("photoctl API").WithVersion(api.APIVersion).
		WithDescription("The photoctl photo library API. Every path begins with /api; bodies are JSON.")
	spec.WithServers(openapi31.Server{URL: "/"})
	spec.SetHTTPBearerTokenSecurity(bearerAuth, "",
		"API key `apikey_…`, OAuth access token or first-party session JWT, sent as `Authorization: Bearer …`.")
	spec.SetAPIKeySecurity(sessionCookieAuth, a.SessionCookie, openapigo.InCookie,
		"The web gallery's first-party session (set by its sign-in form), read when there is no Authorization header. "+
			"A request it authenticates with a method other than GET, HEAD or OPTIONS must send the session's CSRF token "+
			"in `X-CSRF-Token` (403 without it); see docs/api.md.")
	if err := addErrorComponents(r); err != nil {
		return nil, fmt.Errorf("document error responses: %w", err)
	}
	seen := map[string]bool{}
	for _, op := range a.Operations {
		if !seen[op.Doc.Tag] {
			seen[op.Doc.Tag] = true
			spec.Tags = append(spec.Tags, openapi31.Tag{Name: op.Doc.Tag})
		}
		if err := addOperation(r, op, a.Paging); err != nil {
			return nil, fmt.Errorf("document %s %s: %w", op.Method, op.Path, err)
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
