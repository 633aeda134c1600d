package main

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/photoctl/photoctl/cmd/photoctl/internal/clientcmd/assets"
	"github.com/photoctl/photoctl/cmd/photoctl/internal/clientcmd/version"
	"github.com/photoctl/photoctl/cmd/photoctl/internal/cmdutil"
	"github.com/photoctl/photoctl/server/api"

	"github.com/photoctl/photoctl/server/servertest"
)

// The small habits of the command line (issue 33): positional search
// words, the -r hint, -q, events tail -n, version and name completion.

func TestCLISearchTakesTheQueryAsWords(t *testing.T) {
	t.Parallel()
	cs := newCLIServer(t)
	cs.login(t)
	dir := photoTree(t, []string{"kyoto-temple.jpg", "beach.jpg"}, nil)
	cs.ok(t, "", nil, "upload", dir)

	r := cs.ok(t, "", nil, "search", "kyoto", "temple", "--json")
	hits := decode[[]api.SearchHit](t, r)
	require.Len(t, hits, 1)
	require.Equal(t, "kyoto-temple.jpg", hits[0].OriginalFileName)

	r = cs.run(t, "", nil, "search", "kyoto", "--query", "beach")
	require.Equal(t, exitUsage, r.code, "words and --query: which one?")
	require.Contains(t, r.stderr, "not both")
	require.Empty(t, r.stdout)
}

func TestCLIUploadOfAFolderOfFoldersSaysUseR(t *testing.T) {
	t.Parallel()
	cs := newCLIServer(t)
	cs.login(t)
	dir := photoTree(t, []string{"100CANON/a.jpg", "101CANON/b.jpg"}, map[string][]byte{".DS_Store": []byte("x")})
	hint := filepath.Clean(dir) + " holds only folders; use -r to upload them recursively"

	r := cs.run(t, "", nil, "upload", dir)
	require.Equal(t, exitUsage, r.code, "nothing at all was found: a usage error scripts notice")
	require.Contains(t, r.stderr, hint)
	require.NotContains(t, r.stdout, "Uploaded", "the hint alone, no empty summary")

	r = cs.run(t, "", nil, "upload", "--json", dir)
	require.Equal(t, exitUsage, r.code)
	require.Contains(t, r.stderr, hint)
	out := decode[assets.UploadJSON](t, r) // still valid JSON
	require.Zero(t, out.New)
	require.Empty(t, out.Files)

	// Beside a file that is uploaded, the folder only earns a note.
	file := filepath.Join(photoTree(t, []string{"c.jpg"}, nil), "c.jpg")
	r = cs.ok(t, "", nil, "upload", dir, file)
	require.Contains(t, r.stderr, "Note: "+hint)
	require.Contains(t, r.stdout, "Uploaded 1 new")

	r = cs.ok(t, "", nil, "upload", "-r", dir)
	require.Contains(t, r.stdout, "Uploaded 1 new (", "b.jpg")
	require.Contains(t, r.stdout, "1 duplicate", "a.jpg has the bytes of c.jpg")
	require.NotContains(t, r.stderr, "only folders")
}

func TestCLIUploadWithSeveralLibrariesPrintsOnlyTheHint(t *testing.T) {
	t.Parallel()
	cs := newCLIServer(t)
	cs.login(t)
	cs.ok(t, "", nil, "libraries", "create", "Travel")
	dir := photoTree(t, []string{"2024/a.jpg"}, nil)
	for _, args := range [][]string{{"upload", "-r", dir}, {"upload", "-r", "--json", dir}} {
		r := cs.run(t, "", nil, args...)
		require.Equal(t, exitUsage, r.code, "%v: %s", args, r.stderr)
		require.Equal(t, "photoctl: "+libraryHint+"\n", r.stderr, "%v", args)
		require.Empty(t, r.stdout, "%v: no empty summary before the hint", args)
	}
}

