package httpapi

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
	name        string
	status      int
	body        any
	description string
}

var (
	errUnauthorized = errorComponent{"Unauthorized", http.StatusUnauthorized, api.ErrorResponse{},
		"Missing, invalid or expired credential."}
	errForbidden = errorComponent{"Forbidden", http.StatusForbidden, api.ErrorResponse{},
		"The credential is valid but may not perform this operation (credential kind, action or library scope)."}
	errSharingForbidden = errorComponent{"SharingForbidden", http.StatusForbidden, api.SharingErrorResponse{},
		"The credential may not perform this library-sharing operation; `code` says why."}
	errNotFound = errorComponent{"NotFound", http.StatusNotFound, api.ErrorResponse{},
		"No such resource, or not one the caller can reach."}
	errSharingNotFound = errorComponent{"SharingNotFound", http.StatusNotFound, api.SharingErrorResponse{},
		"No such resource, or not one the caller can reach; `code` names it."}
	errUnprocessable = errorComponent{"UnprocessableEntity", http.StatusUnprocessableEntity,
		api.UnprocessableEntityResponse{}, "The request failed validation."}
	errTooManyRequests = errorComponent{"TooManyRequests", http.StatusTooManyRequests, api.ErrorResponse{},
		"Rate limit exceeded; retry after the number of seconds in Retry-After."}
	errConflict = errorComponent{"Conflict", http.StatusConflict, api.ErrorResponse{},
		"The supplied fields conflict with an existing resource, or the name is taken."}
	errSharingConflict = errorComponent{"SharingConflict", http.StatusConflict, api.SharingErrorResponse{},
		"The library-sharing operation conflicts with the current state; `code` says why."}
	errTooLarge = errorComponent{"PayloadTooLarge", http.StatusRequestEntityTooLarge, api.ErrorResponse{},
		"The request body is larger than the server accepts."}
	errUnavailable = errorComponent{"ServiceUnavailable", http.StatusServiceUnavailable, api.ErrorResponse{},
		"A service the operation depends on (the identity provider, or the bucket that keeps the files with storage.s3) cannot be reached; try again later."}
	errInsufficient = errorComponent{"InsufficientStorage", http.StatusInsufficientStorage, api.ErrorResponse{},
		"The library owner's storage quota, or the server's disk or bucket, has no room for the file."}

	errorComponents = []errorComponent{errUnauthorized, errForbidden, errSharingForbidden, errNotFound,
		errSharingNotFound, errConflict, errSharingConflict, errTooLarge, errUnprocessable, errTooManyRequests,
		errInsufficient, errUnavailable}
)

// routeErrors lists the failures a route can answer with: 401, 403 and 429
// from authorize on authenticated routes (429 also on public routes limited
// per address), 404 when the path names a resource, 422 when there is a
// body or a query to validate, and 403, 404, 409, 422, 507 or 503 when the
// route lists them in errs. Sharing routes answer 403, 404 and 409 with a code.
func routeErrors(rt route) []errorComponent {
	forbidden, notFound, conflict := errForbidden, errNotFound, errConflict
	if rt.access.sharing {
		forbidden, notFound, conflict = errSharingForbidden, errSharingNotFound, errSharingConflict
	}
	var out []errorComponent
	if !rt.access.public || slices.Contains(rt.doc.errs, http.StatusUnauthorized) {
		out = append(out, errUnauthorized)
	}
	if !rt.access.public || slices.Contains(rt.doc.errs, http.StatusForbidden) {
		out = append(out, forbidden)
	}
	if strings.Contains(rt.path, "/:") || slices.Contains(rt.doc.errs, http.StatusNotFound) {
		out = append(out, notFound)
	}
	if slices.Contains(rt.doc.errs, http.StatusConflict) {
		out = append(out, conflict)
	}
	if rt.doc.body != nil {
		out = append(out, errTooLarge)
	}
	if rt.doc.body != nil || len(rt.doc.query) > 0 || rt.doc.paged ||
		slices.Contains(rt.doc.errs, http.StatusUnprocessableEntity) {
		out = append(out, errUnprocessable)
	}
	if !rt.access.public || rt.access.perAddress {
		out = append(out, errTooManyRequests)
	}
	if slices.Contains(rt.doc.errs, http.StatusInsufficientStorage) {
		out = append(out, errInsufficient)
	}
	if slices.Contains(rt.doc.errs, http.StatusServiceUnavailable) {
		out = append(out, errUnavailable)
	}
	return out
}

// addErrorComponents puts every error response in components/responses,
// with its body schema in components/schemas.
func addErrorComponents(r *openapi31.Reflector) error {
	for _, e := range errorComponents {
		ref, err := reflectComponents(r, e.body)
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
