package archtest

import (
	"encoding/json"
	"os/exec"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

const module = "github.com/photoctl/photoctl"

type pkg struct {
	ImportPath string
	Imports    []string
}

// packages lists every package of the module with its direct imports
// (non-test files), as `go list` reports them.
func packages(t *testing.T) []pkg {
	t.Helper()
	out, err := exec.Command("go", "list", "-json=ImportPath,Imports", module+"/...").Output()
	require.NoError(t, err)
	dec := json.NewDecoder(strings.NewReader(string(out)))
	var pkgs []pkg
	for dec.More() {
		var p pkg
		require.NoError(t, dec.Decode(&p))
		pkgs = append(pkgs, p)
	}
	require.NotEmpty(t, pkgs)
	return pkgs
}

func within(path, dir string) bool {
	full := module + "/" + dir
	return path == full || strings.HasPrefix(path, full+"/")
}

// TestThirdPartyLibrariesLiveInOnePlace: each library is imported only by
// the package that owns it (docs/architecture.md, "Layers and the direction of their arrows").
func TestThirdPartyLibrariesLiveInOnePlace(t *testing.T) {
	owners := map[string][]string{
		"github.com/gofiber/fiber/v2":            {"server/httpapi"},
		"github.com/mattn/go-sqlite3":            {"server/store/sqlite", "server/backup/keyindex"},
		"github.com/jackc/pgx/v5":                {"server/store/postgres", "server/store/migrate"},
		"github.com/go-resty/resty/v2":           {"client"},
		"charm.land/bubbletea/v2":                {"tui"},
		"charm.land/bubbles/v2":                  {"tui"},
		"charm.land/lipgloss/v2":                 {"tui", "cmd/photoctl"},
		"github.com/urfave/cli/v2":               {"cmd/photoctl"},
		"github.com/barasher/go-exiftool":        {"ingest"},
		"github.com/u2takey/ffmpeg-go":           {"ingest"},
		"github.com/knadh/koanf/v2":              {"cmd/photoctl"},
		"github.com/schollz/progressbar/v3":      {"cmd/photoctl", "client"},
		"github.com/golang-jwt/jwt/v5":           {"server/auth"},
		"github.com/ory/fosite":                  {"server/auth"},
		"github.com/hashicorp/golang-lru/v2":     {"server/httpapi"},
		"github.com/coreos/go-oidc/v3":           {"server/oidc"},
		"golang.org/x/oauth2":                    {"server/oidc"},
		"github.com/modelcontextprotocol/go-sdk": {"server/mcp"},
		"github.com/yalue/onnxruntime_go":        {"ml/onnx"},
		"github.com/stretchr/testify/require":    {"server/servertest", "server/archtest", "server/store/storetest"},
	}
	for _, p := range packages(t) {
		for _, imp := range p.Imports {
			for lib, allowed := range owners {
				if imp != lib && !strings.HasPrefix(imp, lib+"/") {
					continue
				}
				ok := false
				for _, dir := range allowed {
					ok = ok || within(p.ImportPath, dir)
				}
				require.True(t, ok, "%s imports %s; only %v may", p.ImportPath, lib, allowed)
			}
		}
	}
}

// TestImportDirection: inner layers never import outer ones.
func TestImportDirection(t *testing.T) {
	forbidden := []struct {
		from string
		to   []string
	}{
		{"server/catalog", []string{"server", "client", "tui", "cmd", "ingest", "ml"}},
		{"server/api", []string{"server", "client", "tui", "cmd", "ingest", "ml"}},
		{"server/store", []string{"server/httpapi", "server/app", "server/auth", "server/libraries", "server/users", "server/events"}},
		// The HTTP layer fills in server/query values and calls services;
		// it never reaches the store.
		{"server/httpapi", []string{"server/store"}},
		{"server/web", []string{"server/store"}},
		{"ingest", []string{"server", "client", "tui", "cmd"}},
		{"ml", []string{"server", "client", "tui", "cmd"}},
		{"client", []string{"server/app", "server/httpapi", "server/store", "server/catalog", "tui", "cmd"}},
		{"tui", []string{"server/app", "server/httpapi", "server/store", "cmd"}},
	}
	for _, p := range packages(t) {
		for _, rule := range forbidden {
			if !within(p.ImportPath, rule.from) {
				continue
			}
			for _, imp := range p.Imports {
				for _, dir := range rule.to {
					if within(imp, dir) && !within(imp, rule.from) {
						t.Errorf("%s imports %s, against the direction %s ↛ %s", p.ImportPath, imp, rule.from, dir)
					}
				}
			}
		}
	}
}

// TestAPIUsesOnlyTheStandardLibrary keeps server/api importable by the
// client without pulling in the server.
func TestAPIUsesOnlyTheStandardLibrary(t *testing.T) {
	for _, p := range packages(t) {
		if !within(p.ImportPath, "server/api") {
			continue
		}
		for _, imp := range p.Imports {
			require.NotContains(t, strings.SplitN(imp, "/", 2)[0], ".", "%s imports non-standard %s", p.ImportPath, imp)
		}
	}
}

// TestQueryImportsOnlyCatalog keeps server/query a package of plain values
// that every layer may import: the standard library and server/catalog,
// nothing that does I/O.
func TestQueryImportsOnlyCatalog(t *testing.T) {
	for _, p := range packages(t) {
		if !within(p.ImportPath, "server/query") {
			continue
		}
		for _, imp := range p.Imports {
			std := !strings.Contains(strings.SplitN(imp, "/", 2)[0], ".")
			require.True(t, std || imp == module+"/server/catalog", "%s imports %s; only the standard library and server/catalog", p.ImportPath, imp)
		}
	}
}