func TestCLIQuietLeavesOnlyErrors(t *testing.T) {
	t.Parallel()
	cs := newCLIServer(t)
	cs.login(t)
	// Before any upload, while the queue is empty: watching a queue that
	// work keeps full would wait for the renders and the models.
	r := cs.ok(t, "", nil, "tasks", "watch", "-q", "--interval", "100ms")
	require.NotContains(t, r.stdout, "Nothing queued or running")
	require.Empty(t, r.stderr)

	dir := photoTree(t, []string{"a.jpg", "b.jpg"}, map[string][]byte{"broken.jpg": []byte("not a photo"), "notes.txt": []byte("hi")})
	r = cs.run(t, "", nil, "upload", "-q", "-v", dir)
	require.Equal(t, exitUsage, r.code)
	require.Contains(t, r.stderr, "--quiet and --verbose")

	r = cs.run(t, "", nil, "upload", "-q", dir)
	require.Equal(t, exitPartial, r.code, r.stderr)
	require.Empty(t, r.stdout, "no summary, no skipped list")
	require.Contains(t, r.stderr, "broken.jpg: ", "failures are errors: they stay")
	require.NotContains(t, r.stderr, "notes.txt")

	r = cs.run(t, "", nil, "upload", "--quiet", dir)
	require.Equal(t, exitPartial, r.code)
	require.Empty(t, r.stdout)

	r = cs.ok(t, "", nil, "download", "-q", "-o", t.TempDir())
	require.Empty(t, r.stdout)
	require.Empty(t, r.stderr)

	r = cs.ok(t, "", nil, "bulk-edit", "-q", "--all-assets", "--rating", "4")
	require.Empty(t, r.stdout)
	require.Empty(t, r.stderr)
}

func TestCLILsSaysHowToSeeMore(t *testing.T) {
	t.Parallel()
	cs := newCLIServerWithPhotos(t, "a.jpg", "b.jpg")
	r := cs.ok(t, "", nil, "ls", "--limit", "1")
	require.Contains(t, r.stderr, "--all")
	require.Contains(t, r.stderr, "--limit N")
}

func TestCLIEventsTailLastN(t *testing.T) {
	t.Parallel()
	cs := newCLIServerWithPhotos(t, "a.jpg", "b.jpg", "c.jpg")
	events := func(r cliResult) []api.Event {
		t.Helper()
		require.Equal(t, exitOK, r.code, r.stderr)
		var out []api.Event
		for line := range strings.Lines(r.stdout) {
			var e api.Event
			require.NoError(t, json.Unmarshal([]byte(line), &e))
			out = append(out, e)
		}
		return out
	}
	all := events(cs.run(t, "", nil, "events", "tail", "--json"))
	require.GreaterOrEqual(t, len(all), 3)

	last := events(cs.run(t, "", nil, "events", "tail", "-n", "2", "--json"))
	require.Equal(t, all[len(all)-2:], last)
	require.Empty(t, events(cs.run(t, "", nil, "events", "tail", "-n", "0")))
	require.Equal(t, all, events(cs.run(t, "", nil, "events", "tail", "--lines", "1000", "--json")))
	require.Equal(t, all[len(all)-1:], events(cs.run(t, "", nil, "events", "tail", "-n", "1", "--after", all[0].ID, "--json")))

	r := cs.run(t, "", nil, "events", "tail", "-n", "-1")
	require.Equal(t, exitUsage, r.code)
}

func TestCLIVersionAsksTheServerWhenSignedIn(t *testing.T) {
	servertest.SkipStoreNeutralOnPostgres(t, "the version output")
	t.Parallel()
	cs := newCLIServer(t)
	env := cs.keyEnv(t)

	r := cs.ok(t, "", env, "version", "--json")
	v := decode[version.JSON](t, r)
	require.Equal(t, "dev", v.Client, "a test build has no -X .../cmdutil.Version")
	require.NotNil(t, v.Server)
	require.Equal(t, "dev", *v.Server, "servertest passes no version")
	require.Empty(t, r.stderr)

	r = cs.run(t, "", env, "version")
	require.Equal(t, "client: dev\nserver: dev\n", r.stdout)

	r = cs.ok(t, "", nil, "version", "--json")
	require.Nil(t, decode[version.JSON](t, r).Server)
	require.Contains(t, r.stderr, "not signed in")

	down := []string{"PHOTOCTL_SERVER=http://127.0.0.1:1", "PHOTOCTL_API_KEY=" + envValue(env, "PHOTOCTL_API_KEY")}
	r = cs.ok(t, "", down, "version")
	require.Equal(t, "client: dev\n", r.stdout)
	require.Contains(t, r.stderr, "did not answer")

	r = cs.ok(t, "", down, "--version")
	require.Equal(t, "photoctl version dev\n"+dataCredits+"\n", r.stdout)
}

