package main

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/photoctl/photoctl/server/app"
	"github.com/photoctl/photoctl/server/servertest"
)

// exampleEmail and examplePassword are the superuser the examples run as:
// the e-mail the examples write.
const (
	exampleEmail    = "you@example.com"
	examplePassword = "correct horse battery staple"
)

// exampleWorld is what the help examples name, made real on a real server:
// the placeholders (asset_01hx..., "Summer 2024", ~/Pictures, /srv/photoctl)
// and the values that replace them, a signed-in configuration to copy for
// each run, and the folders the examples read and write.
type exampleWorld struct {
	cs     *cliServer
	bin    string            // the photoctl binary
	config string            // XDG_CONFIG_HOME with the signed-in profiles
	home   string            // $HOME: ~/Pictures, ~/Downloads/scan.jpg
	work   string            // the working directory: ratings.csv, .
	root   string            // stands for / in /srv/..., /mnt/..., /backup/...
	ids    map[string]string // "asset_01hx..." -> a real asset id
	vars   map[string]string // $KEY, $HOME
	assets []string
}

// placeholderID matches an id placeholder of the examples: a prefix and
// "..." (or "…"), the 01hx-like part telling several apart.
var placeholderID = regexp.MustCompile(`\b(asset|album|person|face|stack|task|key|intuser|oauthclient|evt|inv|invite|apikey)_[0-9a-z]*(\.\.\.|…)`)

func newExampleWorld(t *testing.T) *exampleWorld {
	t.Helper()
	cs := newCLIServer(t)
	w := &exampleWorld{cs: cs, bin: photoctlBinary(t), config: envValue(cs.env, "XDG_CONFIG_HOME"), home: t.TempDir(), work: t.TempDir(),
		root: t.TempDir(), ids: map[string]string{}}
	_, err := cs.App().CreateUser(context.Background(), app.NewUser{Email: exampleEmail, Password: examplePassword,
		FirstName: "You", Superuser: true})
	require.NoError(t, err)
	for _, profile := range []string{"home", "old-server", ""} { // the last one signed in is the current one
		args := []string{"login", "--server", cs.URL, "--email", exampleEmail, "--password-stdin"}
		if profile != "" {
			args = append(args, "--profile", profile)
		}
		w.cli(t, examplePassword+"\n", args...)
	}
	w.files(t)
	w.records(t)
	return w
}

// files writes the photos, folders and CSV the examples name.
func (w *exampleWorld) files(t *testing.T) {
	t.Helper()
	jpeg := func(seed int) []byte { return servertest.JPEG(t, 24, 24, seed) }
	for i, p := range []string{"Pictures/a.jpg", "Pictures/2024/b.jpg", "Pictures/Trips/Brittany/c.jpg", "Downloads/scan.jpg"} {
		writeFile(t, filepath.Join(w.home, p), jpeg(5000+i))
	}
	writeFile(t, filepath.Join(w.work, "export", "d.jpg"), jpeg(5100))
	writeFile(t, filepath.Join(w.root, "mnt", "card", "DCIM", "e.jpg"), jpeg(5200))
	for _, dir := range []string{"srv/photoctl", "srv/photoctl-new", "mnt/photos", "mnt/backup", "backup"} {
		require.NoError(t, os.MkdirAll(filepath.Join(w.root, dir), 0o755))
	}
}

