package main

import (
	"fmt"
	"net/http"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/photoctl/photoctl/cmd/photoctl/internal/clientcmd/assets"
	"github.com/photoctl/photoctl/server/api"
)

// stackedLibrary is a library of five assets captured on 2024-05-02 to
// 2024-05-06: the first three in one stack, whose cover is the second,
// and two loose ones.
type stackedLibrary struct {
	*cliServer
	env    []string
	assets []api.Asset // by capture time
	stack  api.Stack
}

// may2024 selects every asset of a stackedLibrary by capture time.
var may2024 = []string{"--after", "2024-05-01", "--before", "2024-06-01"}

func newStackedLibrary(t *testing.T) *stackedLibrary {
	t.Helper()
	cs := newCLIServer(t)
	env := cs.keyEnv(t)
	token := cs.Login(cs.user).AccessToken
	assets := uploaded(t, cs, env, 5)
	for i := range assets {
		when := fmt.Sprintf("2024-05-%02dT10:00:00", i+2)
		r := cs.Do("PATCH", "/api/assets/"+assets[i].ID, token, map[string]any{"original_datetime": when})
		require.Equal(t, http.StatusOK, r.Status, "%s", r.Body)
		r.JSON(t, &assets[i])
	}
	ids := []string{assets[0].ID, assets[1].ID, assets[2].ID}
	r := cs.Do("POST", "/api/stacks", token, api.StackCreateRequest{AssetIDs: ids, CoverAssetID: &ids[1]})
	require.Equal(t, http.StatusCreated, r.Status, "%s", r.Body)
	var st api.Stack
	r.JSON(t, &st)
	return &stackedLibrary{cliServer: cs, env: env, assets: assets, stack: st}
}

func (l *stackedLibrary) run(t *testing.T, stdin string, args ...string) cliResult {
	t.Helper()
	return l.cliServer.run(t, stdin, l.env, args...)
}

// ok is run that requires photoctl to succeed (a failure shows its
// stderr).
func (l *stackedLibrary) ok(t *testing.T, stdin string, args ...string) cliResult {
	t.Helper()
	return l.cliServer.ok(t, stdin, l.env, args...)
}

func (l *stackedLibrary) ids() []string { return assetIDs(l.assets) }

// assetIDs is the id of every asset, in order.
func assetIDs(assets []api.Asset) []string {
	return idsOf(assets, func(a api.Asset) string { return a.ID })
}

// idsOf is the id of every item, in order.
func idsOf[T any](items []T, id func(T) string) []string {
	ids := make([]string, len(items))
	for i, item := range items {
		ids[i] = id(item)
	}
	return ids
}

func TestCLIListShowsEveryStackMemberAndMarksTheCover(t *testing.T) {
	t.Parallel()
	l := newStackedLibrary(t)

	r := l.ok(t, "", "ls", "--json")
	require.ElementsMatch(t, l.ids(), assetIDs(decode[[]api.Asset](t, r)), "every member of the stack is listed")
	r = l.ok(t, "", "ls", "--covers-only", "--json")
	require.ElementsMatch(t, []string{l.assets[1].ID, l.assets[3].ID, l.assets[4].ID}, assetIDs(decode[[]api.Asset](t, r)),
		"the stack lists as its cover")

	r = l.ok(t, "", "ls")
	require.Empty(t, r.stderr, "all five fit in the default limit")
	stackColumn := lsStackColumn(t, r.stdout)
	require.Equal(t, map[string]string{l.assets[0].ID: "in stack", l.assets[1].ID: "+2", l.assets[2].ID: "in stack",
		l.assets[3].ID: "-", l.assets[4].ID: "-"}, stackColumn, r.stdout)
	r = l.ok(t, "", "ls", "--covers-only")
	require.Equal(t, map[string]string{l.assets[1].ID: "+2", l.assets[3].ID: "-", l.assets[4].ID: "-"},
		lsStackColumn(t, r.stdout), r.stdout)

	r = l.ok(t, "", "ls", "--limit", "2")
	require.Len(t, lsStackColumn(t, r.stdout), 2)
	require.Equal(t, "Showing the first 2 assets; more match (--all lists them all, --limit N the first N).\n", r.stderr)
	r = l.run(t, "", "ls", "--limit", "5")
	require.Empty(t, r.stderr, "exactly the limit: nothing more matches")
	r = l.ok(t, "", "ls", "--limit", "2", "--json")
	require.Len(t, decode[[]api.Asset](t, r), 2)
	require.Empty(t, r.stderr, "no hint with --json")
}

// lsStackColumn maps each asset id of an ls table to its STACK cell.
func lsStackColumn(t *testing.T, table string) map[string]string {
	t.Helper()
	lines := strings.Split(strings.TrimSpace(table), "\n")
	cells := regexp.MustCompile(`\s{2,}`)
	header := cells.Split(lines[0], -1)
	require.Equal(t, []string{"ID", "TAKEN", "TYPE", "SIZE", "RATING", "STACK", "PLACE", "NAME"}, header)
	out := map[string]string{}
	for _, line := range lines[1:] {
		row := cells.Split(line, -1)
		require.Len(t, row, len(header), line)
		out[row[0]] = row[5]
	}
	return out
}

