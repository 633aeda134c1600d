package main

import (
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/photoctl/photoctl/server/api"
	"github.com/photoctl/photoctl/server/servertest"
)

// TestCLIShowsTheTown uploads a photo exiftool placed at Cape Canaveral to
// a server running the pipeline: get, ls and search name the town, and
// `photoctl admin regeocode` queues a regeocode task the server runs.
func TestCLIShowsTheTown(t *testing.T) {
	servertest.SkipStoreNeutralOnPostgres(t, "the geocoder's towns in the CLI's output")
	t.Parallel()
	photoctlBinary(t)
	if _, err := exec.LookPath("exiftool"); err != nil {
		t.Skip("exiftool is not installed")
	}
	s := servertest.Start(t, servertest.WithPipeline)
	cs := &cliServer{Server: s, user: s.CreateUser(),
		env: append(binaryEnv(t, "XDG_CACHE_HOME="+t.TempDir(), "NO_COLOR=1"), s.DatabaseEnv()...)}
	env := cs.keyEnv(t)
	dir := photoTree(t, nil, map[string][]byte{"launch.jpg": servertest.JPEG(t, 64, 48, 7)})
	path := filepath.Join(dir, "launch.jpg")
	out, err := exec.Command("exiftool", "-q", "-overwrite_original", "-GPSLatitude=28.39", "-GPSLatitudeRef=N",
		"-GPSLongitude=80.60", "-GPSLongitudeRef=W", path).CombinedOutput()
	require.NoError(t, err, "exiftool: %s", out)
	r := cs.ok(t, "", env, "upload", dir)
	r = cs.ok(t, "", env, "tasks", "watch", "--interval", "100ms", "--json")

	r = cs.run(t, "", env, "ls", "--json")
	list := decode[[]api.Asset](t, r)
	require.Len(t, list, 1)
	id := list[0].ID
	r = cs.ok(t, "", env, "get", id)
	require.Contains(t, r.stdout, "28.390000, -80.600000 (Cape Canaveral, United States of America)")
	r = cs.ok(t, "", env, "ls")
	lines := strings.Split(strings.TrimSpace(r.stdout), "\n")
	require.Contains(t, lines[0], "PLACE")
	require.Contains(t, lines[1], "Cape Canaveral  launch.jpg")
	r = cs.ok(t, "", env, "search", "-q", "canaveral")
	require.Contains(t, r.stdout, "Cape Canaveral  launch.jpg")

	// An administrator queues the re-geocoding; the server runs it and
	// finds the place unchanged.
	r = cs.ok(t, "", nil, "admin", "regeocode", "--data-dir", s.Config.DataDir)
	require.Equal(t, "queued regeocode for 1 libraries\n", r.stdout)
	r = cs.ok(t, "", nil, "admin", "regeocode", "--data-dir", s.Config.DataDir, "--json")
	require.Equal(t, map[string]int{"libraries": 1}, decode[map[string]int](t, r), "queued again: the one already queued is kept")
	r = cs.ok(t, "", env, "tasks", "watch", "--interval", "100ms", "--json")
	r = cs.run(t, "", env, "tasks", "list", "--state", "succeeded", "--all", "--json")
	kinds := []string{}
	for _, task := range decode[[]api.Task](t, r) {
		kinds = append(kinds, task.Kind)
	}
	require.Contains(t, kinds, "regeocode")
	r = cs.run(t, "", env, "get", id)
	require.Contains(t, r.stdout, "(Cape Canaveral, United States of America)")
}
