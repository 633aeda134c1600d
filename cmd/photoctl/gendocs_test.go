package main

import (
	"flag"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/stretchr/testify/require"
)

var update = flag.Bool("update", false, "rewrite the checked-in generated files (completions/, docs/cli/)")

// repoRoot is where go generate writes, relative to this package.
var repoRoot = filepath.Join("..", "..")

const regenerate = "go generate ./cmd/photoctl (or go test ./cmd/photoctl -run TestGeneratedFilesAreUpToDate -update)"

func TestGeneratedFilesAreUpToDate(t *testing.T) {
	isolate(t)
	dir := t.TempDir()
	r := runCLI(t, nil, "", genDocsCommandName, dir)
	require.Equal(t, exitOK, r.code, r.stderr)
	require.Empty(t, r.stdout)

	var names []string
	err := filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() {
			rel, _ := filepath.Rel(dir, path)
			names = append(names, rel)
		}
		return err
	})
	require.NoError(t, err)
	require.ElementsMatch(t, []string{
		filepath.Join("completions", "photoctl.bash"),
		filepath.Join("completions", "photoctl.zsh"),
		filepath.Join("completions", "photoctl.fish"),
		filepath.Join("docs", "cli", "photoctl.md"),
		filepath.Join("docs", "cli", "photoctl.1"),
	}, names)

	for _, name := range names {
		fresh, err := os.ReadFile(filepath.Join(dir, name))
		require.NoError(t, err)
		checkedIn := filepath.Join(repoRoot, name)
		if *update {
			require.NoError(t, os.MkdirAll(filepath.Dir(checkedIn), 0o755))
			require.NoError(t, os.WriteFile(checkedIn, fresh, 0o644))
			continue
		}
		old, err := os.ReadFile(checkedIn)
		if err != nil {
			t.Errorf("%s is missing (%v); regenerate it with: %s", filepath.ToSlash(name), err, regenerate)
			continue
		}
		if diff := cmp.Diff(string(old), string(fresh)); diff != "" {
			t.Errorf("%s is stale; regenerate it with: %s\n(-checked in +generated):\n%s",
				filepath.ToSlash(name), regenerate, diff)
		}
	}
}

func TestGeneratedDocsListEveryVisibleCommand(t *testing.T) {
	isolate(t)
	a := newApp(stubFactory(t))
	files, err := generatedFiles(a)
	require.NoError(t, err)
	for _, path := range commandPaths(nil, a.VisibleCommands()) {
		heading := strings.Repeat("#", len(path)+1) + " " + path[len(path)-1] + "\n"
		require.Contains(t, files["docs/cli/photoctl.md"], heading)
		require.Contains(t, files["docs/cli/photoctl.1"], path[len(path)-1])
	}
	require.NotContains(t, files["docs/cli/photoctl.md"], genDocsCommandName)
	require.Contains(t, files["docs/cli/photoctl.1"], ".TH photoctl 1")
}

func TestGenDocsNeedsTheRepositoryRoot(t *testing.T) {
	isolate(t)
	r := runCLI(t, nil, "", genDocsCommandName)
	require.Equal(t, exitUsage, r.code)
	require.Contains(t, r.stderr, "want exactly one argument, the repository root")
}
