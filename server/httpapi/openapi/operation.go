package openapi

import (
	"fmt"
	"net/http"
	"slices"
	"strings"

	openapigo "github.com/swaggest/openapi-go"
	"github.com/swaggest/openapi-go/openapi31"
)

// bearerAuth names the security scheme of every credential sent as a
// bearer token; sessionCookieAuth the web gallery's session cookie,
// accepted wherever a first-party session is.
const (
	bearerAuth        = "bearerAuth"
	sessionCookieAuth = "sessionCookie"
)

// addOperation documents one operation in r's document.
func addOperation(r *openapi31.Reflector, op Operation, paging Paging) error {
	oc, err := r.NewOperationContext(op.Method, PathTemplate(op.Path))
	if err != nil {
		return err
	}
	oc.SetID(operationID(op.Method, op.Path))
	oc.SetSummary(op.Doc.Summary)
	oc.SetTags(op.Doc.Tag)
	oc.SetDescription(credentialText(op.Access))
	if !op.Access.Public {
		var scopes []string
		if op.Access.Action != "" {
			scopes = []string{op.Access.Action}
		}
		oc.AddSecurity(bearerAuth, scopes...)
		if op.Access.Cookie {
			oc.AddSecurity(sessionCookieAuth)
		}
	}
	exposer, ok := oc.(openapi31.OperationExposer)
	if !ok {
		return fmt.Errorf("operation context %T exposes no operation", oc)
	}
	exposer.Operation().Parameters = parameters(op, paging)

	if op.Doc.Body != nil {
		addRequestBody(oc, op.Doc.Body, mimeJSON)
	}
	if op.Doc.Form != nil {
		addRequestBody(oc, op.Doc.Form, mimeMultipart)
	}
	addSuccess(oc, op.Doc)
	for _, e := range operationErrors(op) {
		oc.AddRespStructure(nil, openapigo.WithHTTPStatus(e.status), openapigo.WithReference(responsesPrefix+e.name))
	}
	return r.AddOperation(oc)
}

const (
	mimeJSON      = "application/json"
	mimeMultipart = "multipart/form-data"
)

// addRequestBody documents a required request body of the given type.
func addRequestBody(oc openapigo.OperationContext, body any, contentType string) {
	oc.AddReqStructure(body, openapigo.WithContentType(contentType),
		openapigo.WithCustomize(func(cor openapigo.ContentOrReference) {
			if rb, ok := cor.(*openapi31.RequestBodyOrReference); ok && rb.RequestBody != nil {
				rb.RequestBody.WithRequired(true)
			}
		}))
}

// addSuccess documents the success response: its body type, or no content
// when the operation names none (204, or a body that is not JSON).
func addSuccess(oc openapigo.OperationContext, d Doc) {
	var body any
	if d.Status != http.StatusNoContent {
		body = d.Resp
	}
	oc.AddRespStructure(body, openapigo.WithHTTPStatus(d.Status))
	for _, status := range d.Also {
		oc.AddRespStructure(body, openapigo.WithHTTPStatus(status))
	}
}

// parameters lists an operation's path parameters, then its paging and other
// query parameters.
func parameters(op Operation, paging Paging) []openapi31.ParameterOrReference {
	var out []openapi31.ParameterOrReference
	add := func(in openapi31.ParameterIn, name, description string, required bool, schema map[string]any) {
		p := openapi31.Parameter{Name: name, In: in, Schema: schema}
		if description != "" {
			p.WithDescription(description)
		}
		if required {
			p.WithRequired(true)
		}
		out = append(out, p.ToParameterOrRef())
	}
	for _, seg := range strings.Split(op.Path, "/") {
		if name, ok := strings.CutPrefix(seg, ":"); ok {
			add(openapi31.ParameterInPath, name, "", true, map[string]any{"type": "string"})
		}
	}
	if op.Doc.Paged {
		add(openapi31.ParameterInQuery, "limit", "Page size.", false, map[string]any{
			"type": "integer", "minimum": paging.Min, "maximum": paging.Max, "default": paging.Default})
		add(openapi31.ParameterInQuery, "starting_after_id", "The id of the last item of the previous page; omit for the first page.",
			false, map[string]any{"type": "string"})
	}
	for _, name := range op.Doc.Query {
		d, ok := queryParamDocs[name]
		if !ok {
			d.schema = map[string]any{"type": "string"}
		}
		add(openapi31.ParameterInQuery, name, d.description, slices.Contains(op.Doc.Must, name), d.schema)
	}
	return out
}

// queryParamDocs describe the query parameters whose values the document
// spells out; the others are plain strings, described in docs/api.md.
var queryParamDocs = map[string]struct {
	description string
	schema      map[string]any
}{
	"stacks": {"How stacks show: collapse (a stack is one row, its cover) or expand (every member is a row; " +
		"stack.cover_asset_id names the cover). Counts and geo-clusters count the rows of the same view. " +
		"Album lists (album_id) are never collapsed.",
		map[string]any{"type": "string", "enum": []any{"collapse", "expand"}, "default": "collapse"}},
	"v": {"The asset's rendering version, as asset_urls give it: under the current one the rendering may be " +
		"cached a year (Cache-Control: immutable); without it, or under an older one, it is revalidated (ETag).",
		map[string]any{"type": "string"}},
}

// PathTemplate turns a router path into an OpenAPI path template:
// /api/libraries/:id becomes /api/libraries/{id}.
func PathTemplate(path string) string {
	segs := strings.Split(path, "/")
	for i, s := range segs {
		if name, ok := strings.CutPrefix(s, ":"); ok {
			segs[i] = "{" + name + "}"
		}
	}
	return strings.Join(segs, "/")
}

// operationID derives a stable operation id from the method and path, which
// are unique together: GET /api/libraries/:id is get_api_libraries_id.
func operationID(method, path string) string {
	id := strings.ToLower(method) + "_" + strings.Trim(path, "/")
	return strings.NewReplacer("/", "_", ":", "", "-", "_", ".", "_").Replace(id)
}

// credentialText says in prose who may call an operation and what a scoped
// credential must grant.
func credentialText(a Access) string {
	if a.Public {
		if a.PerAddress {
			return "Credential: none. Rate-limited per client address."
		}
		return "Credential: none."
	}
	var text string
	switch n := len(a.Kinds); {
	case a.Kinds == nil:
		text = "Credential: API key, OAuth token or first-party session"
	case n == 1:
		text = "Credential: " + a.Kinds[0] + " only"
	default:
		text = "Credential: " + strings.Join(a.Kinds[:n-1], ", ") + " or " + a.Kinds[n-1]
	}
	if a.Action != "" {
		text += fmt.Sprintf("; needs action `%s`", a.Action)
	}
	return text + "."
}
