package main

import (
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/photoctl/photoctl/server/api"
	"github.com/photoctl/photoctl/server/app"
	"github.com/photoctl/photoctl/server/catalog"
	"github.com/photoctl/photoctl/server/servertest"
	"github.com/photoctl/photoctl/server/store"
)

// libraryHint is what the CLI says instead of the server's raw 422 when
// several libraries and none named.
const libraryHint = "you have several libraries: name one with --library NAME (or $PHOTOCTL_LIBRARY), " +
	"or choose a default with 'photoctl libraries switch NAME'"

// TestCLISeveralLibrariesWithoutFriction: with two libraries, a command
// that works in one says how to name it; --library, $PHOTOCTL_LIBRARY,
// the config file's library key, the profile's default (libraries
// switch) and, for an API key, the account's default all name it, dry
// runs included.
func TestCLISeveralLibrariesWithoutFriction(t *testing.T) {
	t.Parallel()
	cs := newCLIServer(t)
	cs.login(t)
	token := cs.Login(cs.user).AccessToken
	r := cs.ok(t, "", nil, "libraries", "create", "--json", "Family")
	family := decode[api.Library](t, r)
	photo := cs.UploadAsset(token, "f.jpg", servertest.JPEG(t, 16, 16, 1), map[string]string{"library_id": family.ID})
	for _, l := range cs.Libraries(token) {
		if l.ID != family.ID {
			cs.UploadAsset(token, "m.jpg", servertest.JPEG(t, 16, 16, 2), map[string]string{"library_id": l.ID})
		}
	}
	edits := filepath.Join(t.TempDir(), "edits.csv")
	require.NoError(t, os.WriteFile(edits, []byte("id,rating\n"+photo.ID+",4\n"), 0o644))
	listsFamily := func(t *testing.T, r cliResult) {
		t.Helper()
		require.Equal(t, exitOK, r.code, r.stderr)
		assets := decode[[]api.Asset](t, r)
		require.Len(t, assets, 1)
		require.Equal(t, photo.ID, assets[0].ID)
	}

	t.Run("no library named: one line that says what to do", func(t *testing.T) {
		for _, args := range [][]string{{"ls"}, {"bulk-edit", "--dry-run", "--all-assets", "--rating", "3"}} {
			r := cs.run(t, "", nil, args...)
			require.Equal(t, exitUsage, r.code, "%v: %s", args, r.stderr)
			require.Equal(t, "photoctl: "+libraryHint+"\n", r.stderr, "%v", args)
		}
	})
	t.Run("$PHOTOCTL_LIBRARY by name", func(t *testing.T) {
		listsFamily(t, cs.run(t, "", []string{"PHOTOCTL_LIBRARY=family"}, "ls", "--json"))
	})
	t.Run("the config file's library key", func(t *testing.T) {
		cfg := filepath.Join(t.TempDir(), "config.toml")
		require.NoError(t, os.WriteFile(cfg, []byte(`library = "`+family.ID+`"`+"\n"), 0o644))
		listsFamily(t, cs.run(t, "", nil, "--config", cfg, "ls", "--json"))
	})
	t.Run("bulk-edit --dry-run with --library, from a file and from filters", func(t *testing.T) {
		r := cs.ok(t, "", nil, "bulk-edit", "--dry-run", "--library", "Family", edits)
		require.Contains(t, r.stdout, photo.ID+"  rating: (none) → 4")
		r = cs.ok(t, "", nil, "bulk-edit", "--dry-run", "--library", "Family", "--all-assets", "--rating", "3")
		require.Contains(t, r.stdout, photo.ID+"  rating: (none) → 3")
		// The edit itself names no library, so neither must its dry run.
		r = cs.ok(t, "", nil, "bulk-edit", "--dry-run", edits)
		require.Contains(t, r.stdout, photo.ID+"  rating: (none) → 4")
	})
	t.Run("tasks list spans both libraries", func(t *testing.T) {
		r := cs.ok(t, "", nil, "tasks", "list", "--kind", "metadata", "--json")
		require.Len(t, decode[[]api.Task](t, r), 2)
	})

	keyEnv := cs.keyEnv(t)
	t.Run("an API key with $PHOTOCTL_LIBRARY", func(t *testing.T) {
		listsFamily(t, cs.run(t, "", append(keyEnv, "PHOTOCTL_LIBRARY=Family"), "ls", "--json"))
	})
	t.Run("after libraries switch, the profile and the API key use the default", func(t *testing.T) {
		r := cs.ok(t, "", nil, "libraries", "switch", "Family")
		listsFamily(t, cs.run(t, "", nil, "ls", "--json"))
		listsFamily(t, cs.run(t, "", keyEnv, "ls", "--json"))
		r = cs.ok(t, "", nil, "bulk-edit", "--dry-run", "--all-assets", "--rating", "2")
		require.Contains(t, r.stdout, photo.ID+"  rating: (none) → 2")
		// $PHOTOCTL_LIBRARY outranks the default.
		r = cs.ok(t, "", []string{"PHOTOCTL_LIBRARY=My Library"}, "ls", "--json")
		require.NotEqual(t, photo.ID, decode[[]api.Asset](t, r)[0].ID)
	})
}

