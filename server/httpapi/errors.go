package httpapi

import (
	"errors"
	"log/slog"
	"strconv"

	"github.com/gofiber/fiber/v2"

	"github.com/photoctl/photoctl/server/api"
	"github.com/photoctl/photoctl/server/catalog"
)

// StatusOf maps an error kind to its status code.
func StatusOf(err error) int {
	var fe *fiber.Error
	var rl *catalog.RateLimitedError
	var ve *catalog.ValidationError
	switch {
	case errors.As(err, &ve):
		return fiber.StatusUnprocessableEntity
	case errors.As(err, &rl):
		return fiber.StatusTooManyRequests
	case errors.Is(err, catalog.ErrUnauthenticated):
		return fiber.StatusUnauthorized
	case errors.Is(err, catalog.ErrForbidden):
		return fiber.StatusForbidden
	case errors.Is(err, catalog.ErrNotFound):
		return fiber.StatusNotFound
	case errors.Is(err, catalog.ErrConflict):
		return fiber.StatusConflict
	case errors.Is(err, catalog.ErrTooLarge):
		return fiber.StatusRequestEntityTooLarge
	case errors.Is(err, catalog.ErrInsufficient):
		return fiber.StatusInsufficientStorage
	case errors.Is(err, catalog.ErrUnavailable):
		return fiber.StatusServiceUnavailable
	case errors.As(err, &fe):
		return fe.Code
	default:
		return fiber.StatusInternalServerError
	}
}

// handleError is the one place where errors become responses in the
// contract's shapes (spec "Errors").
func (s *Server) handleError(c *fiber.Ctx, err error) error {
	status := StatusOf(err)
	var body any
	var ve *catalog.ValidationError
	var rl *catalog.RateLimitedError
	switch {
	case errors.As(err, &ve):
		body = validationBody(ve)
	case status == fiber.StatusInternalServerError:
		s.log.ErrorContext(c.UserContext(), "request failed", "err", err, "request_id", RequestID(c),
			"method", c.Method(), "path", c.Path())
		body = api.ErrorResponse{Detail: "internal error; the server log has details under request id " + RequestID(c)}
	default:
		if errors.As(err, &rl) {
			c.Set(fiber.HeaderRetryAfter, strconv.Itoa(rl.Seconds()))
		}
		if ce, ok := isSharingError(err); ok {
			body = api.SharingErrorResponse{Detail: ce.Detail, Code: ce.Code}
		} else {
			body = api.ErrorResponse{Detail: DetailOf(err)}
		}
	}
	return SendJSON(c.Status(status), body)
}

// DetailOf strips the trailing ": kind" that wrapping with %w leaves, so
// the detail reads as a sentence.
func DetailOf(err error) string {
	msg := err.Error()
	for _, kind := range []error{catalog.ErrUnauthenticated, catalog.ErrForbidden, catalog.ErrNotFound,
		catalog.ErrConflict, catalog.ErrTooLarge, catalog.ErrInsufficient, catalog.ErrUnavailable} {
		suffix := ": " + kind.Error()
		if len(msg) > len(suffix) && msg[len(msg)-len(suffix):] == suffix {
			return msg[:len(msg)-len(suffix)]
		}
	}
	return msg
}

func validationBody(ve *catalog.ValidationError) api.UnprocessableEntityResponse {
	if len(ve.Fields) == 0 {
		return api.UnprocessableEntityResponse{Detail: ve.Error()}
	}
	items := make([]api.ValidationError, len(ve.Fields))
	for i, f := range ve.Fields {
		loc := f.Loc
		if loc == nil {
			loc = []any{}
		}
		items[i] = api.ValidationError{Loc: loc, Msg: f.Msg, Type: f.Type, Input: f.Input, Ctx: f.Ctx}
	}
	return api.UnprocessableEntityResponse{Detail: items}
}

// notFound answers routes that do not exist.
func notFound(c *fiber.Ctx) error {
	return fiber.NewError(fiber.StatusNotFound, "no route "+c.Method()+" "+c.Path())
}

// logger is the slog attribute set for the HTTP component.
func componentLogger(l *slog.Logger) *slog.Logger { return l.With("component", "http") }
