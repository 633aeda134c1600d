// Package api is the wire contract of the photoctl HTTP API: request and
// response bodies with their JSON names. It uses only the standard library,
// so the client package can import it without pulling in the server.
package api

// APIVersion is the API's version: the OpenAPI document's info.version,
// and what the MCP interface reports to assistants.
const APIVersion = "1.0.0"

// ErrorResponse is the body of 401, 403, 404, 409, 413, 429, 503 and 507.
type ErrorResponse struct {
	Detail string `json:"detail"`
}

// SharingErrorResponse is the body of library-sharing failures; Code is a
// stable machine-readable value (decisions.md "Sharing error codes").
type SharingErrorResponse struct {
	Detail string `json:"detail"`
	Code   string `json:"code"`
}

// ValidationError is one item of a 422 detail array.
type ValidationError struct {
	Loc   []any          `json:"loc"`
	Msg   string         `json:"msg"`
	Type  string         `json:"type"`
	Input any            `json:"input,omitempty"`
	Ctx   map[string]any `json:"ctx,omitempty"`
}

// UnprocessableEntityResponse is the body of a 422. Detail is either a
// string (a semantic message) or a []ValidationError.
type UnprocessableEntityResponse struct {
	Detail any `json:"detail"`
}

// Page is the envelope of every cursor-paginated list.
type Page[T any] struct {
	Data    []T  `json:"data"`
	HasMore bool `json:"has_more"`
}