// records creates on the server what the examples' ids and names stand
// for, each through photoctl itself (flags first: the records do not
// depend on the reordering the examples test).
func (w *exampleWorld) records(t *testing.T) {
	t.Helper()
	cs := w.cs
	lib := w.jsonID(t, "libraries", "create", "--json", "Family archive")
	for _, name := range []string{"Old imports", "Family"} {
		w.cli(t, "", "libraries", "create", name)
	}
	w.cli(t, "", "libraries", "switch", "Family archive")
	token := cs.Login(servertest.User{Email: exampleEmail, Password: examplePassword}).AccessToken
	for i, tag := range []string{"hx", "hy", "hz", "hq", "hv"} {
		a := cs.UploadAsset(token, tag+".jpg", servertest.JPEG(t, 32, 32, 6000+i), map[string]string{"library_id": lib})
		w.ids["asset_01"+tag] = a.ID
		w.assets = append(w.assets, a.ID)
	}
	w.ids["album_01hx"] = w.jsonID(t, "albums", "create", "--json", "Summer 2024")
	w.cli(t, "", "albums", "create", "Screenshots")
	for _, p := range []struct{ tag, name string }{{"hx", "Ann"}, {"hy", "Bob"}, {"hz", "Cleo"}, {"hq", "Dan"}} {
		w.ids["person_01"+p.tag] = w.jsonID(t, "people", "create", "--json", p.name)
	}
	for i, tag := range []string{"hx", "hy"} {
		w.ids["face_01"+tag] = w.jsonID(t, "faces", "create", "--asset", w.assets[i], "--box", "0.1,0.1,0.2,0.2",
			"--person", "Ann", "--json")
	}
	w.ids["stack_01hx"] = w.jsonID(t, "stacks", "create", "--json", w.assets[1], w.assets[2], w.assets[3])
	w.ids["key_01hx"] = w.jsonID(t, "keys", "create", "--action", "asset.read", "--json", "backup")
	invite := w.jsonObject(t, "invite", "create", "--library", "Family archive", "--role", "viewer", "--max", "5", "--json")
	w.ids["inv_01hx"], w.ids["invite_"] = invite["id"].(string), invite["token"].(string)
	w.ids["oauthclient_01hx"] = w.jsonID(t, "admin", "oauth-clients", "create",
		"--redirect-uri", "https://frame.example.com/cb", "--scope", "asset.read", "--json", "Photo frame")
	w.ids["intuser_01hx"] = cs.user.ID // a plain user, not the one the examples sign in as
	key := cs.CreateKey(token, []string{"all"}, nil)
	w.ids["apikey_"] = key
	w.vars = map[string]string{"KEY": key, "HOME": w.home}

	tasks := w.jsonList(t, "tasks", "list", "--json")
	require.NotEmpty(t, tasks, "the uploads queue ingest tasks")
	w.ids["task_01hx"] = tasks[0]["id"].(string)
	events := w.cli(t, "", "events", "tail", "--json")
	var first map[string]any
	require.NoError(t, json.NewDecoder(strings.NewReader(events)).Decode(&first), events)
	w.ids["evt_01hx"] = first["id"].(string)

	writeFile(t, filepath.Join(w.work, "ratings.csv"), []byte("id,rating\n"+w.assets[0]+",5\n"+w.assets[1]+",4\n"))
}

// cli runs photoctl in the world's own configuration, requiring success,
// and returns its standard output.
func (w *exampleWorld) cli(t *testing.T, stdin string, args ...string) string {
	t.Helper()
	r := w.cs.run(t, stdin, []string{"HOME=" + w.home}, args...)
	require.Equal(t, exitOK, r.code, "photoctl %s: %s", strings.Join(args, " "), r.stderr)
	return r.stdout
}

func (w *exampleWorld) jsonObject(t *testing.T, args ...string) map[string]any {
	t.Helper()
	var v map[string]any
	out := w.cli(t, "", args...)
	require.NoError(t, json.Unmarshal([]byte(out), &v), out)
	return v
}

func (w *exampleWorld) jsonList(t *testing.T, args ...string) []map[string]any {
	t.Helper()
	var v []map[string]any
	out := w.cli(t, "", args...)
	require.NoError(t, json.Unmarshal([]byte(out), &v), out)
	return v
}

func (w *exampleWorld) jsonID(t *testing.T, args ...string) string {
	t.Helper()
	id, _ := w.jsonObject(t, args...)["id"].(string)
	require.NotEmpty(t, id, "photoctl %s printed no id", strings.Join(args, " "))
	return id
}

// expand is the shell's part: $VAR (from vars, else left) and a leading ~.
func (w *exampleWorld) expand(word string) string {
	if word == "~" || strings.HasPrefix(word, "~/") {
		word = w.home + word[1:]
	}
	return os.Expand(word, func(name string) string {
		if v, ok := w.vars[name]; ok {
			return v
		}
		return "$" + name
	})
}

// fill replaces the placeholders of an example's words with real values:
// ids, the server's URL for the example servers, and the example's
// absolute paths below the world's root.
func (w *exampleWorld) fill(args []string, listen string) []string {
	out := make([]string, len(args))
	for i, a := range args {
		a = placeholderID.ReplaceAllStringFunc(a, func(p string) string {
			key := strings.TrimSuffix(strings.TrimSuffix(p, "..."), "…")
			if id, ok := w.ids[key]; ok {
				return id
			}
			return p // no such record: the command reports it (a 404), which is fine
		})
		switch a {
		case "http://127.0.0.1:2283", "https://photos.example.com":
			a = w.cs.URL
		case "127.0.0.1:2283", "0.0.0.0:2283":
			a = listen
		}
		for _, dir := range []string{"/srv/", "/mnt/", "/backup/", "/tmp/photoctl-dev"} {
			if strings.HasPrefix(a, dir) {
				a = w.root + a
			}
			a = strings.ReplaceAll(a, "sqlite://"+dir, "sqlite://"+w.root+dir)
		}
		out[i] = a
	}
	return out
}
