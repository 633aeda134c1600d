package openapi

import (
	"bytes"
	"encoding/json"
	"net/http"
	"slices"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/photoctl/photoctl/server/api"
)

// small is an API of three operations, enough to reach every rule of the
// generator without the server's route table.
var small = API{
	SessionCookie: "test_session",
	Paging:        Paging{Min: 1, Max: 50, Default: 10},
	Operations: []Operation{
		{Method: "GET", Path: "/api/health/ping", Access: Access{Public: true},
			Doc: Doc{Summary: "Ping", Tag: "health", Status: http.StatusOK, Resp: api.Health{}}},
		{Method: "GET", Path: "/api/libraries", Access: Access{Action: "library.read", Cookie: true},
			Doc: Doc{Summary: "Libraries", Tag: "libraries", Paged: true, Status: http.StatusOK, Resp: api.Page[api.Library]{}}},
		{Method: "POST", Path: "/api/libraries/:id/invitations",
			Access: Access{Kinds: []string{"first-party session"}, Cookie: true, Sharing: true},
			Doc: Doc{Summary: "Invite", Tag: "libraries", Body: api.InvitationCreateRequest{}, Status: http.StatusCreated,
				Resp: api.InvitationCreated{}, Errs: []int{http.StatusConflict}}},
	},
}

// document is the generated document of small, decoded as far as the
// tests look.
type document struct {
	Tags  []struct{ Name string }
	Paths map[string]map[string]struct {
		OperationID string `json:"operationId"`
		Description string `json:"description"`
		Security    []map[string][]string
		Parameters  []struct {
			Name   string
			In     string
			Schema map[string]any
		}
		Responses map[string]struct {
			Ref string `json:"$ref"`
		}
	}
	Components struct {
		Responses       map[string]json.RawMessage
		SecuritySchemes map[string]struct{ Name string }
	}
}

func generate(t *testing.T) ([]byte, document) {
	t.Helper()
	raw, err := JSON(small)
	require.NoError(t, err)
	var doc document
	require.NoError(t, json.Unmarshal(raw, &doc))
	return raw, doc
}

func TestJSONIsDeterministic(t *testing.T) {
	first, _ := generate(t)
	require.True(t, bytes.HasSuffix(first, []byte("}\n")), "indented, with a trailing newline")
	for range 3 {
		again, _ := generate(t)
		require.True(t, bytes.Equal(first, again), "two generations differ")
	}
}

func TestJSONDescribesTheOperations(t *testing.T) {
	_, doc := generate(t)
	require.Len(t, doc.Tags, 2, "a tag once, in the order of the operations")
	require.Equal(t, "health", doc.Tags[0].Name)
	require.Equal(t, "test_session", doc.Components.SecuritySchemes[sessionCookieAuth].Name)
	require.Len(t, doc.Components.Responses, len(errorComponents))

	ping := doc.Paths["/api/health/ping"]["get"]
	require.Equal(t, "get_api_health_ping", ping.OperationID)
	require.Equal(t, "Credential: none.", ping.Description)
	require.Empty(t, ping.Security)
	require.Equal(t, []string{"200"}, keys(ping.Responses))

	list := doc.Paths["/api/libraries"]["get"]
	require.Equal(t, []map[string][]string{{bearerAuth: {"library.read"}}, {sessionCookieAuth: {}}}, list.Security)
	require.Equal(t, "limit", list.Parameters[0].Name)
	require.Equal(t, map[string]any{"type": "integer", "minimum": 1.0, "maximum": 50.0, "default": 10.0},
		list.Parameters[0].Schema)
	require.Equal(t, []string{"200", "401", "403", "422", "429"}, keys(list.Responses))

	invite := doc.Paths["/api/libraries/{id}/invitations"]["post"]
	require.Equal(t, "id", invite.Parameters[0].Name)
	require.Equal(t, "path", invite.Parameters[0].In)
	require.Equal(t, responsesPrefix+"SharingForbidden", invite.Responses["403"].Ref)
	require.Equal(t, responsesPrefix+"SharingNotFound", invite.Responses["404"].Ref)
	require.Equal(t, responsesPrefix+"SharingConflict", invite.Responses["409"].Ref)
	require.Equal(t, responsesPrefix+"PayloadTooLarge", invite.Responses["413"].Ref)
}

func keys[V any](m map[string]V) []string {
	var out []string
	for k := range m {
		out = append(out, k)
	}
	slices.Sort(out)
	return out
}
