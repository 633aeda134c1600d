package main

import (
	"bytes"
	"context"
	"encoding/json"
	"net/http"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/photoctl/photoctl/server/servertest"
)

// The real immich-go v0.31.0 against the compiled server with its default
// configuration (rate limits on). `make immich-go` builds it into
// .cache/immich-go from its module; without it the test is skipped, unless
// PHOTOCTL_IMMICH_GO_REQUIRED is set (make test, make test-immich).

// findImmichGo returns the immich-go binary, or skips the test when it is
// absent and not required.
func findImmichGo(t *testing.T) string {
	t.Helper()
	bin := os.Getenv("PHOTOCTL_IMMICH_GO")
	if bin == "" {
		bin = filepath.Join("..", "..", ".cache", "immich-go", "immich-go")
	}
	bin, err := filepath.Abs(bin)
	require.NoError(t, err)
	if _, err := os.Stat(bin); err != nil {
		if os.Getenv("PHOTOCTL_IMMICH_GO_REQUIRED") != "" {
			t.Fatalf("PHOTOCTL_IMMICH_GO_REQUIRED is set but %s is missing: run make immich-go", bin)
		}
		t.Skipf("no immich-go at %s (make immich-go builds it)", bin)
	}
	return bin
}

// runImmichGo runs immich-go with args and requires exit status 0; it
// returns the output.
func runImmichGo(t *testing.T, bin string, args ...string) string {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, bin, args...)
	cmd.Env = append(os.Environ(), "TZ=UTC", "HOME="+t.TempDir())
	cmd.Dir = t.TempDir() // it reads ./immich-go.yaml
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	err := cmd.Run()
	t.Logf("immich-go %s:\n%s", strings.Join(args, " "), out.String())
	require.NoError(t, err, "immich-go %s:\n%s", strings.Join(args, " "), out.String())
	return out.String()
}

// nativeAll pages a native list (limit 200) and returns every item.
func nativeAll(t *testing.T, base, token, path string) []map[string]any {
	t.Helper()
	var all []map[string]any
	after := ""
	for {
		var page struct {
			Data    []map[string]any `json:"data"`
			HasMore bool             `json:"has_more"`
		}
		sep := "?"
		if strings.Contains(path, "?") {
			sep = "&"
		}
		nativeGet(t, base, token, path+sep+"limit=200&starting_after_id="+url.QueryEscape(after), &page)
		all = append(all, page.Data...)
		if !page.HasMore || len(page.Data) == 0 {
			return all
		}
		after = page.Data[len(page.Data)-1]["id"].(string)
	}
}

// immichGet GETs an Immich layer path with an API key into out.
func immichGet(t *testing.T, base, key, path string, out any) {
	t.Helper()
	req, err := http.NewRequest("GET", base+"/immich/api"+path, nil)
	require.NoError(t, err)
	req.Header.Set("x-api-key", key)
	resp, err := http.DefaultClient.Do(req)
	require.NoError(t, err)
	defer resp.Body.Close()
	require.Equal(t, http.StatusOK, resp.StatusCode, "GET %s", path)
	require.NoError(t, json.NewDecoder(resp.Body).Decode(out))
}

func TestImmichGoUploadsAndArchives(t *testing.T) {
	// Its subject is what immich-go sends, 300+ files of it: every route
	// it calls (bulk upload check, upload, copy, tags, albums, metadata
	// search) runs on both stores in server/httpapi's Immich tests.
	servertest.SkipStoreNeutralOnPostgres(t, "immich-go's protocol, in bulk")
	bin := findImmichGo(t)
	photoctlBinary(t) // build first: createUser's time limit is for running it
	lib := photoFolder(t, 150)
	env, dataDir, addr := binaryEnv(t), t.TempDir(), freeAddr(t)
	createUser(t, env, "--data-dir", dataDir)
	s := startServe(t, env, "--listen", addr, "--data-dir", dataDir) // the default configuration
	base := "http://" + addr
	s.waitReady(t, base)
	token := login(t, base)
	key := createAllKey(t, base, token)
	server := []string{"--server", base + "/immich", "--api-key", key, "--no-ui", "--log-level", "INFO"}
	upload := func(args ...string) string {
		return runImmichGo(t, bin, append(append([]string{"upload", "from-folder"}, server...), args...)...)
	}

	// 1. Every folder becomes an album, every photo gets the tag; the
	// same-named photos of other times are told apart.
	upload("--folder-as-album", "FOLDER", "--tag", "photoctl/first", lib.dir)
	want := lib.contents()
	assetSums := func() map[string]bool { // SHA-1s of the assets, stack members included
		t.Helper()
		out := map[string]bool{}
		for _, a := range nativeAll(t, base, token, "/api/assets?stacks=expand") {
			out[a["checksum_sha1"].(string)] = true
		}
		return out
	}
	require.Equal(t, want, assetSums(), "one asset per distinct content")
	albumSizes := func() map[string]int {
		t.Helper()
		out := map[string]int{}
		for _, al := range nativeAll(t, base, token, "/api/albums") {
			out[al["name"].(string)] = int(al["asset_count"].(float64))
		}
		return out
	}
	// A_Trip: 150 + same.jpg + burst.jpg; B_Home: 150 + same.jpg + 3 clips.
	require.Equal(t, map[string]int{"A_Trip": 152, "B_Home": 154}, albumSizes())
	var tags []struct{ ID, Name, Value string }
	immichGet(t, base, key, "/tags", &tags)
	require.Len(t, tags, 1)
	require.Equal(t, "photoctl/first", tags[0].Value)

	// 2. New files into one album with another tag; the others, and the
	// exact duplicate, are known; the bigger burst.jpg of the same time
	// replaces the smaller one, taking over its albums and tags.
	lib.addLater(t)
	upload("--into-album", "Everything", "--tag", "photoctl/second", lib.dir)
	want = lib.contents()
	require.Equal(t, want, assetSums())
	sizes := albumSizes()
	require.Equal(t, map[string]int{"A_Trip": 152, "B_Home": 154, "Everything": len(want)}, sizes)

	// 3. A re-run uploads nothing.
	again := upload("--into-album", "Everything", "--tag", "photoctl/second", lib.dir)
	require.Equal(t, want, assetSums())
	require.Equal(t, sizes, albumSizes())
	require.NotContains(t, again, "uploaded successfully", "nothing is uploaded again")
	immichGet(t, base, key, "/tags", &tags)
	require.Len(t, tags, 2)

	// 4. The archive holds every file byte for byte.
	archive := t.TempDir()
	runImmichGo(t, bin, "archive", "from-immich", "--from-server", base+"/immich", "--from-api-key", key,
		"--write-to-folder", archive)
	require.Equal(t, want, archivedContents(t, archive),
		"immich-go exits 0 even when calls fail (a 429 of the rate limit, a 404): every file must be there")
	s.stop(t)
}
