package servertest_test

import (
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// TestEveryPackageUsingTheHarnessCallsMain: on PostgreSQL the harness
// needs servertest.Main in the package's TestMain (pgtest refuses to make
// a database otherwise, and only fails there, where nobody looks first).
func TestEveryPackageUsingTheHarnessCallsMain(t *testing.T) {
	root := filepath.Join("..", "..")
	uses, calls := map[string]bool{}, map[string]bool{}
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && (strings.HasPrefix(d.Name(), ".") || d.Name() == "testdata" || d.Name() == "node_modules") && path != root {
			return filepath.SkipDir
		}
		if d.IsDir() || !strings.HasSuffix(path, "_test.go") {
			return nil
		}
		data, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		dir := filepath.Dir(path)
		src := string(data)
		if strings.Contains(src, `"github.com/photoctl/photoctl/server/servertest"`) {
			uses[dir] = true
		}
		if strings.Contains(src, "servertest.Main(m)") || strings.Contains(src, "pgtest.Main(m)") {
			calls[dir] = true
		}
		return nil
	})
	require.NoError(t, err)
	var missing []string
	for dir := range uses {
		if !calls[dir] {
			missing = append(missing, dir)
		}
	}
	sort.Strings(missing)
	require.Empty(t, missing, "these packages' tests use servertest without "+
		"func TestMain(m *testing.M) { os.Exit(servertest.Main(m)) }")
}
