package archtest

import (
	"strings"
	"testing"
)

// TestConversionsAndMCPAdapterKnowNoFiber: server/httpapi/convert and
// server/httpapi/mcpapi are plain Go over the services. Neither imports
// fiber nor server/httpapi itself (httpapi imports them, so the arrow
// points one way), and convert imports no adapter: the REST, Immich and
// MCP layers all reach it.
func TestConversionsAndMCPAdapterKnowNoFiber(t *testing.T) {
	for _, p := range packages(t) {
		if !within(p.ImportPath, "server/httpapi/convert") && !within(p.ImportPath, "server/httpapi/mcpapi") {
			continue
		}
		for _, imp := range p.Imports {
			adapter := strings.HasPrefix(imp, module+"/server/httpapi") && !within(imp, "server/httpapi/convert")
			if strings.HasPrefix(imp, "github.com/gofiber/") || adapter {
				t.Errorf("%s imports %s: convert and mcpapi stay out of fiber and the HTTP adapters", p.ImportPath, imp)
			}
		}
	}
}
