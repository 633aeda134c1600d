package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/photoctl/photoctl/server/api"
	"github.com/photoctl/photoctl/server/servertest"
)

// The real Immich CLI (@immich/cli 3.2.2 on Node 22) against the compiled
// server. `make immich-cli` installs both into .cache/immich from the npm
// registry; without them the test is skipped, unless
// PHOTOCTL_IMMICH_REQUIRED is set (make test, make test-immich), which
// makes a missing CLI a failure.

// immichCLI is the installed Immich CLI and the PATH under which it runs
// on Node 22.
type immichCLI struct{ bin, path string }

// findImmichCLI returns the CLI of the cache, or skips the test when the
// cache is absent and not required.
func findImmichCLI(t *testing.T) immichCLI {
	t.Helper()
	cache := os.Getenv("PHOTOCTL_IMMICH_CACHE")
	if cache == "" {
		cache = filepath.Join("..", "..", ".cache", "immich")
	}
	cache, err := filepath.Abs(cache)
	require.NoError(t, err)
	modules := filepath.Join(cache, "node_modules")
	for _, p := range []string{filepath.Join(modules, "node", "bin", "node"), filepath.Join(modules, ".bin", "immich")} {
		if _, err := os.Stat(p); err != nil {
			if os.Getenv("PHOTOCTL_IMMICH_REQUIRED") != "" {
				t.Fatalf("PHOTOCTL_IMMICH_REQUIRED is set but %s is missing: run make immich-cli", p)
			}
			t.Skipf("no Immich CLI in %s (make immich-cli installs it)", cache)
		}
	}
	return immichCLI{bin: filepath.Join(modules, ".bin", "immich"),
		path: filepath.Join(modules, "node", "bin") + string(os.PathListSeparator) + os.Getenv("PATH")}
}

// run runs the Immich CLI against instance with key and returns its
// output (stdout and stderr). It exits 0 even when uploads fail, so tests
// assert on the output and the server's state.
func (cli immichCLI) run(t *testing.T, instance, key string, args ...string) string {
	t.Helper()
	return cli.runEnv(t, []string{"IMMICH_CONFIG_DIR=" + t.TempDir(), "IMMICH_INSTANCE_URL=" + instance,
		"IMMICH_API_KEY=" + key}, args...)
}

// runEnv runs the Immich CLI with env added to the test's environment.
func (cli immichCLI) runEnv(t *testing.T, env []string, args ...string) string {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, cli.bin, args...)
	cmd.Env = append(append(os.Environ(), "PATH="+cli.path), env...)
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	err := cmd.Run()
	require.NoError(t, err, "immich %s:\n%s", strings.Join(args, " "), out.String())
	t.Logf("immich %s:\n%s", strings.Join(args, " "), out.String())
	return out.String()
}

// nativeGet GETs a native API path with a bearer token into out.
func nativeGet(t *testing.T, base, token, path string, out any) {
	t.Helper()
	req, err := http.NewRequest("GET", base+path, nil)
	require.NoError(t, err)
	req.Header.Set("Authorization", "Bearer "+token)
	resp, err := http.DefaultClient.Do(req)
	require.NoError(t, err)
	defer resp.Body.Close()
	require.Equal(t, http.StatusOK, resp.StatusCode, "GET %s", path)
	require.NoError(t, json.NewDecoder(resp.Body).Decode(out))
}

// createAllKey creates an API key granting every action.
func createAllKey(t *testing.T, base, token string) string {
	t.Helper()
	var k struct {
		Secret string `json:"secret"`
	}
	postJSON(t, base+"/api/api-keys", token, json.RawMessage(`{"name":"immich","scope":{"actions":["all"],"library_ids":null}}`),
		&k, http.StatusCreated)
	return k.Secret
}

// testVideo makes a one-second MP4 with ffmpeg.
func testVideo(t *testing.T, path string) {
	t.Helper()
	require.NoError(t, os.MkdirAll(filepath.Dir(path), 0o755))
	out, err := exec.Command("ffmpeg", "-v", "error", "-f", "lavfi", "-i", "testsrc=duration=1:size=64x48:rate=10",
		"-pix_fmt", "yuv420p", "-y", path).CombinedOutput()
	require.NoError(t, err, "ffmpeg: %s", out)
}

