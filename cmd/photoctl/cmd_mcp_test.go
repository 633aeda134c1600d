package main

import (
	"context"
	"encoding/json"
	"os/exec"
	"strings"
	"testing"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/stretchr/testify/require"

	"github.com/photoctl/photoctl/server/api"
	"github.com/photoctl/photoctl/server/servertest"
)

// `photoctl mcp` as an assistant runs it: the compiled binary on stdio,
// driven by the MCP SDK's client through CommandTransport, calling the
// server through the client package with an API key.
func TestMCPOverStdioCallsTheServer(t *testing.T) {
	bin := photoctlBinary(t)
	s := servertest.Start(t)
	_, session := s.Session()
	a := s.UploadAsset(session, "harbour.jpg", servertest.JPEG(t, 64, 48, 3),
		map[string]string{"file_created_at": "2024-07-14T09:00:00Z"})
	readOnly := s.CreateKey(session, []string{"asset.read", "search", "album.read", "person.read", "library.read"}, nil)

	cmd := exec.Command(bin, "mcp", "--server", s.URL, "--api-key", readOnly)
	cmd.Env = binaryEnv(t)
	c := sdk.NewClient(&sdk.Implementation{Name: "stdio-test", Version: "1"}, nil)
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	cs, err := c.Connect(ctx, &sdk.CommandTransport{Command: cmd}, nil)
	require.NoError(t, err)
	defer cs.Close()

	tools, err := cs.ListTools(ctx, nil)
	require.NoError(t, err)
	require.Len(t, tools.Tools, 16, "the same tool table as /api/mcp")

	res, err := cs.CallTool(ctx, &sdk.CallToolParams{Name: "search_assets",
		Arguments: map[string]any{"local_datetime_after": "2024-01-01T00:00:00"}})
	require.NoError(t, err)
	require.False(t, res.IsError, "%v", res.Content)
	var page struct {
		Assets []struct {
			ID       string `json:"id"`
			FileName string `json:"file_name"`
		} `json:"assets"`
	}
	data, _ := json.Marshal(res.StructuredContent)
	require.NoError(t, json.Unmarshal(data, &page))
	require.Len(t, page.Assets, 1)
	require.Equal(t, a.ID, page.Assets[0].ID)
	require.Equal(t, "harbour.jpg", page.Assets[0].FileName)

	// The server decides: a write with a read-only key is a tool error.
	res, err = cs.CallTool(ctx, &sdk.CallToolParams{Name: "create_album", Arguments: map[string]any{"name": "Harbours"}})
	require.NoError(t, err)
	require.True(t, res.IsError)
	require.Empty(t, servertest.List[api.Album](s, session, "/api/albums"))
}

// A script pipes its requests to `photoctl mcp` and closes the pipe: every
// call gets its reply, each time (the reply to a call still running when
// the input ended used to be dropped about half the time).
func TestMCPOneShotPipeGetsEveryReply(t *testing.T) {
	bin := photoctlBinary(t)
	s := servertest.Start(t)
	_, session := s.Session()
	key := s.CreateKey(session, []string{"library.read"}, nil)
	input := `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"pipe","version":"1"}}}
{"jsonrpc":"2.0","method":"notifications/initialized"}
{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"list_libraries","arguments":{}}}
`
	for i := range 5 {
		cmd := exec.Command(bin, "mcp", "--server", s.URL, "--api-key", key)
		cmd.Env = binaryEnv(t)
		cmd.Stdin = strings.NewReader(input)
		out, err := cmd.Output()
		require.NoError(t, err, "run %d", i)
		lines := strings.Split(strings.TrimSpace(string(out)), "\n")
		require.Len(t, lines, 2, "run %d: %s", i, out)
		var reply struct {
			ID     int `json:"id"`
			Result struct {
				IsError           bool `json:"isError"`
				StructuredContent struct {
					Libraries []map[string]any `json:"libraries"`
				} `json:"structuredContent"`
			} `json:"result"`
		}
		require.NoError(t, json.Unmarshal([]byte(lines[1]), &reply))
		require.Equal(t, 2, reply.ID)
		require.False(t, reply.Result.IsError, "%s", lines[1])
		require.Len(t, reply.Result.StructuredContent.Libraries, 1, "%s", lines[1])
	}
}