func TestCLIExportWritesEveryStackMemberAndCountsWhatMatched(t *testing.T) {
	t.Parallel()
	l := newStackedLibrary(t)

	for _, filter := range [][]string{nil, may2024} {
		out := t.TempDir()
		r := l.ok(t, "", append([]string{"export", "-o", out}, filter...)...)
		require.Contains(t, r.stdout, "Matched 5 asset(s); downloaded 5 file(s) (", "filter %v", filter)
		require.Contains(t, r.stdout, "0 already there, 0 failed, into "+out+".")
		for _, a := range l.assets {
			require.FileExists(t, filepath.Join(out, a.OriginalFileName))
		}
	}

	out := t.TempDir()
	r := l.ok(t, "", append([]string{"export", "--covers-only", "-o", out, "--json"}, may2024...)...)
	require.ElementsMatch(t, []string{l.assets[1].ID, l.assets[3].ID, l.assets[4].ID},
		idsOf(decode[[]assets.DownloadResult](t, r), func(d assets.DownloadResult) string { return d.ID }))

	// A directory where a file should go: that asset cannot be written, the
	// others are, and the exit status says so.
	out = t.TempDir()
	require.NoError(t, os.Mkdir(filepath.Join(out, l.assets[0].OriginalFileName), 0o755))
	r = l.run(t, "", "export", "-o", out)
	require.Equal(t, exitPartial, r.code, r.stderr)
	require.Contains(t, r.stdout, "Matched 5 asset(s); downloaded 4 file(s) (")
	require.Contains(t, r.stdout, "1 failed")
	require.Contains(t, r.stderr, "1 of 5 matched assets not downloaded")
	r = l.run(t, "", "export", "-o", out, "--json")
	require.Equal(t, exitPartial, r.code, r.stderr)
	require.Len(t, decode[[]assets.DownloadResult](t, r), 5, "--json is still the array of results")
}

func TestCLIBulkEditByDateEditsEveryStackMember(t *testing.T) {
	t.Parallel()
	l := newStackedLibrary(t)

	r := l.ok(t, "", append([]string{"bulk-edit", "--rating", "4", "--dry-run", "--json"}, may2024...)...)
	dry := decode[assets.BulkEditJSON](t, r)
	require.Len(t, dry.DryRun, 5)
	var ids []string
	for _, d := range dry.DryRun {
		require.False(t, d.Missing, "the dry run finds %s", d.ID)
		require.Equal(t, assets.ChangeJSON{From: nil, To: 4.0}, d.Changes["rating"])
		ids = append(ids, d.ID)
	}
	require.ElementsMatch(t, l.ids(), ids)
	r = l.ok(t, "", append([]string{"bulk-edit", "--rating", "4", "--dry-run"}, may2024...)...)
	require.Contains(t, r.stdout, "Dry run: 5 edit(s) would be sent")

	r = l.ok(t, "", append([]string{"bulk-edit", "--rating", "4"}, may2024...)...)
	require.Contains(t, r.stdout, "Updated 5 asset(s)")
	r = l.run(t, "", "ls", "--min-rating", "4", "--json")
	require.ElementsMatch(t, l.ids(), assetIDs(decode[[]api.Asset](t, r)))

	r = l.ok(t, "", append([]string{"bulk-edit", "--rating", "1", "--covers-only"}, may2024...)...)
	require.Contains(t, r.stdout, "Updated 3 asset(s)", "--covers-only edits each stack's cover")
}

func TestCLITrashFromListTrashesEveryStackMember(t *testing.T) {
	t.Parallel()
	l := newStackedLibrary(t)

	// photoctl ls --all --json | jq -r '.[].id' | photoctl trash -
	r := l.ok(t, "", "ls", "--all", "--json")
	listed := assetIDs(decode[[]api.Asset](t, r))
	r = l.ok(t, strings.Join(listed, "\n")+"\n", "trash", "-")
	require.Contains(t, r.stdout, "Moved 5 asset(s) to the trash.")
	r = l.run(t, "", "ls", "--json")
	require.Empty(t, decode[[]api.Asset](t, r))

	r = l.ok(t, "", "ls", "--state", "trashed", "--all", "--json")
	trashed := assetIDs(decode[[]api.Asset](t, r))
	require.ElementsMatch(t, l.ids(), trashed)
	r = l.ok(t, strings.Join(trashed, "\n")+"\n", "restore", "-")
	r = l.run(t, "", "ls", "--json")
	require.ElementsMatch(t, l.ids(), assetIDs(decode[[]api.Asset](t, r)))
}

func TestCLIAlbumsAddByFilterAddsEveryStackMember(t *testing.T) {
	t.Parallel()
	l := newStackedLibrary(t)
	r := l.ok(t, "", "albums", "create", "May")

	r = l.ok(t, "", append(append([]string{"albums", "add"}, may2024...), "May")...)
	require.Contains(t, r.stdout, "Matched 5 asset(s); album ")
	r = l.run(t, "", "albums", "get", "--json", "May")
	require.Equal(t, 5, decode[api.Album](t, r).AssetCount)

	r = l.ok(t, "", "albums", "create", "May covers")
	r = l.ok(t, "", append(append([]string{"albums", "add", "--covers-only", "--json"}, may2024...), "May covers")...)
	require.Equal(t, 3, decode[api.Album](t, r).AssetCount)

	r = l.run(t, "", append(append([]string{"albums", "add"}, may2024...), "May", l.assets[0].ID)...)
	require.Equal(t, exitUsage, r.code, "ids and filters together")
	require.Contains(t, r.stderr, "not both")
	r = l.run(t, "", "albums", "add", "May")
	require.Equal(t, exitUsage, r.code, "neither ids nor filters")
	r = l.run(t, "", "albums", "add", "--after", "2030-01-01", "May")
	require.Equal(t, exitFailure, r.code, "nothing matches")
	require.Contains(t, r.stderr, "no assets match")
}
