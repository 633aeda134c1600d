package client

import (
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"strings"
	"time"

	"github.com/photoctl/photoctl/server/api"
)

// Error kinds an *APIError matches with errors.Is, by status code, so that
// callers need not compare numbers: errors.Is(err, client.ErrNotFound).
var (
	ErrUnauthenticated = errors.New("unauthenticated")      // 401
	ErrForbidden       = errors.New("forbidden")            // 403
	ErrNotFound        = errors.New("not found")            // 404
	ErrConflict        = errors.New("conflict")             // 409
	ErrTooLarge        = errors.New("too large")            // 413
	ErrInvalid         = errors.New("invalid request")      // 422
	ErrRateLimited     = errors.New("rate limited")         // 429
	ErrUnavailable     = errors.New("unavailable")          // 503
	ErrNoSpace         = errors.New("insufficient storage") // 507
)

var kindOfStatus = map[int]error{
	http.StatusUnauthorized:          ErrUnauthenticated,
	http.StatusForbidden:             ErrForbidden,
	http.StatusNotFound:              ErrNotFound,
	http.StatusConflict:              ErrConflict,
	http.StatusRequestEntityTooLarge: ErrTooLarge,
	http.StatusUnprocessableEntity:   ErrInvalid,
	http.StatusTooManyRequests:       ErrRateLimited,
	http.StatusServiceUnavailable:    ErrUnavailable,
	http.StatusInsufficientStorage:   ErrNoSpace,
}

// APIError is a response the server answered with a failure status. It
// carries the contract's error body: Detail (the message, or the first
// validation message), Code (the stable sharing error code, when sent) and
// Fields (the 422 validation list).
type APIError struct {
	Method, Path string
	Status       int
	Detail       string
	Code         string
	Fields       []api.ValidationError
	RequestID    string
	// RetryAfter is the server's Retry-After on a 429 or 503, zero if none.
	RetryAfter time.Duration
}

// Error reads "GET /api/assets: 422: query.limit: Input should be ...".
func (e *APIError) Error() string {
	var b strings.Builder
	fmt.Fprintf(&b, "%s %s: %d", e.Method, e.Path, e.Status)
	switch {
	case len(e.Fields) > 0:
		for i, f := range e.Fields {
			if i == 0 {
				b.WriteString(": ")
			} else {
				b.WriteString("; ")
			}
			b.WriteString(FieldMessage(f))
		}
	case e.Detail != "":
		b.WriteString(": ")
		b.WriteString(e.Detail)
	default:
		b.WriteString(" ")
		b.WriteString(http.StatusText(e.Status))
	}
	return b.String()
}

// Is matches the error kind of e's status (ErrNotFound for a 404, ...).
func (e *APIError) Is(target error) bool {
	kind, ok := kindOfStatus[e.Status]
	return ok && kind == target
}

// FieldMessage renders one validation error as "body.updates.3.rating:
// must be at most 5".
func FieldMessage(f api.ValidationError) string {
	parts := make([]string, len(f.Loc))
	for i, l := range f.Loc {
		parts[i] = fmt.Sprint(l)
	}
	if len(parts) == 0 {
		return f.Msg
	}
	return strings.Join(parts, ".") + ": " + f.Msg
}

// errorBody is every error shape of the contract at once: detail is a
// string, or on a 422 possibly a list of validation errors.
type errorBody struct {
	Detail json.RawMessage `json:"detail"`
	Code   string          `json:"code"`
}

// newAPIError builds the error of a failed response from its body, which
// may be any of the contract's error shapes or (from a proxy) not JSON.
func newAPIError(method, path string, status int, header http.Header, body []byte) *APIError {
	e := &APIError{Method: method, Path: path, Status: status, RequestID: header.Get("X-Request-Id"),
		RetryAfter: parseRetryAfter(header.Get("Retry-After"), time.Now())}
	var eb errorBody
	if err := json.Unmarshal(body, &eb); err != nil || len(eb.Detail) == 0 {
		e.Detail = strings.TrimSpace(string(body))
		if len(e.Detail) > 200 {
			e.Detail = e.Detail[:200] + "…"
		}
		return e
	}
	e.Code = eb.Code
	var s string
	if json.Unmarshal(eb.Detail, &s) == nil {
		e.Detail = s
		return e
	}
	if json.Unmarshal(eb.Detail, &e.Fields) == nil && len(e.Fields) > 0 {
		e.Detail = e.Fields[0].Msg
		return e
	}
	e.Detail = string(eb.Detail)
	return e
}
