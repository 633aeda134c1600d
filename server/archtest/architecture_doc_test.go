package archtest

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// TestArchitecturePageNamesEveryPackage: docs/architecture.md's package
// map has a line for every package folder of the module (a new folder
// needs its line), and names no folder that is gone.
func TestArchitecturePageNamesEveryPackage(t *testing.T) {
	page, err := os.ReadFile(filepath.Join("..", "..", "docs", "architecture.md"))
	require.NoError(t, err)
	named := map[string]bool{}
	for _, m := range regexp.MustCompile(`(?m)^([a-z][a-z0-9_/]*)/ {2,}\S`).FindAllStringSubmatch(string(page), -1) {
		named[m[1]] = true
	}
	dirs := map[string]bool{}
	for _, p := range packages(t) {
		dir := strings.TrimPrefix(strings.TrimPrefix(p.ImportPath, module), "/")
		dirs[dir] = true
		require.True(t, named[dir], "docs/architecture.md's package map has no line for %s/", dir)
	}
	for dir := range named {
		require.True(t, dirs[dir], "docs/architecture.md names %s/, which holds no package", dir)
	}
}
