package httpapi

import (
	"context"
	"slices"

	"github.com/gofiber/fiber/v2"

	"github.com/photoctl/photoctl/server/catalog"
	"github.com/photoctl/photoctl/server/httpapi/convert"
	"github.com/photoctl/photoctl/server/query"
)

// The shapes most handlers share. A handler built from one refuses query
// parameters it does not name (422), decodes the JSON body if there is
// one, calls the service with the request's principal and the path's :id,
// and converts the result; a route passes only what differs: the service
// call and the conversion. Handlers that do more (several path ids, a
// created status, a filter read before the page) are written out.

// byID is a service call on the record that the path's :id names.
type byID[T any] func(ctx context.Context, p *catalog.Principal, id string) (T, error)

// withBody is a service call on the path's :id with the decoded body.
type withBody[R, T any] func(ctx context.Context, p *catalog.Principal, id string, req *R) (T, error)

// one answers the record call returns, converted (200): a read, or an
// action with no body that answers the record it changed.
func one[T, W any](call byID[*T], conv func(*T) W) fiber.Handler {
	return func(c *fiber.Ctx) error {
		if err := allowQuery(c); err != nil {
			return err
		}
		v, err := call(c.UserContext(), Principal(c), c.Params("id"))
		if err != nil {
			return err
		}
		return SendJSON(c, conv(v))
	}
}

// oneWithBody decodes a JSON body R, applies it with change and answers
// the changed record, converted (200).
func oneWithBody[R, T, W any](change withBody[R, *T], conv func(*T) W) fiber.Handler {
	return func(c *fiber.Ctx) error {
		var req R
		if err := decodeRequest(c, &req); err != nil {
			return err
		}
		v, err := change(c.UserContext(), Principal(c), c.Params("id"), &req)
		if err != nil {
			return err
		}
		return SendJSON(c, conv(v))
	}
}

// noContent runs act, which takes no body, and answers 204.
func noContent(act func(ctx context.Context, p *catalog.Principal, id string) error) fiber.Handler {
	return func(c *fiber.Ctx) error {
		if err := allowQuery(c); err != nil {
			return err
		}
		if err := act(c.UserContext(), Principal(c), c.Params("id")); err != nil {
			return err
		}
		return c.SendStatus(fiber.StatusNoContent)
	}
}

// listPage answers one page of list, converted: params are the query
// parameters it reads beside the page's own, which it reads first.
func listPage[T, W any](params []string, list func(c *fiber.Ctx, pg query.Page) ([]T, bool, error),
	conv func(*T) W) fiber.Handler {
	allowed := slices.Concat(params, pageParams)
	return func(c *fiber.Ctx) error {
		if err := allowQuery(c, allowed...); err != nil {
			return err
		}
		pg, err := parsePage(c)
		if err != nil {
			return err
		}
		items, more, err := list(c, pg)
		if err != nil {
			return err
		}
		return SendJSON(c, convert.Page(items, more, conv))
	}
}

// lister is a service's list of the records of one id or name.
type lister[T any] func(ctx context.Context, p *catalog.Principal, arg string, pg query.Page) ([]T, bool, error)

// listByQuery answers a page of list for the query parameter name (""
// when absent: the service's default, such as the caller's one library).
func listByQuery[T, W any](name string, list lister[T], conv func(*T) W) fiber.Handler {
	return listPage([]string{name}, func(c *fiber.Ctx, pg query.Page) ([]T, bool, error) {
		return list(c.UserContext(), Principal(c), c.Query(name), pg)
	}, conv)
}

// listByID answers a page of list for the record the path's :id names.
func listByID[T, W any](list lister[T], conv func(*T) W) fiber.Handler {
	return listPage(nil, func(c *fiber.Ctx, pg query.Page) ([]T, bool, error) {
		return list(c.UserContext(), Principal(c), c.Params("id"), pg)
	}, conv)
}
