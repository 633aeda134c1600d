package main

import (
	"context"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/photoctl/photoctl/cmd/photoctl/internal/servercmd"
	"github.com/photoctl/photoctl/server/app"
	"github.com/photoctl/photoctl/server/devseed"
	"github.com/photoctl/photoctl/server/query"
)

func TestDevSeedCreatesTheUserOnceAndSeedsTheirLibrary(t *testing.T) {
	isolate(t)
	f := stubFactory(t)
	f.server.CreateUser = app.CreateUser
	dir := t.TempDir()
	args := []string{"dev", "seed", "--data-dir", dir, "--assets", "1200", "--batch", "500", "--library-email", "bench@example.com"}

	r := runCLI(t, f, "", args...)
	require.Equal(t, exitOK, r.code, r.stderr)
	require.Contains(t, r.stderr, "created user intuser_")
	require.Regexp(t, `^seeded 1200 assets into library lib_\w+ of bench@example.com in [0-9.]+s: \d+ assets/s\n$`, r.stdout)

	r = runCLI(t, f, "", args...)
	require.Equal(t, exitOK, r.code, r.stderr)
	require.NotContains(t, r.stderr, "created user", "the second run finds the account")

	cfg := app.Defaults(dir)
	st, err := servercmd.OpenDataDirStore(context.Background(), cfg)
	require.NoError(t, err)
	defer st.Close()
	u, err := st.Read().Users().GetByEmail(context.Background(), "bench@example.com")
	require.NoError(t, err)
	lib, err := devseed.FirstOwnedLibrary(context.Background(), st, u.ID)
	require.NoError(t, err)
	page, _, err := st.Read().Assets().List(context.Background(),
		query.AssetFilter{LibraryID: lib.ID, State: query.StateAll}, query.Page{Limit: 2400})
	require.NoError(t, err)
	require.Len(t, page, 2400)
}

func TestDevSeedNeedsAPositiveNumberOfAssets(t *testing.T) {
	for _, args := range [][]string{
		{"dev", "seed"},
		{"dev", "seed", "--assets", "0"},
		{"dev", "seed", "--assets", "10", "--batch", "-1"},
	} {
		isolate(t)
		r := runCLI(t, nil, "", args...)
		require.Equal(t, exitUsage, r.code, r.stderr)
		require.Contains(t, r.stderr, "must be a positive number")
	}
}

func TestDevIsHiddenFromTheGeneratedDocs(t *testing.T) {
	isolate(t)
	files, err := generatedFiles(newApp(stubFactory(t)))
	require.NoError(t, err)
	require.NotContains(t, files["docs/cli/photoctl.md"], "dev seed")
}
