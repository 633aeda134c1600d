package archtest

import "testing"

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