func TestCLICompletionOffersNamesFromTheServerCached(t *testing.T) {
	t.Parallel()
	cs := newCLIServer(t)
	cs.login(t)
	cs.ok(t, "", nil, "libraries", "create", "Family archive")
	cs.ok(t, "", nil, "albums", "create", "--library", "Family archive", "Summer 2024")
	complete := func(args ...string) []string {
		t.Helper()
		r := cs.ok(t, "", nil, append(args, "--generate-bash-completion")...)
		require.Empty(t, r.stderr)
		return strings.Split(strings.TrimSuffix(r.stdout, "\n"), "\n")
	}

	libs := complete("ls", "--library")
	require.Contains(t, libs, "Family archive")
	require.Len(t, libs, 2, "the default library and Family archive: %v", libs)
	require.Equal(t, []string{"Summer 2024"}, complete("search", "--library", "Family archive", "--album"))
	cs.ok(t, "", nil, "people", "create", "--library", "Family archive", "Ann")
	require.Equal(t, []string{"Ann"}, complete("search", "--library", "Family archive", "--person"))
	require.Equal(t, []string{"Summer 2024"}, complete("albums", "get", "--library", "Family archive"),
		"the first argument of a command that takes an album")
	require.Contains(t, complete("ls", "--lib"), "--library", "flags still complete")

	// Within the minute the cache answers: a new library is not seen yet.
	cs.ok(t, "", nil, "libraries", "create", "Zoo")
	require.Equal(t, libs, complete("ls", "--library"))
	cache := filepath.Join(envValue(cs.env, "XDG_CACHE_HOME"), "photoctl", "completion")
	entries, err := os.ReadDir(cache)
	require.NoError(t, err)
	old := time.Now().Add(-2 * cmdutil.CompletionCacheTTL)
	for _, e := range entries {
		require.NoError(t, os.Chtimes(filepath.Join(cache, e.Name()), old, old))
	}
	require.Contains(t, complete("ls", "--library"), "Zoo", "a stale cache is read again")

	// No server: nothing, quickly, and no error.
	start := time.Now()
	r := cs.run(t, "", []string{"PHOTOCTL_SERVER=http://127.0.0.1:1", "PHOTOCTL_API_KEY=x"},
		"ls", "--album", "--generate-bash-completion")
	require.Equal(t, exitOK, r.code)
	require.Empty(t, r.stdout)
	require.Empty(t, r.stderr)
	require.Less(t, time.Since(start), 5*time.Second)

	// bash inserts a name with a space as one word.
	if _, err := exec.LookPath("bash"); err == nil {
		script := filepath.Join(t.TempDir(), "photoctl.bash")
		require.NoError(t, os.WriteFile(script, []byte(bashCompletion), 0o644))
		cmd := exec.Command("bash", "-c", `source "$1"; COMP_WORDS=(photoctl ls --library Fam); COMP_CWORD=3
_photoctl_bash_autocomplete; printf '%s\n' "${COMPREPLY[@]}"`, "bash", script)
		cmd.Env = append(append([]string{}, cs.env...), "PATH="+filepath.Dir(photoctlBinary(t))+":"+os.Getenv("PATH"))
		out, err := cmd.CombinedOutput()
		require.NoError(t, err, string(out))
		require.Equal(t, "Family\\ archive\n", string(out))
	}
}

// What `ls --json` prints feeds "-" as it is, without jq; a line of ids
// still works, and JSON without ids is a usage error that sends nothing.
func TestCLIStdinTakesTheJSONOfAListing(t *testing.T) {
	t.Parallel()
	cs := newCLIServerWithPhotos(t, "a.jpg", "b.jpg", "c.jpg")
	listed := cs.ok(t, "", nil, "ls", "--all", "--json")

	bad := cs.run(t, `[{"name":"a.jpg"}]`, nil, "trash", "-")
	require.Equal(t, exitUsage, bad.code, bad.stderr)
	require.Contains(t, bad.stderr, `has no "id"`)

	r := cs.ok(t, listed.stdout, nil, "trash", "-", "--json")
	var trashed struct{ IDs []string }
	require.NoError(t, json.Unmarshal([]byte(r.stdout), &trashed))
	require.Len(t, trashed.IDs, 3)

	ids := strings.Join(trashed.IDs, "\n")
	r = cs.ok(t, ids, nil, "restore", "-")
	require.Contains(t, r.stdout, "3")
}

// Every listing cut at its --limit says so, as ls does; --all and a
// limit past the end say nothing.
func TestCLIListingsCutAtTheirLimitSaySo(t *testing.T) {
	t.Parallel()
	cs := newCLIServerWithPhotos(t, "a.jpg", "b.jpg", "c.jpg")
	for _, args := range [][]string{{"ls"}, {"tasks", "list"}} {
		r := cs.ok(t, "", nil, append(args, "--limit", "1")...)
		require.Contains(t, r.stderr, "Showing the first 1 ", args)
		r = cs.ok(t, "", nil, append(args, "--all")...)
		require.NotContains(t, r.stderr, "more match", args)
		r = cs.ok(t, "", nil, append(args, "--limit", "1", "--json")...)
		require.NotContains(t, r.stderr, "more match", args)
	}
}
