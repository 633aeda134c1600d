package httpapi

import (
	"bytes"
	"flag"
	"os"
	"path/filepath"
	"reflect"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/stretchr/testify/require"

	"github.com/photoctl/photoctl/server/api"
	"github.com/photoctl/photoctl/server/catalog"
)

var update = flag.Bool("update", false, "rewrite docs/openapi.json from the route table")

// openAPIFile is the committed copy of the document.
var openAPIFile = filepath.Join("..", "..", "docs", "openapi.json")

func TestOpenAPIUpToDate(t *testing.T) {
	doc, err := openAPIJSON((&Server{}).routes())
	require.NoError(t, err)
	if *update {
		require.NoError(t, os.WriteFile(openAPIFile, doc, 0o644))
		return
	}
	want, err := os.ReadFile(openAPIFile)
	require.NoError(t, err, "run: go test ./server/httpapi -run TestOpenAPIUpToDate -update")
	if diff := cmp.Diff(string(want), string(doc)); diff != "" {
		t.Fatalf("docs/openapi.json is stale; run: go test ./server/httpapi -run TestOpenAPIUpToDate -update\n(-file +generated):\n%s", diff)
	}
}

func TestOpenAPIIsDeterministic(t *testing.T) {
	first, err := openAPIJSON((&Server{}).routes())
	require.NoError(t, err)
	for range 5 {
		again, err := openAPIJSON((&Server{}).routes())
		require.NoError(t, err)
		require.True(t, bytes.Equal(first, again), "two generations differ")
	}
}

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
			require.Equal(t, tt.wantPath, openAPIPath(tt.path))
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
		a    access
		want string
	}{
		{"public route", access{public: true}, "Credential: none."},
		{"public route limited per address", access{public: true, perAddress: true},
			"Credential: none. Rate-limited per client address."},
		{"any credential with an action", access{action: catalog.ActionUserRead},
			"Credential: API key, OAuth token or first-party session; needs action `user.read`."},
		{"session only", access{kinds: sessionOnly}, "Credential: first-party session only."},
		{"two kinds", access{kinds: []catalog.CredentialKind{catalog.CredSession, catalog.CredOAuth}},
			"Credential: first-party session or OAuth token."},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			require.Equal(t, tt.want, credentialText(tt.a))
		})
	}
}
