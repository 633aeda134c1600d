package httpapi_test

import (
	"context"
	"encoding/json"
	"net/http"
	"slices"
	"testing"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/stretchr/testify/require"

	"github.com/photoctl/photoctl/server/servertest"
)

// bearer adds a credential to every request of the MCP client.
type bearer struct{ token string }

func (b bearer) RoundTrip(r *http.Request) (*http.Response, error) {
	r = r.Clone(r.Context())
	r.Header.Set("Authorization", "Bearer "+b.token)
	return http.DefaultTransport.RoundTrip(r)
}

// mcpConnect opens an MCP session with the SDK's client over Streamable
// HTTP at /api/mcp, authenticated by token.
func mcpConnect(t *testing.T, s *servertest.Server, token string) *sdk.ClientSession {
	t.Helper()
	c := sdk.NewClient(&sdk.Implementation{Name: "photoctl-test", Version: "1"}, nil)
	cs, err := c.Connect(context.Background(), &sdk.StreamableClientTransport{Endpoint: s.URL + "/api/mcp",
		HTTPClient: &http.Client{Transport: bearer{token}}, MaxRetries: -1}, nil)
	require.NoError(t, err)
	t.Cleanup(func() { _ = cs.Close() })
	return cs
}

func mcpToolNames(t *testing.T, cs *sdk.ClientSession) []string {
	t.Helper()
	res, err := cs.ListTools(context.Background(), nil)
	require.NoError(t, err)
	var names []string
	for _, tool := range res.Tools {
		names = append(names, tool.Name)
	}
	slices.Sort(names)
	return names
}

// mcpCall calls a tool and returns its result; a protocol error fails.
func mcpCall(t *testing.T, cs *sdk.ClientSession, name string, args any) *sdk.CallToolResult {
	t.Helper()
	res, err := cs.CallTool(context.Background(), &sdk.CallToolParams{Name: name, Arguments: args})
	require.NoError(t, err, "call %s", name)
	return res
}

// mcpOK calls a tool that must succeed and decodes its structured output.
func mcpOK[T any](t *testing.T, cs *sdk.ClientSession, name string, args any) T {
	t.Helper()
	res := mcpCall(t, cs, name, args)
	require.False(t, res.IsError, "%s failed: %s", name, mcpText(res))
	var out T
	data, err := json.Marshal(res.StructuredContent)
	require.NoError(t, err)
	require.NoError(t, json.Unmarshal(data, &out), "%s output: %s", name, data)
	return out
}

// mcpFails calls a tool that must end in a tool error and returns its text.
func mcpFails(t *testing.T, cs *sdk.ClientSession, name string, args any) string {
	t.Helper()
	res := mcpCall(t, cs, name, args)
	require.True(t, res.IsError, "%s should fail: %s", name, mcpText(res))
	return mcpText(res)
}

func mcpText(res *sdk.CallToolResult) string {
	var out string
	for _, c := range res.Content {
		if tc, ok := c.(*sdk.TextContent); ok {
			out += tc.Text
		}
	}
	return out
}
