package openapi

import (
	"reflect"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/photoctl/photoctl/server/api"
)

func TestOpenAPINaming(t *testing.T) {
	tests := []struct {
		name, method, path, wantPath, wantID string
	}{
		{"a path parameter becomes a template", "GET", "/api/libraries/:id", "/api/libraries/{id}", "get_api_libraries_id"},
		{"hyphens and dots become underscores", "DELETE", "/api/api-keys/:id", "/api/api-keys/{id}", "delete_api_api_keys_id"},
		{"a path without parameters stays", "GET", "/api/openapi.json", "/api/openapi.json", "get_api_openapi_json"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			require.Equal(t, tt.wantPath, PathTemplate(tt.path))
			require.Equal(t, tt.wantID, operationID(tt.method, tt.path))
		})
	}
}

func TestComponentNames(t *testing.T) {
	tests := []struct {
		name string
		typ  reflect.Type
		want string
	}{
		{"a plain type loses its package", reflect.TypeFor[api.Library](), "Library"},
		{"a generic type takes its argument's name", reflect.TypeFor[api.Page[api.APIKey]](), "PageAPIKey"},
		{"a builtin argument is capitalised", reflect.TypeFor[api.Optional[string]](), "OptionalString"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			require.Equal(t, tt.want, componentName(tt.typ))
		})
	}
}

func TestCredentialText(t *testing.T) {
	tests := []struct {
		name string
		a    Access
		want string
	}{
		{"public route", Access{Public: true}, "Credential: none."},
		{"public route limited per address", Access{Public: true, PerAddress: true},
			"Credential: none. Rate-limited per client address."},
		{"any credential with an action", Access{Action: "user.read", Cookie: true},
			"Credential: API key, OAuth token or first-party session; needs action `user.read`."},
		{"session only", Access{Kinds: []string{"first-party session"}, Cookie: true},
			"Credential: first-party session only."},
		{"two kinds", Access{Kinds: []string{"first-party session", "OAuth token"}, Cookie: true},
			"Credential: first-party session or OAuth token."},
		{"three kinds", Access{Kinds: []string{"API key", "OAuth token", "first-party session"}, Cookie: true},
			"Credential: API key, OAuth token or first-party session."},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			require.Equal(t, tt.want, credentialText(tt.a))
		})
	}
}