// TestCLINeverPrintsServerControlCharacters: text from the server that
// holds escape sequences (a description here; names are refused with 422)
// is printed escaped in records and tables, and raw in --json only as
// JSON escapes.
func TestCLINeverPrintsServerControlCharacters(t *testing.T) {
	t.Parallel()
	cs := newCLIServer(t)
	cs.login(t)
	token := cs.Login(cs.user).AccessToken
	a := cs.UploadAsset(token, "a.jpg", servertest.JPEG(t, 16, 16, 1), nil)
	resp := cs.Do("PATCH", "/api/assets/"+a.ID, token, map[string]any{"description": "calm\u001b[2J\u001b]0;pwned\u0007\u009b31m"})
	require.Equal(t, http.StatusOK, resp.Status, "%s", resp.Body)

	r := cs.ok(t, "", nil, "get", a.ID)
	require.Contains(t, r.stdout, `calm\x1b[2J\x1b]0;pwned\x07\u009b31m`)
	require.NotContains(t, r.stdout, "\x1b")
	require.NotContains(t, r.stdout, "\u009b")

	r = cs.run(t, "", nil, "albums", "create", "bad\x1b[2Jname")
	require.Equal(t, exitUsage, r.code, "the server refuses the name: %s", r.stderr)
	require.NotContains(t, r.stderr, "\x1b", "the error echoes the name escaped")
}

// TestCLIPeopleAndMembersSayWhoIsThere: an empty people list hints at
// --include-unverified when the machine has smaller clusters, and
// members without a name are listed by their e-mail's local part.
func TestCLIPeopleAndMembersSayWhoIsThere(t *testing.T) {
	t.Parallel()
	cs := newCLIServer(t)
	cs.login(t)
	token := cs.Login(cs.user).AccessToken
	lib := cs.Libraries(token)[0].ID

	r := cs.ok(t, "", nil, "people", "list")
	require.Empty(t, r.stderr, "no clusters at all: nothing to hint at")

	st := servertest.OpenStore(t, cs.Config)
	now := time.Now()
	require.NoError(t, st.InTx(t.Context(), func(rp store.Repos) error {
		return rp.Clustering().CreateCluster(t.Context(), &catalog.Person{ID: catalog.NewID(catalog.PrefixPerson, now),
			LibraryID: lib, CreatedAt: now, UpdatedAt: now})
	}))
	r = cs.ok(t, "", nil, "people", "list")
	require.Contains(t, r.stderr, "--include-unverified")
	require.Equal(t, 1, strings.Count(r.stderr, "\n"), "one line: %s", r.stderr)

	nameless, err := cs.App().CreateUser(t.Context(), app.NewUser{Email: "jo.doe@example.com", Password: "correct horse battery"})
	require.NoError(t, err)
	r = cs.ok(t, "", nil, "invite", "create", "--json")
	inv := decode[api.InvitationCreated](t, r)
	jo := cs.Login(servertest.User{ID: nameless.ID, Email: "jo.doe@example.com", Password: "correct horse battery"})
	resp := cs.Do("POST", "/api/libraries/invitations/join", jo.AccessToken, api.InvitationTokenRequest{Token: inv.Token})
	require.Equal(t, http.StatusOK, resp.Status, "%s", resp.Body)
	r = cs.ok(t, "", nil, "members", "list")
	require.Regexp(t, `(?m)^`+nameless.ID+`\s+jo\.doe\s+viewer`, r.stdout)
	require.Regexp(t, `(?m)^`+cs.user.ID+`\s+User\d+\s+owner`, r.stdout)
}
