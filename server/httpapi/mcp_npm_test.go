package httpapi_test

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/photoctl/photoctl/server/mcp"
	"github.com/photoctl/photoctl/server/servertest"
)

// A third-party MCP client: the official TypeScript SDK
// (@modelcontextprotocol/sdk, installed by `make mcp-client` into
// .cache/mcp) on Node, over Streamable HTTP. Without it the test is
// skipped, unless PHOTOCTL_MCP_REQUIRED is set (make test when the install
// worked), which makes a missing client a failure.

// mcpNodeScript lists the tools and runs one search, printing both as JSON.
const mcpNodeScript = `
const { Client } = require('@modelcontextprotocol/sdk/client/index.js');
const { StreamableHTTPClientTransport } = require('@modelcontextprotocol/sdk/client/streamableHttp.js');
(async () => {
  const [url, key] = process.argv.slice(2);
  const transport = new StreamableHTTPClientTransport(new URL(url),
    { requestInit: { headers: { Authorization: 'Bearer ' + key } } });
  const client = new Client({ name: 'photoctl-npm-e2e', version: '1.0.0' });
  await client.connect(transport);
  const tools = await client.listTools();
  const result = await client.callTool({ name: 'search_assets',
    arguments: { local_datetime_after: '2024-01-01T00:00:00', limit: 2 } });
  console.log(JSON.stringify({ tools: tools.tools.map(t => t.name), result }));
  await client.close();
})().catch(e => { console.error(e); process.exit(1); });
`

// findMCPClient returns the node_modules folder holding the TypeScript
// SDK, or skips when it is absent and not required.
func findMCPClient(t *testing.T) string {
	t.Helper()
	cache := os.Getenv("PHOTOCTL_MCP_CACHE")
	if cache == "" {
		cache = filepath.Join("..", "..", ".cache", "mcp")
	}
	cache, err := filepath.Abs(cache)
	require.NoError(t, err)
	modules := filepath.Join(cache, "node_modules")
	_, err = os.Stat(filepath.Join(modules, "@modelcontextprotocol", "sdk", "package.json"))
	_, nodeErr := exec.LookPath("node")
	if err != nil || nodeErr != nil {
		if os.Getenv("PHOTOCTL_MCP_REQUIRED") != "" {
			t.Fatalf("PHOTOCTL_MCP_REQUIRED is set but node or %s is missing: run make mcp-client", modules)
		}
		t.Skipf("no MCP TypeScript client in %s or no node (make mcp-client installs it)", cache)
	}
	return modules
}

func TestMCPWithTheTypeScriptSDKClient(t *testing.T) {
	modules := findMCPClient(t)
	s := servertest.Start(t)
	_, session := s.Session()
	ids := mcpLibrary(t, s, session, 3)
	key := s.CreateKey(session, readActions, nil)

	script := filepath.Join(t.TempDir(), "client.cjs")
	require.NoError(t, os.WriteFile(script, []byte(mcpNodeScript), 0o644))
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, "node", script, s.URL+"/api/mcp", key)
	cmd.Env = append(os.Environ(), "NODE_PATH="+modules)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	require.NoError(t, cmd.Run(), "node client: %s", stderr.String())

	var out struct {
		Tools  []string `json:"tools"`
		Result struct {
			IsError           bool          `json:"isError"`
			StructuredContent mcp.AssetPage `json:"structuredContent"`
		} `json:"result"`
	}
	require.NoError(t, json.Unmarshal(stdout.Bytes(), &out), "output: %s", stdout.String())
	require.ElementsMatch(t, []string{"search_assets", "get_asset", "view_asset", "list_albums", "list_people",
		"list_libraries", "count_assets", "geo_clusters"}, out.Tools, "a read-only key lists no write tool")
	require.False(t, out.Result.IsError)
	page := out.Result.StructuredContent
	require.Len(t, page.Assets, 2)
	require.Equal(t, ids[2], page.Assets[0].ID)
	require.Equal(t, ids[1], page.NextCursor)
}
