package httpapi_test

import (
	"bytes"
	"encoding/json"
	"io"
	"net/http"
	"strings"
	"testing"

	"github.com/pb33f/libopenapi"
	validator "github.com/pb33f/libopenapi-validator"
	validationerrors "github.com/pb33f/libopenapi-validator/errors"
	"github.com/stretchr/testify/require"

	"github.com/photoctl/photoctl/server/api"
	"github.com/photoctl/photoctl/server/httpapi"
	"github.com/photoctl/photoctl/server/servertest"
)

// servedDocument fetches the OpenAPI document from a running server.
func servedDocument(t *testing.T, s *servertest.Server) []byte {
	t.Helper()
	r := s.Do("GET", "/api/openapi.json", "", nil)
	require.Equal(t, http.StatusOK, r.Status, "body: %s", r.Body)
	require.Equal(t, "application/json", r.Header.Get("Content-Type"))
	return r.Body
}

func TestOpenAPIServedDocumentListsEveryRoute(t *testing.T) {
	s := servertest.Start(t)
	body := servedDocument(t, s)
	var doc struct {
		OpenAPI string                                `json:"openapi"`
		Paths   map[string]map[string]json.RawMessage `json:"paths"`
	}
	require.NoError(t, json.Unmarshal(body, &doc))
	require.Equal(t, "3.1.0", doc.OpenAPI)

	var documented []string
	for path, item := range doc.Paths {
		for method := range item {
			documented = append(documented, strings.ToUpper(method)+" "+path)
		}
	}
	require.ElementsMatch(t, httpapi.RouteOperations(), documented)
	require.Equal(t, body, servedDocument(t, s), "a second request serves the same bytes")
}

func TestOpenAPIServedDocumentIsValid(t *testing.T) {
	v := newValidator(t, servedDocument(t, servertest.Start(t)))
	ok, errs := v.ValidateDocument()
	require.True(t, ok, "document invalid against the OpenAPI 3.1 schema: %s", describe(errs))
}

// TestOpenAPIResponsesMatchTheDocument checks real answers of the server,
// successes and failures, against the schemas the document gives them.
func TestOpenAPIResponsesMatchTheDocument(t *testing.T) {
	s := servertest.Start(t)
	v := newValidator(t, servedDocument(t, s))
	_, session := s.Session()
	lib := s.Libraries(session)[0]
	key := s.CreateKey(session, []string{"user.read"}, nil)

	var created api.APIKeyCreated
	exchange(t, s, v, "POST", "/api/api-keys", session, api.APIKeyCreateRequest{Name: "doc",
		Scope: &api.APIKeyScope{Actions: []string{"all"}}}, http.StatusCreated).JSON(t, &created)
	cases := []struct {
		name, method, path, token string
		body                      any
		status                    int
	}{
		{"health", "GET", "/api/health/ping", "", nil, http.StatusOK},
		{"me with a session", "GET", "/api/users/me", session, nil, http.StatusOK},
		{"me without a credential", "GET", "/api/users/me", "", nil, http.StatusUnauthorized},
		{"key without the action", "GET", "/api/libraries", key, nil, http.StatusForbidden},
		{"preferences", "GET", "/api/users/me/preferences", session, nil, http.StatusOK},
		{"clear a preference", "PATCH", "/api/users/me/preferences", session,
			map[string]any{"default_library_id": nil}, http.StatusOK},
		{"libraries", "GET", "/api/libraries?limit=5", session, nil, http.StatusOK},
		{"limit out of range", "GET", "/api/libraries?limit=0", session, nil, http.StatusUnprocessableEntity},
		{"one library", "GET", "/api/libraries/" + lib.ID, session, nil, http.StatusOK},
		{"unknown library", "GET", "/api/libraries/lib_unknown", session, nil, http.StatusNotFound},
		{"events", "GET", "/api/events?library_id=" + lib.ID, session, nil, http.StatusOK},
		{"api keys", "GET", "/api/api-keys", session, nil, http.StatusOK},
		{"one api key", "GET", "/api/api-keys/" + created.ID, session, nil, http.StatusOK},
		{"rename an api key", "PATCH", "/api/api-keys/" + created.ID, session,
			map[string]any{"name": "renamed"}, http.StatusOK},
		{"revoke an api key", "DELETE", "/api/api-keys/" + created.ID, session, nil, http.StatusNoContent},
		{"api keys refuse an API key", "GET", "/api/api-keys", key, nil, http.StatusForbidden},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			exchange(t, s, v, tc.method, tc.path, tc.token, tc.body, tc.status)
		})
	}
}

// exchange sends a request, checks its status and validates the response
// against the document.
func exchange(t *testing.T, s *servertest.Server, v validator.Validator, method, path, token string,
	body any, status int) *servertest.Response {
	t.Helper()
	r := s.Do(method, path, token, body)
	require.Equal(t, status, r.Status, "body: %s", r.Body)
	req, err := http.NewRequest(method, s.URL+path, nil)
	require.NoError(t, err)
	resp := &http.Response{StatusCode: r.Status, Header: r.Header, Request: req,
		Body: io.NopCloser(bytes.NewReader(r.Body))}
	ok, errs := v.ValidateHttpResponse(req, resp)
	require.True(t, ok, "%s %s answered %d %s\nwhich the document does not allow: %s",
		method, path, r.Status, r.Body, describe(errs))
	return r
}

func newValidator(t *testing.T, doc []byte) validator.Validator {
	t.Helper()
	d, err := libopenapi.NewDocument(doc)
	require.NoError(t, err)
	v, errs := validator.NewValidator(d)
	require.Empty(t, errs)
	return v
}

// describe renders validation errors with their schema details.
func describe(errs []*validationerrors.ValidationError) string {
	var b strings.Builder
	for _, e := range errs {
		b.WriteString("\n- " + e.Message + ": " + e.Reason)
		for _, se := range e.SchemaValidationErrors {
			b.WriteString("\n    " + se.Location + ": " + se.Reason)
		}
	}
	return b.String()
}
