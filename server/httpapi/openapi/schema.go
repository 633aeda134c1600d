package openapi

import (
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"reflect"
	"regexp"
	"strings"
	"unicode"

	"github.com/swaggest/jsonschema-go"
	openapigo "github.com/swaggest/openapi-go"
	"github.com/swaggest/openapi-go/openapi31"

	"github.com/photoctl/photoctl/server/api"
)

// Reflection of the api package's wire types into OpenAPI 3.1 schemas. The
// reflector is swaggest's; the hooks below teach it what the Go types cannot
// say (the api package stays free of schema tags):
//   - a field is required unless its json tag has omitempty or omitzero
//     (decisions.md: every contract field is always present);
//   - a pointer, slice or map field may be null, as encoding/json writes it,
//     except Page.data, which convert.Page never leaves nil;
//   - api.Optional[T] is T or null; json.RawMessage is an object;
//   - a 422 detail is a string or a list of ValidationError, whose loc items
//     are strings or integers;
//   - component names drop the package and flatten generics
//     (api.Page[api.Library] is PageLibrary).

const componentsPrefix = "#/components/schemas/"

var (
	rawMessageType    = reflect.TypeFor[json.RawMessage]()
	unprocessableType = reflect.TypeFor[api.UnprocessableEntityResponse]()
	validationType    = reflect.TypeFor[api.ValidationError]()
	apiPackage        = reflect.TypeFor[api.ErrorResponse]().PkgPath()
)

// newSchemaReflector returns an OpenAPI 3.1 reflector with the hooks above.
func newSchemaReflector() *openapi31.Reflector {
	r := openapi31.NewReflector()
	r.DefaultOptions = append(r.DefaultOptions,
		func(rc *jsonschema.ReflectContext) { rc.EnvelopNullability = true },
		jsonschema.InterceptDefName(func(t reflect.Type, _ string) string { return componentName(t) }),
		jsonschema.InterceptProp(requireUnlessOmitted),
		jsonschema.InterceptSchema(func(p jsonschema.InterceptSchemaParams) (bool, error) {
			return wireSchema(r, p)
		}),
	)
	return r
}

// qualifier matches a package path with its trailing dot, as reflect writes
// type arguments: "Page[github.com/photoctl/photoctl/server/api.Library]".
var qualifier = regexp.MustCompile(`[\w./-]*\.`)

// componentName names a type's schema component: its name without package
// qualifiers, with generic arguments flattened into it (PageLibrary).
func componentName(t reflect.Type) string {
	var b strings.Builder
	for _, part := range strings.FieldsFunc(qualifier.ReplaceAllString(t.Name(), ""), func(r rune) bool {
		return !unicode.IsLetter(r) && !unicode.IsDigit(r)
	}) {
		b.WriteString(strings.ToUpper(part[:1]) + part[1:])
	}
	return b.String()
}

// requireUnlessOmitted lists a property as required in its parent unless
// its json tag has omitempty or omitzero, or it may be absent by design.
func requireUnlessOmitted(p jsonschema.InterceptPropParams) error {
	if !p.Processed || p.ParentSchema == nil {
		return nil
	}
	tidyRefs(p.PropertySchema)
	tag, ok := p.Field.Tag.Lookup("json")
	if !ok || mayBeAbsent(p) {
		return nil
	}
	_, opts, _ := strings.Cut(tag, ",")
	for _, o := range strings.Split(opts, ",") {
		if o == "omitempty" || o == "omitzero" {
			return nil
		}
	}
	p.ParentSchema.Required = append(p.ParentSchema.Required, p.Name)
	return nil
}

// mayBeAbsent reports whether a property that encoding/json always writes
// may be left out of a request: an api.Optional, or a pointer field of a
// PATCH body (STYLE.md: PATCH bodies use pointers; absent leaves it alone).
func mayBeAbsent(p jsonschema.InterceptPropParams) bool {
	if isGeneric(p.Field.Type, "Optional") {
		return true
	}
	oc, ok := openapigo.OperationCtx(p.Context)
	// p.Path is the parent's: ["#"] for a property of the body itself.
	return ok && !oc.IsProcessingResponse() && strings.EqualFold(oc.Method(), http.MethodPatch) &&
		p.Field.Type.Kind() == reflect.Pointer && len(p.Path) == 1
}

