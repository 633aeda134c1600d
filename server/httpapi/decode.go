package httpapi

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"

	"github.com/gofiber/fiber/v2"

	"github.com/photoctl/photoctl/server/catalog"
	"github.com/photoctl/photoctl/server/query"
)

// maxJSONBody bounds JSON request bodies (uploads are multipart and have
// their own limit).
const maxJSONBody = 1 << 20

// decodeRequest refuses the query parameters but allowed (allowQuery),
// then decodes the JSON body into v (decodeJSON): the opening of most
// handlers with a body.
func decodeRequest(c *fiber.Ctx, v any, allowed ...string) error {
	if err := allowQuery(c, allowed...); err != nil {
		return err
	}
	return decodeJSON(c, v)
}

// decodeJSON reads the body into v strictly: malformed JSON, a wrong type,
// an unknown field or trailing data is a 422 locating the problem.
func decodeJSON(c *fiber.Ctx, v any) error {
	if c.Request().Header.ContentLength() > maxJSONBody {
		return fmt.Errorf("JSON body larger than %d bytes: %w", maxJSONBody, catalog.ErrTooLarge)
	}
	body := c.Body()
	if len(body) > maxJSONBody {
		return fmt.Errorf("JSON body larger than %d bytes: %w", maxJSONBody, catalog.ErrTooLarge)
	}
	if len(bytes.TrimSpace(body)) == 0 {
		return catalog.InvalidField("missing", "a JSON body is required", nil, "body")
	}
	dec := json.NewDecoder(bytes.NewReader(body))
	dec.DisallowUnknownFields()
	if err := dec.Decode(v); err != nil {
		return JSONError(err, body)
	}
	if _, err := dec.Token(); !errors.Is(err, io.EOF) {
		return catalog.InvalidField("json_invalid", "unexpected data after the JSON value", nil, "body")
	}
	return nil
}

// JSONError turns an encoding/json error into the spec's ValidationError.
func JSONError(err error, body []byte) error {
	var syn *json.SyntaxError
	var typ *json.UnmarshalTypeError
	switch {
	case errors.As(err, &syn):
		return catalog.InvalidField("json_invalid", "invalid JSON: "+syn.Error(), nil, "body", syn.Offset)
	case errors.As(err, &typ):
		loc := []any{"body"}
		if typ.Field != "" {
			for _, part := range strings.Split(typ.Field, ".") {
				loc = append(loc, part)
			}
		}
		return catalog.InvalidField(typeCode(typ.Type.Kind().String()),
			fmt.Sprintf("expected %s, got JSON %s", typ.Type.String(), typ.Value), nil, loc...)
	case errors.Is(err, io.ErrUnexpectedEOF) || errors.Is(err, io.EOF):
		return catalog.InvalidField("json_invalid", "invalid JSON: unexpected end of input", nil, "body")
	case strings.HasPrefix(err.Error(), "json: unknown field "):
		// encoding/json names the field but not where it is: find it.
		field := strings.Trim(strings.TrimPrefix(err.Error(), "json: unknown field "), `"`)
		var doc any
		_ = json.Unmarshal(body, &doc)
		loc := append([]any{"body"}, keyPath(doc, field)...)
		if len(loc) == 1 {
			loc = append(loc, field)
		}
		return catalog.InvalidField("extra_forbidden", "unknown field", nil, loc...)
	default:
		return catalog.InvalidField("value_error", err.Error(), nil, "body")
	}
}

// keyPath returns the path to the first object key named key in a decoded
// JSON document (depth first, arrays in order), or nil.
func keyPath(doc any, key string) []any {
	switch v := doc.(type) {
	case map[string]any:
		if _, ok := v[key]; ok {
			return []any{key}
		}
		names := make([]string, 0, len(v))
		for k := range v {
			names = append(names, k)
		}
		slices.Sort(names)
		for _, k := range names {
			if p := keyPath(v[k], key); p != nil {
				return append([]any{k}, p...)
			}
		}
	case []any:
		for i, item := range v {
			if p := keyPath(item, key); p != nil {
				return append([]any{i}, p...)
			}
		}
	}
	return nil
}

func typeCode(kind string) string {
	switch kind {
	case "string":
		return "string_type"
	case "bool":
		return "bool_type"
	case "slice", "array":
		return "list_type"
	case "struct", "map":
		return "dict_type"
	case "float32", "float64":
		return "float_type"
	default:
		if strings.HasPrefix(kind, "int") || strings.HasPrefix(kind, "uint") {
			return "int_type"
		}
		return "type_error"
	}
}

// allowQuery rejects query parameters outside allowed with a 422 naming
// each of them.
func allowQuery(c *fiber.Ctx, allowed ...string) error {
	var fields []catalog.FieldError
	c.Context().QueryArgs().VisitAll(func(k, _ []byte) {
		name := string(k)
		for _, a := range allowed {
			if a == name {
				return
			}
		}
		fields = append(fields, catalog.FieldError{Loc: []any{"query", name}, Msg: "unknown query parameter",
			Type: "extra_forbidden"})
	})
	if len(fields) > 0 {
		return &catalog.ValidationError{Fields: fields}
	}
	return nil
}

// pageParams names the query parameters of every paginated list.
var pageParams = []string{"limit", "starting_after_id"}

// Page size bounds (spec "Pagination").
const (
	minLimit     = 1
	maxLimit     = 200
	defaultLimit = 20
)

// parsePage reads limit (1..200, default 20) and starting_after_id.
func parsePage(c *fiber.Ctx) (query.Page, error) {
	p := query.Page{Limit: defaultLimit, AfterID: c.Query("starting_after_id")}
	raw := c.Query("limit")
	if raw == "" {
		return p, nil
	}
	n, err := strconv.Atoi(raw)
	switch {
	case err != nil:
		return p, catalog.InvalidField("int_parsing", "limit must be an integer", raw, "query", "limit")
	case n < minLimit:
		return p, limitError("greater_than_equal", "limit must be at least 1", raw, "ge", minLimit)
	case n > maxLimit:
		return p, limitError("less_than_equal", "limit must be at most 200", raw, "le", maxLimit)
	}
	p.Limit = n
	return p, nil
}

func limitError(typ, msg, input, bound string, v int) error {
	return &catalog.ValidationError{Fields: []catalog.FieldError{{Loc: []any{"query", "limit"}, Msg: msg,
		Type: typ, Input: input, Ctx: map[string]any{bound: v}}}}
}

// parseBool reads an optional boolean query parameter.
func parseBool(c *fiber.Ctx, name string) (*bool, error) {
	raw := c.Query(name)
	if raw == "" {
		return nil, nil
	}
	b, err := strconv.ParseBool(raw)
	if err != nil {
		return nil, catalog.InvalidField("bool_parsing", name+" must be true or false", raw, "query", name)
	}
	return &b, nil
}
