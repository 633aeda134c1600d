package httpapi

import (
	"fmt"
	"net/http"
	"slices"
	"strings"

	"github.com/swaggest/openapi-go"
	"github.com/swaggest/openapi-go/openapi31"

	"github.com/photoctl/photoctl/server/catalog"
)

// bearerAuth names the security scheme of every credential sent as a
// bearer token; sessionCookie the web gallery's session cookie, accepted
// wherever a first-party session is (access_cookie.go).
const (
	bearerAuth        = "bearerAuth"
	sessionCookieAuth = "sessionCookie"
)

// addOperation documents one route of the table in r's document.
func addOperation(r *openapi31.Reflector, rt route) error {
	oc, err := r.NewOperationContext(rt.method, openAPIPath(rt.path))
	if err != nil {
		return err
	}
	oc.SetID(operationID(rt.method, rt.path))
	oc.SetSummary(rt.doc.summary)
	oc.SetTags(rt.doc.tag)
	oc.SetDescription(credentialText(rt.access))
	if !rt.access.public {
		var scopes []string
		if rt.access.action != "" {
			scopes = []string{string(rt.access.action)}
		}
		oc.AddSecurity(bearerAuth, scopes...)
		if rt.access.kinds == nil || slices.Contains(rt.access.kinds, catalog.CredSession) {
			oc.AddSecurity(sessionCookieAuth)
		}
	}
	op, ok := oc.(openapi31.OperationExposer)
	if !ok {
		return fmt.Errorf("operation context %T exposes no operation", oc)
	}
	op.Operation().Parameters = parameters(rt)

	if rt.doc.body != nil {
		oc.AddReqStructure(rt.doc.body, openapi.WithContentType(mimeJSON),
			openapi.WithCustomize(func(cor openapi.ContentOrReference) {
				if rb, ok := cor.(*openapi31.RequestBodyOrReference); ok && rb.RequestBody != nil {
					rb.RequestBody.WithRequired(true)
				}
			}))
	}
	if rt.doc.form != nil {
		oc.AddReqStructure(rt.doc.form, openapi.WithContentType(mimeMultipart),
			openapi.WithCustomize(func(cor openapi.ContentOrReference) {
				if rb, ok := cor.(*openapi31.RequestBodyOrReference); ok && rb.RequestBody != nil {
					rb.RequestBody.WithRequired(true)
				}
			}))
	}
	addSuccess(oc, rt.doc)
	for _, e := range routeErrors(rt) {
		oc.AddRespStructure(nil, openapi.WithHTTPStatus(e.status), openapi.WithReference(responsesPrefix+e.name))
	}
	return r.AddOperation(oc)
}

const (
	mimeJSON      = "application/json"
	mimeMultipart = "multipart/form-data"
)

// addSuccess documents the success response: its body type, or no content
// when the route names none (204, or a body that is not JSON).
func addSuccess(oc openapi.OperationContext, d routeDoc) {
	var body any
	if d.status != http.StatusNoContent {
		body = d.resp
	}
	oc.AddRespStructure(body, openapi.WithHTTPStatus(d.status))
	for _, status := range d.also {
		oc.AddRespStructure(body, openapi.WithHTTPStatus(status))
	}
}

// parameters lists a route's path parameters, then its paging and other
// query parameters.
func parameters(rt route) []openapi31.ParameterOrReference {
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
	for _, seg := range strings.Split(rt.path, "/") {
		if name, ok := strings.CutPrefix(seg, ":"); ok {
			add(openapi31.ParameterInPath, name, "", true, map[string]any{"type": "string"})
		}
	}
	if rt.doc.paged {
		add(openapi31.ParameterInQuery, "limit", "Page size.", false, map[string]any{
			"type": "integer", "minimum": minLimit, "maximum": maxLimit, "default": defaultLimit})
		add(openapi31.ParameterInQuery, "starting_after_id", "The id of the last item of the previous page; omit for the first page.",
			false, map[string]any{"type": "string"})
	}
	for _, name := range rt.doc.query {
		d, ok := queryParamDocs[name]
		if !ok {
			d.schema = map[string]any{"type": "string"}
		}
		add(openapi31.ParameterInQuery, name, d.description, slices.Contains(rt.doc.must, name), d.schema)
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

// openAPIPath turns a fiber path into an OpenAPI path template:
// /api/libraries/:id becomes /api/libraries/{id}.
func openAPIPath(path string) string {
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

// credentialText says in prose who may call a route and what a scoped
// credential must grant.
func credentialText(a access) string {
	if a.public {
		if a.perAddress {
			return "Credential: none. Rate-limited per client address."
		}
		return "Credential: none."
	}
	var text string
	switch {
	case a.kinds == nil:
		text = "Credential: API key, OAuth token or first-party session"
	case len(a.kinds) == 1:
		text = "Credential: " + kindText(a.kinds[0]) + " only"
	default:
		names := make([]string, len(a.kinds))
		for i, k := range a.kinds {
			names[i] = kindText(k)
		}
		text = "Credential: " + strings.Join(names[:len(names)-1], ", ") + " or " + names[len(names)-1]
	}
	if a.action != "" {
		text += fmt.Sprintf("; needs action `%s`", a.action)
	}
	return text + "."
}

// kindText names a credential kind for the document's prose.
func kindText(k catalog.CredentialKind) string {
	if k == catalog.CredSession {
		return "first-party session"
	}
	return kindName(k)
}
