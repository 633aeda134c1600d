package archtest

import (
	"strings"
	"testing"
)

// TestClientCommandsImportNoServer: the client commands
// (cmd/photoctl/internal/clientcmd/...) and what they share
// (internal/cmdutil, internal/cmdtest) import no server package but
// server/api, the wire types (standard library only), so that the client
// build of photoctl (`-tags client`, a static binary without cgo) stays
// small and the commands talk to the server only through client/. The one
// exception is the `photoctl mcp` bridge (clientcmd/mcp), which serves the
// MCP tools of server/mcp over stdio and forwards them to the server's API;
// server/mcp is itself kept free of the store and of fiber.
// cmd/photoctl/build_variants_test.go checks the client build's whole
// dependency list; this test says which package broke the rule.
func TestClientCommandsImportNoServer(t *testing.T) {
	scoped := []string{"cmd/photoctl/internal/clientcmd", "cmd/photoctl/internal/cmdutil", "cmd/photoctl/internal/cmdtest"}
	allowed := func(from, imp string) bool {
		return within(imp, "server/api") || (within(imp, "server/mcp") && within(from, "cmd/photoctl/internal/clientcmd/mcp"))
	}
	checked := 0
	for _, p := range packages(t) {
		in := false
		for _, dir := range scoped {
			in = in || within(p.ImportPath, dir)
		}
		if !in {
			continue
		}
		checked++
		for _, imp := range p.Imports {
			if within(imp, "server") && !allowed(p.ImportPath, imp) {
				t.Errorf("%s imports %s: client commands reach the server through client/ and server/api only",
					strings.TrimPrefix(p.ImportPath, module+"/"), imp)
			}
		}
	}
	if checked == 0 {
		t.Fatal("no package under cmd/photoctl/internal: the test checks nothing")
	}
}
