package catalog

import (
	"errors"
	"fmt"
	"time"
)

// Error kinds. Specific errors wrap one of these so that the HTTP layer can
// choose a status code with errors.Is, without knowing the feature.
var (
	ErrNotFound        = errors.New("not found")
	ErrConflict        = errors.New("conflict")
	ErrForbidden       = errors.New("forbidden")
	ErrUnauthenticated = errors.New("unauthenticated")
	ErrUnavailable     = errors.New("unavailable")
	ErrTooLarge        = errors.New("too large")
	ErrInsufficient    = errors.New("insufficient storage")
)

// CodedError carries a stable machine-readable code (the sharing error codes
// of decisions.md) beside a human-readable detail, and wraps an error kind.
type CodedError struct {
	Kind   error
	Code   string
	Detail string
}

func (e *CodedError) Error() string { return e.Detail }

// Unwrap returns the error kind.
func (e *CodedError) Unwrap() error { return e.Kind }

// Coded returns an error of the given kind with a stable code.
func Coded(kind error, code, detail string) error {
	return &CodedError{Kind: kind, Code: code, Detail: detail}
}

// RateLimitedError reports that a caller exceeded its rate limit.
type RateLimitedError struct {
	RetryAfter time.Duration
}

func (e *RateLimitedError) Error() string {
	return fmt.Sprintf("rate limit exceeded; retry in %ds", e.Seconds())
}

// Seconds is RetryAfter in whole seconds, rounded up and at least 1: the
// value of the Retry-After header, which the detail repeats.
func (e *RateLimitedError) Seconds() int {
	secs := e.RetryAfter / time.Second
	if e.RetryAfter%time.Second > 0 {
		secs++
	}
	return max(int(secs), 1)
}

// FieldError is one validation failure in the spec's ValidationError shape.
type FieldError struct {
	Loc   []any
	Msg   string
	Type  string
	Input any
	Ctx   map[string]any
}

// ValidationError is a 422: either a single semantic message (Message set,
// Fields empty) or a list of field errors.
type ValidationError struct {
	Message string
	Fields  []FieldError
}

func (e *ValidationError) Error() string {
	if e.Message != "" {
		return e.Message
	}
	if len(e.Fields) > 0 {
		return fmt.Sprintf("%v: %s", e.Fields[0].Loc, e.Fields[0].Msg)
	}
	return "validation failed"
}

// Invalid returns a semantic validation error with a single message.
func Invalid(format string, args ...any) error {
	return &ValidationError{Message: fmt.Sprintf(format, args...)}
}

// InvalidField returns a validation error for one field. loc follows the
// spec: the first element names where the value came from ("body", "query",
// "path"), then the field path.
func InvalidField(typ, msg string, input any, loc ...any) error {
	return &ValidationError{Fields: []FieldError{{Loc: loc, Msg: msg, Type: typ, Input: input}}}
}