// tidyRefs drops the type that swaggest copies next to a $ref, which would
// also forbid the null of an anyOf [null, $ref] envelope.
func tidyRefs(s *jsonschema.Schema) {
	if s == nil {
		return
	}
	if s.Ref != nil || len(s.AnyOf) > 0 {
		s.Type = nil
	}
	for i := range s.AnyOf {
		if item := s.AnyOf[i].TypeObject; item != nil && item.Ref != nil {
			item.Type = nil
		}
	}
}

// withNull returns s that also accepts null, with null listed first as
// swaggest does for pointers.
func withNull(s jsonschema.Schema) jsonschema.Schema {
	switch {
	case s.Ref != nil:
		return jsonschema.Schema{AnyOf: []jsonschema.SchemaOrBool{jsonschema.Null.ToSchemaOrBool(), s.ToSchemaOrBool()}}
	case s.Type != nil && s.Type.SimpleTypes != nil:
		s.Type = &jsonschema.Type{SliceOfSimpleTypeValues: []jsonschema.SimpleType{jsonschema.Null, *s.Type.SimpleTypes}}
	default:
		s.AddType(jsonschema.Null)
	}
	return s
}

// wireSchema overrides the schemas of the types listed in the file comment.
// It returns true when the schema is complete and reflection must stop.
func wireSchema(r *openapi31.Reflector, p jsonschema.InterceptSchemaParams) (bool, error) {
	t := p.Value.Type()
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	switch {
	case !p.Processed && t == rawMessageType:
		p.Schema.WithType(jsonschema.Object.Type())
		return true, nil
	case !p.Processed && isGeneric(t, "Optional"):
		value, _ := t.FieldByName("Value")
		s, err := reflectComponents(r, reflect.Zero(value.Type.Elem()).Interface())
		if err != nil {
			return true, err
		}
		*p.Schema = withNull(s)
		return true, nil
	case p.Processed && isGeneric(t, "Page"):
		if data, ok := p.Schema.Properties["data"]; ok && data.TypeObject != nil {
			data.TypeObject.RemoveType(jsonschema.Null)
		}
	case p.Processed && t == validationType && p.Schema.Properties["loc"].TypeObject != nil:
		loc := (&jsonschema.Schema{}).WithType(jsonschema.Array.Type()).
			WithItems(*(&jsonschema.Items{}).WithSchemaOrBool(
				(&jsonschema.Schema{}).WithType(jsonschema.Type{SliceOfSimpleTypeValues: []jsonschema.SimpleType{
					jsonschema.String, jsonschema.Integer}}).ToSchemaOrBool()))
		p.Schema.Properties["loc"] = loc.ToSchemaOrBool()
	case p.Processed && t == unprocessableType && p.Schema.Properties["detail"].TypeObject != nil:
		list, err := reflectComponents(r, []api.ValidationError{})
		if err != nil {
			return true, err
		}
		list.RemoveType(jsonschema.Null)
		detail := jsonschema.Schema{OneOf: []jsonschema.SchemaOrBool{
			jsonschema.String.ToSchemaOrBool(), list.ToSchemaOrBool()}}
		detail.WithDescription("A semantic message, or one entry per invalid field.")
		p.Schema.Properties["detail"] = detail.ToSchemaOrBool()
	}
	return false, nil
}

// isGeneric reports whether t is an instance of the api package's generic
// type name.
func isGeneric(t reflect.Type, name string) bool {
	return t.PkgPath() == apiPackage && strings.HasPrefix(t.Name(), name+"[")
}

// reflectComponents reflects v with the reflector's hooks, adding the named
// types it meets to components/schemas and referring to them.
func reflectComponents(r *openapi31.Reflector, v any) (jsonschema.Schema, error) {
	var errs []error
	s, err := r.Reflect(v,
		jsonschema.DefinitionsPrefix(componentsPrefix),
		jsonschema.RootRef,
		jsonschema.CollectDefinitions(func(name string, s jsonschema.Schema) {
			if _, ok := r.SpecEns().ComponentsEns().Schemas[name]; ok {
				return
			}
			m, err := s.ToSchemaOrBool().ToSimpleMap()
			if err != nil {
				errs = append(errs, fmt.Errorf("schema %s: %w", name, err))
				return
			}
			r.SpecEns().ComponentsEns().WithSchemasItem(name, m)
		}))
	return s, errors.Join(append(errs, err)...)
}