func TestImmichCLIUploadsFoldersIntoAlbums(t *testing.T) {
	cli := findImmichCLI(t)
	photoctlBinary(t) // build first: createUser's time limit is for running it
	env, dataDir, addr, immichAddr := binaryEnv(t), t.TempDir(), freeAddr(t), freeAddr(t)
	createUser(t, env, "--data-dir", dataDir)
	s := startServe(t, env, "--listen", addr, "--immich-listen", immichAddr, "--data-dir", dataDir)
	base := "http://" + addr
	s.waitReady(t, base)
	token := login(t, base)
	key := createAllKey(t, base, token)

	// Albums are named after each file's parent folder.
	dir := t.TempDir()
	want := map[string]string{ // file name → album
		"beach1.jpg": "Holidays", "beach2.jpg": "Holidays", "cake.jpg": "Birthday", "clip.mp4": "Birthday",
		"snow.jpg": "Winter",
	}
	for i, name := range []string{"Holidays/beach1.jpg", "Holidays/beach2.jpg", "Family/Birthday/cake.jpg",
		"Winter/snow.jpg"} {
		writeFile(t, filepath.Join(dir, name), servertest.JPEG(t, 40, 30, 500+i))
	}
	testVideo(t, filepath.Join(dir, "Family", "Birthday", "clip.mp4"))

	out := cli.run(t, base+"/immich/api", key, "upload", "--recursive", "--album", "--no-progress", dir)
	require.NotContains(t, out, "Failed")
	require.Contains(t, out, "Found 5 new files and 0 duplicates")
	require.Contains(t, out, "Successfully uploaded 5 new assets")

	type asset struct {
		ID               string `json:"id"`
		OriginalFileName string `json:"original_file_name"`
		MediaType        string `json:"media_type"`
	}
	type page[T any] struct {
		Data []T `json:"data"`
	}
	state := func() map[string]string { // file name → album, from the native API
		t.Helper()
		var assets page[asset]
		nativeGet(t, base, token, "/api/assets?limit=200", &assets)
		require.Len(t, assets.Data, len(want), "every file is one asset")
		var albums page[struct {
			ID         string `json:"id"`
			Name       string `json:"name"`
			AssetCount int    `json:"asset_count"`
		}]
		nativeGet(t, base, token, "/api/albums?limit=200", &albums)
		got := map[string]string{}
		for _, al := range albums.Data {
			var in page[asset]
			nativeGet(t, base, token, "/api/assets?limit=200&album_id="+url.QueryEscape(al.ID), &in)
			require.Len(t, in.Data, al.AssetCount)
			for _, a := range in.Data {
				_, dup := got[a.OriginalFileName]
				require.False(t, dup, "%s is in two albums", a.OriginalFileName)
				got[a.OriginalFileName] = al.Name
			}
		}
		return got
	}
	require.Equal(t, want, state())

	again := cli.run(t, base+"/immich/api", key, "upload", "--recursive", "--album", "--no-progress", dir)
	require.NotContains(t, again, "Failed")
	require.Contains(t, again, "Found 0 new files and 5 duplicates")
	require.Equal(t, want, state(), "a second run adds nothing")

	// The second listener serves the layer at its root.
	info := cli.run(t, "http://"+immichAddr+"/api", key, "server-info")
	require.Contains(t, info, "Version: 2.")
	require.Contains(t, info, "Images: 4")
	require.Contains(t, info, "Videos: 1")
	require.Contains(t, info, "Total: 5")
	require.Contains(t, info, "jpg")
	s.stop(t)
}

// TestImmichCLILogsInWithoutTrailingSlash: given http://host/immich, the
// CLI asks /.well-known/immich at the host's root; the answer points it at
// /immich/api, where it stays for the commands after the login.
func TestImmichCLILogsInWithoutTrailingSlash(t *testing.T) {
	// Its subject is what the real client sends, 300+ files of it; every
	// route it calls runs on both stores in server/httpapi's Immich tests,
	// and TestImmichCLIUploadsFoldersIntoAlbums runs the CLI on both.
	servertest.SkipStoreNeutralOnPostgres(t, "the Immich CLI's protocol, in bulk")
	cli := findImmichCLI(t)
	photoctlBinary(t)
	env, dataDir, addr := binaryEnv(t), t.TempDir(), freeAddr(t)
	createUser(t, env, "--data-dir", dataDir)
	s := startServe(t, env, "--listen", addr, "--data-dir", dataDir) // the default configuration
	base := "http://" + addr
	s.waitReady(t, base)
	key := createAllKey(t, base, login(t, base))

	config := []string{"IMMICH_CONFIG_DIR=" + t.TempDir()}
	out := cli.runEnv(t, config, "login", base+"/immich", key)
	require.Contains(t, out, "Discovered API at "+base+"/immich/api")
	require.Contains(t, out, "Logged in as")

	// The folder immich-go imports: 300+ JPEGs with EXIF and GPS, videos,
	// same-named different files in two folders.
	lib := photoFolder(t, 150)
	n := len(lib.files)
	require.GreaterOrEqual(t, n, 300)
	out = cli.runEnv(t, config, "upload", "--recursive", "--album", "--no-progress", lib.dir)
	require.NotContains(t, out, "Failed")
	require.Contains(t, out, fmt.Sprintf("Successfully uploaded %d new assets", n))
	again := cli.runEnv(t, config, "upload", "--recursive", "--album", "--no-progress", lib.dir)
	require.NotContains(t, again, "Failed")
	require.Contains(t, again, fmt.Sprintf("Found 0 new files and %d duplicates", n))
	var counts api.Page[api.AssetCount]
	nativeGet(t, base, login(t, base), "/api/assets/counts?stacks=expand&bucket=year", &counts)
	total := int64(0)
	for _, c := range counts.Data {
		total += c.Count
	}
	require.EqualValues(t, n, total, "every file is an asset")
	s.stop(t)
}
