package openapi

import (
	"net/http"
	"slices"
	"strings"

	"github.com/swaggest/openapi-go/openapi31"

	"github.com/photoctl/photoctl/server/api"
)

const responsesPrefix = "#/components/responses/"

// errorComponent is a failure response shared by operations, kept once in
// components/responses.
type errorComponent struct {
	name   string
	status int
	// coded components answer the sharing operations: their body is
	// api.SharingErrorResponse, whose code says why.
	coded       bool
	description string
}

// errorComponents lists the failure responses in the order an operation
// lists them. Its statuses 403, 404 and 409 come in two kinds, plain and
// coded.
var errorComponents = []errorComponent{
	{"Unauthorized", http.StatusUnauthorized, false, "Missing, invalid or expired credential."},
	{"Forbidden", http.StatusForbidden, false,
		"The credential is valid but may not perform this operation (credential kind, action or library scope)."},
	{"SharingForbidden", http.StatusForbidden, true,
		"The credential may not perform this library-sharing operation; `code` says why."},
	{"NotFound", http.StatusNotFound, false, "No such resource, or not one the caller can reach."},
	{"SharingNotFound", http.StatusNotFound, true,
		"No such resource, or not one the caller can reach; `code` names it."},
	{"Conflict", http.StatusConflict, false,
		"The supplied fields conflict with an existing resource, or the name is taken."},
	{"SharingConflict", http.StatusConflict, true,
		"The library-sharing operation conflicts with the current state; `code` says why."},
	{"PayloadTooLarge", http.StatusRequestEntityTooLarge, false,
		"The request body is larger than the server accepts."},
	{"UnprocessableEntity", http.StatusUnprocessableEntity, false, "The request failed validation."},
	{"TooManyRequests", http.StatusTooManyRequests, false,
		"Rate limit exceeded; retry after the number of seconds in Retry-After."},
	{"InsufficientStorage", http.StatusInsufficientStorage, false,
		"The library owner's storage quota, or the server's disk or bucket, has no room for the file."},
	{"ServiceUnavailable", http.StatusServiceUnavailable, false,
		"A service the operation depends on (the identity provider, or the bucket that keeps the files with storage.s3) cannot be reached; try again later."},
}

// body is the component's body type.
func (e errorComponent) body() any {
	switch {
	case e.coded:
		return api.SharingErrorResponse{}
	case e.status == http.StatusUnprocessableEntity:
		return api.UnprocessableEntityResponse{}
	}
	return api.ErrorResponse{}
}

// operationErrors lists the failures an operation can answer with: 401,
// 403 and 429 from the server's authorization on authenticated operations
// (429 also on public operations limited per address), 404 when the path
// names a resource, 413 when there is a JSON body, 422 when there is a
// body or a query to validate, and 401, 403, 404, 409, 413, 422, 507 or
// 503 when the operation lists them in Errs (a multipart upload lists
// 413). Sharing operations answer 403, 404 and 409 with a code.
func operationErrors(op Operation) []errorComponent {
	d, a := op.Doc, op.Access
	listed := func(status int) bool { return slices.Contains(d.Errs, status) }
	answers := map[int]bool{
		http.StatusUnauthorized:          !a.Public || listed(http.StatusUnauthorized),
		http.StatusForbidden:             !a.Public || listed(http.StatusForbidden),
		http.StatusNotFound:              strings.Contains(op.Path, "/:") || listed(http.StatusNotFound),
		http.StatusConflict:              listed(http.StatusConflict),
		http.StatusRequestEntityTooLarge: d.Body != nil || listed(http.StatusRequestEntityTooLarge),
		http.StatusUnprocessableEntity: d.Body != nil || len(d.Query) > 0 || d.Paged ||
			listed(http.StatusUnprocessableEntity),
		http.StatusTooManyRequests:     !a.Public || a.PerAddress,
		http.StatusInsufficientStorage: listed(http.StatusInsufficientStorage),
		http.StatusServiceUnavailable:  listed(http.StatusServiceUnavailable),
	}
	var out []errorComponent
	for _, e := range errorComponents {
		if answers[e.status] && (e.coded == a.Sharing || !hasCodedKind(e.status)) {
			out = append(out, e)
		}
	}
	return out
}

// hasCodedKind reports whether a status has a coded component beside its
// plain one.
func hasCodedKind(status int) bool {
	return slices.ContainsFunc(errorComponents, func(e errorComponent) bool { return e.coded && e.status == status })
}

// addErrorComponents puts every error response in components/responses,
// with its body schema in components/schemas.
func addErrorComponents(r *openapi31.Reflector) error {
	for _, e := range errorComponents {
		ref, err := reflectComponents(r, e.body())
		if err != nil {
			return err
		}
		schema, err := ref.ToSchemaOrBool().ToSimpleMap()
		if err != nil {
			return err
		}
		resp := openapi31.Response{Description: e.description,
			Content: map[string]openapi31.MediaType{mimeJSON: {Schema: schema}}}
		if e.status == http.StatusTooManyRequests {
			resp.WithHeadersItem("Retry-After", openapi31.HeaderOrReference{Header: (&openapi31.Header{}).
				WithDescription("Seconds to wait before retrying.").WithRequired(true).
				WithSchema(map[string]any{"type": "integer", "minimum": 0})})
		}
		r.SpecEns().ComponentsEns().WithResponsesItem(e.name, openapi31.ResponseOrReference{Response: &resp})
	}
	return nil
}
