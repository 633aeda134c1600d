package httpapi_test

import "net/http"

// mcpRows are the transport's operations in the authorization matrix. The
// matrix sends plain JSON requests without the Accept header Streamable
// HTTP requires, so a request that passes authorization reaches the MCP
// handler and is refused there: 400 for POST, 405 for GET and DELETE (the
// server is stateless). Tools are covered by mcp_test.go.
func mcpRows() []matrixRow {
	at := reqAt(func(*cell) string { return "/api/mcp" })
	return []matrixRow{
		{method: "POST", path: "/api/mcp", notSession: true, ok: http.StatusBadRequest, req: func(*cell) cellRequest {
			return cellRequest{path: "/api/mcp", body: map[string]any{"jsonrpc": "2.0", "id": 1, "method": "ping"}}
		}},
		{method: "GET", path: "/api/mcp", notSession: true, ok: http.StatusMethodNotAllowed, req: at},
		{method: "DELETE", path: "/api/mcp", notSession: true, ok: http.StatusMethodNotAllowed, req: at},
	}
}
