package immichapi

import (
	"errors"
	"fmt"
	"net/http"
	"strconv"
	"strings"

	"github.com/gofiber/fiber/v2"

	"github.com/photoctl/photoctl/server/catalog"
	"github.com/photoctl/photoctl/server/httpapi"
	"github.com/photoctl/photoctl/server/immich"
)

// handler authenticates (401), rate-limits (429) and checks the
// action (403 naming the Immich permission) before h; every error becomes
// Immich's body here, so the native error handler never sees one.
func (l *layer) handler(a access, h fiber.Handler) fiber.Handler {
	return func(c *fiber.Ctx) error {
		err := l.authorize(c, a)
		leave := func() {}
		if err == nil && !a.public {
			leave, err = l.s.EnterGate(c, httpapi.Principal(c), a.cost)
		}
		if err == nil {
			err = h(c)
			leave()
		}
		if err != nil {
			return l.answerError(c, err)
		}
		return nil
	}
}

// authorize authenticates the request's x-api-key or Authorization
// header, charges the rate limit and checks a's action, unless a is public.
func (l *layer) authorize(c *fiber.Ctx, a access) error {
	if a.public {
		return nil
	}
	var p *catalog.Principal
	var err error
	if key := c.Get("x-api-key"); key != "" {
		p, err = l.auth.AuthenticateAPIKey(c.UserContext(), key)
	} else if c.Get(fiber.HeaderAuthorization) != "" {
		p, err = l.auth.Authenticate(c.UserContext(), c.Get(fiber.HeaderAuthorization))
	} else {
		err = fmt.Errorf("authentication required: send x-api-key or Authorization: Bearer: %w", catalog.ErrUnauthenticated)
	}
	if err != nil {
		return err
	}
	if err := l.s.Charge(c, p, a.cost); err != nil {
		return err
	}
	if a.action != "" && !p.Allows(a.action) {
		return missingPermission(a.action)
	}
	httpapi.SetPrincipal(c, p)
	return nil
}

// missingPermission is Immich's 403 for a credential without action,
// named by its Immich permission.
func missingPermission(action catalog.Action) error {
	return fmt.Errorf("Missing required permission: %s: %w", immich.Permission(action), catalog.ErrForbidden)
}

// answerError answers err in Immich's shape {message, error, statusCode}.
// Validation problems are Immich's 400, except a library that cannot be
// chosen (422); unknown errors are logged and answered 500.
func (l *layer) answerError(c *fiber.Ctx, err error) error {
	status := httpapi.StatusOf(err)
	msg := httpapi.DetailOf(err)
	var ve *catalog.ValidationError
	var rl *catalog.RateLimitedError
	switch {
	case errors.Is(err, immich.ErrLibraryChoice):
		status = fiber.StatusUnprocessableEntity
		msg = strings.TrimSuffix(err.Error(), ": "+immich.ErrLibraryChoice.Error())
	case errors.Is(err, immich.ErrBadPage):
		status = fiber.StatusBadRequest
	case errors.As(err, &ve):
		status, msg = fiber.StatusBadRequest, validationMessage(ve)
	case errors.As(err, &rl):
		c.Set(fiber.HeaderRetryAfter, strconv.Itoa(rl.Seconds()))
	case status == fiber.StatusInternalServerError:
		l.s.Logger().ErrorContext(c.UserContext(), "request failed", "err", err, "request_id", httpapi.RequestID(c),
			"method", c.Method(), "path", c.Path())
		msg = "internal error; the server log has details under request id " + httpapi.RequestID(c)
	}
	return httpapi.SendJSON(c.Status(status), immich.ErrorBody{Message: msg, Error: http.StatusText(status), StatusCode: status})
}

// validationMessage spells field errors as "assets.3.checksum: …".
func validationMessage(ve *catalog.ValidationError) string {
	if len(ve.Fields) == 0 {
		return ve.Error()
	}
	parts := make([]string, len(ve.Fields))
	for i, f := range ve.Fields {
		var loc []string
		for j, l := range f.Loc {
			if j == 0 && (l == "body" || l == "query" || l == "path" || l == "header") && len(f.Loc) > 1 {
				continue
			}
			loc = append(loc, fmt.Sprint(l))
		}
		parts[i] = strings.Join(loc, ".") + ": " + f.Msg
	}
	return strings.Join(parts, "; ")
}
