package archtest

import (
	"strings"
	"testing"
)

// TestConversionsAndMCPAdapterKnowNoFiber: server/httpapi/convert,
// server/httpapi/mcpapi and server/httpapi/openapi are plain Go. None
// imports fiber nor server/httpapi itself (httpapi imports them, so the
// arrow points one way), and convert imports no adapter: the REST, Immich
// and MCP layers all reach it.
func TestConversionsAndMCPAdapterKnowNoFiber(t *testing.T) {
	for _, p := range packages(t) {
		if !within(p.ImportPath, "server/httpapi/convert") && !within(p.ImportPath, "server/httpapi/mcpapi") &&
			!within(p.ImportPath, "server/httpapi/openapi") {
			continue
		}
		for _, imp := range p.Imports {
			adapter := strings.HasPrefix(imp, module+"/server/httpapi") && !within(imp, "server/httpapi/convert")
			if strings.HasPrefix(imp, "github.com/gofiber/") || adapter {
				t.Errorf("%s imports %s: convert, mcpapi and openapi stay out of fiber and the HTTP adapters", p.ImportPath, imp)
			}
		}
	}
}

// TestHTTPAPIImportsNoProtocolAdapter: a protocol adapter mounted on the
// server (server/httpapi/immichapi, through httpapi.Deps.Mounts) imports
// httpapi's adapter surface, never the reverse; and the native HTTP layer
// knows nothing of Immich (server/immich), so the Immich layer can change
// without touching it (docs/architecture.md).
func TestHTTPAPIImportsNoProtocolAdapter(t *testing.T) {
	for _, p := range packages(t) {
		if p.ImportPath != module+"/server/httpapi" {
			continue
		}
		for _, imp := range p.Imports {
			if within(imp, "server/httpapi/immichapi") || within(imp, "server/immich") {
				t.Errorf("%s imports %s: the Immich layer imports httpapi, not the other way", p.ImportPath, imp)
			}
		}
	}
}
