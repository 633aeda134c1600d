package httpapi_test

import (
	"bufio"
	"fmt"
	"io"
	"net"
	"net/http"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/photoctl/photoctl/server/api"
	"github.com/photoctl/photoctl/server/servertest"
)

// validationItems asserts a 422 with a detail array and returns it.
func validationItems(t *testing.T, r *servertest.Response) []api.ValidationError {
	t.Helper()
	require.Equal(t, http.StatusUnprocessableEntity, r.Status, "body: %s", r.Body)
	var body struct {
		Detail []api.ValidationError `json:"detail"`
	}
	r.JSON(t, &body)
	require.NotEmpty(t, body.Detail, "detail is a non-empty array: %s", r.Body)
	for _, item := range body.Detail {
		require.NotEmpty(t, item.Loc)
		require.NotEmpty(t, item.Msg)
		require.NotEmpty(t, item.Type)
	}
	return body.Detail
}

func TestValidationErrors(t *testing.T) {
	s := servertest.Start(t)
	_, session := s.Session()

	cases := []struct {
		name         string
		method, path string
		body         any
		wantLoc      []any
		wantType     string
	}{
		{"malformed JSON", "POST", "/api/libraries", `{"name": `, []any{"body"}, "json_invalid"},
		{"syntax error", "POST", "/api/libraries", `{"name" "x"}`, nil, "json_invalid"},
		{"empty body", "POST", "/api/libraries", "", []any{"body"}, "missing"},
		{"wrong type", "POST", "/api/libraries", `{"name": 5}`, []any{"body", "name"}, "string_type"},
		{"unknown field", "POST", "/api/libraries", `{"name": "x", "colour": "red"}`, []any{"body", "colour"}, "extra_forbidden"},
		{"trailing data", "POST", "/api/libraries", `{"name": "x"} {}`, []any{"body"}, "json_invalid"},
		{"nested wrong type", "POST", "/api/api-keys", `{"name": "k", "scope": {"actions": "all"}}`,
			[]any{"body", "scope", "actions"}, "list_type"},
		{"key without scope", "POST", "/api/api-keys", `{"name": "k"}`, []any{"body", "scope"}, "missing"},
		{"key with empty actions", "POST", "/api/api-keys", `{"name": "k", "scope": {"actions": []}}`,
			[]any{"body", "scope", "actions"}, "too_short"},
		{"key with unknown action", "POST", "/api/api-keys", `{"name": "k", "scope": {"actions": ["asset.read", "fly"]}}`,
			[]any{"body", "scope", "actions", float64(1)}, "enum"},
		{"key scoped to a foreign library", "POST", "/api/api-keys",
			`{"name": "k", "scope": {"actions": ["all"], "library_ids": ["lib_01hzzzzzzzzzzzzzzzzzzzzzzz"]}}`,
			[]any{"body", "scope", "library_ids", float64(0)}, "value_error"},
		{"unknown query parameter", "GET", "/api/libraries?colour=red", nil, []any{"query", "colour"}, "extra_forbidden"},
		{"limit not a number", "GET", "/api/libraries?limit=ten", nil, []any{"query", "limit"}, "int_parsing"},
		{"limit zero", "GET", "/api/libraries?limit=0", nil, []any{"query", "limit"}, "greater_than_equal"},
		{"limit above 200", "GET", "/api/libraries?limit=201", nil, []any{"query", "limit"}, "less_than_equal"},
		{"bad order_by", "GET", "/api/api-keys?order_by=colour", nil, []any{"query", "order_by"}, "enum"},
		{"bad order", "GET", "/api/api-keys?order=up", nil, []any{"query", "order"}, "enum"},
		{"unknown cursor", "GET", "/api/libraries?starting_after_id=lib_01hzzzzzzzzzzzzzzzzzzzzzzz", nil,
			[]any{"query", "starting_after_id"}, "value_error"},
		{"preference naming a foreign library", "PATCH", "/api/users/me/preferences",
			`{"immich_library_id": "lib_01hzzzzzzzzzzzzzzzzzzzzzzz"}`, []any{"body", "immich_library_id"}, "value_error"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			items := validationItems(t, s.Do(tc.method, tc.path, session, tc.body))
			require.Equal(t, tc.wantType, items[0].Type)
			if tc.wantLoc != nil {
				require.Equal(t, tc.wantLoc, items[0].Loc)
			}
		})
	}
}

func TestUnknownRouteIsJSON404(t *testing.T) {
	s := servertest.Start(t)
	r := s.Do("GET", "/api/nothing-here", "", nil)
	requireDetail(t, r, http.StatusNotFound)
}

func TestOversizedJSONBodyIs413(t *testing.T) {
	servertest.SkipStoreNeutralOnPostgres(t, "the body size limit")
	s := servertest.Start(t)
	_, session := s.Session()
	// Announce a 2 MiB body and send only its first 64 KiB: the server must
	// answer 413 without reading (or buffering) the rest. (fasthttp reads a
	// small prefix of a streamed body before it calls the handler.)
	conn, err := net.Dial("tcp", strings.TrimPrefix(s.URL, "http://"))
	require.NoError(t, err)
	defer conn.Close()
	_, err = fmt.Fprintf(conn, "POST /api/libraries HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer %s\r\n"+
		"Content-Type: application/json\r\nContent-Length: %d\r\n\r\n", session, 2<<20)
	require.NoError(t, err)
	_, err = conn.Write([]byte(`{"name": "` + strings.Repeat("a", 64<<10)))
	require.NoError(t, err)
	resp, err := http.ReadResponse(bufio.NewReader(conn), nil)
	require.NoError(t, err)
	defer resp.Body.Close()
	body, _ := io.ReadAll(resp.Body)
	require.Equal(t, http.StatusRequestEntityTooLarge, resp.StatusCode, "%s", body)
	require.Contains(t, string(body), `"detail"`)
}
