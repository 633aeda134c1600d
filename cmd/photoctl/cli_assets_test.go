package main

import (
	"crypto/sha256"
	"encoding/base64"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/photoctl/photoctl/cmd/photoctl/internal/clientcmd/assets"
	"github.com/photoctl/photoctl/server/api"
	"github.com/photoctl/photoctl/server/servertest"
)

// uploaded uploads n distinct photos with env and returns their assets,
// newest capture first as ls lists them.
func uploaded(t *testing.T, cs *cliServer, env []string, n int) []api.Asset {
	t.Helper()
	names := make([]string, n)
	for i := range names {
		names[i] = string(rune('a'+i)) + ".jpg"
	}
	r := cs.ok(t, "", env, "upload", photoTree(t, names, nil))
	r = cs.ok(t, "", env, "ls", "--all", "--json")
	assets := decode[[]api.Asset](t, r)
	require.Len(t, assets, n)
	return assets
}

func TestCLIListGetEditTrashRestoreRemove(t *testing.T) {
	t.Parallel()
	cs := newCLIServer(t)
	cs.login(t)
	assets := uploaded(t, cs, nil, 3)
	id := assets[0].ID

	r := cs.ok(t, "", nil, "ls")
	lines := strings.Split(strings.TrimSpace(r.stdout), "\n")
	require.Len(t, lines, 4, "a header and a row per asset: %s", r.stdout)
	require.True(t, strings.HasPrefix(lines[0], "ID  "), r.stdout)
	require.NotContains(t, r.stdout, "\x1b[", "no colour when piped")

	r = cs.run(t, "", nil, "ls", "--limit", "2", "--json")
	require.Len(t, decode[[]api.Asset](t, r), 2)

	r = cs.ok(t, "", nil, "edit", "--rating", "5", "--description", "first day", id)
	require.Contains(t, r.stdout, "first day")
	r = cs.run(t, "", nil, "get", "--json", id)
	got := decode[api.Asset](t, r)
	require.Equal(t, 5.0, *got.Metadata.Rating)
	r = cs.run(t, "", nil, "ls", "--min-rating", "4", "--json")
	require.Len(t, decode[[]api.Asset](t, r), 1)
	r = cs.ok(t, "", nil, "edit", "--clear", "rating", id)
	r = cs.run(t, "", nil, "edit", "--rating", "9", id)
	require.Equal(t, exitUsage, r.code, "the server refuses a rating of 9: %s", r.stderr)
	r = cs.run(t, "", nil, "edit", id)
	require.Equal(t, exitUsage, r.code)
	require.Contains(t, r.stderr, "nothing to change")

	r = cs.ok(t, "", nil, "trash", "--json", id, assets[1].ID)
	require.Len(t, decode[map[string][]string](t, r)["ids"], 2)
	r = cs.run(t, "", nil, "ls", "--state", "trashed", "--json")
	require.Len(t, decode[[]api.Asset](t, r), 2)
	r = cs.ok(t, assets[1].ID+"\n", nil, "restore", "-")
	require.Contains(t, r.stdout, "Restored 1 asset")

	// rm asks; anything but yes keeps the asset.
	r = cs.run(t, "n\n", nil, "rm", id)
	require.Equal(t, exitFailure, r.code)
	require.Contains(t, r.stderr, "Permanently delete 1 asset")
	cs.ok(t, "", nil, "get", id)
	r = cs.ok(t, "", nil, "rm", "--yes", id)
	r = cs.run(t, "", nil, "get", id)
	require.Equal(t, exitFailure, r.code)
	require.Contains(t, r.stderr, "404")
	r = cs.run(t, id+"\n", nil, "rm", "-")
	require.Equal(t, exitUsage, r.code, "ids on stdin need --yes")
}

func TestCLIBulkEditFromCSVRejectsTheBatchOfAnInvalidRow(t *testing.T) {
	t.Parallel()
	cs := newCLIServer(t)
	env := cs.keyEnv(t)
	a := uploaded(t, cs, env, 4)
	csv := "id,rating,description\n" +
		a[0].ID + ",4,\n" +
		a[1].ID + ",,\"kept, with a comma\"\n" +
		a[2].ID + ",9,out of range\n" + // the server refuses it: its batch fails whole
		a[3].ID + ",2,\n"
	file := filepath.Join(t.TempDir(), "edits.csv")
	writeFile(t, file, []byte(csv))

	r := cs.ok(t, "", env, "bulk-edit", "--dry-run", "--batch-size", "2", file)
	require.Contains(t, r.stdout, a[0].ID+"  rating: (none) → 4")
	require.Contains(t, r.stdout, `description: (none) → "kept, with a comma"`)

	r = cs.run(t, "", env, "bulk-edit", "--batch-size", "2", "--json", file)
	require.Equal(t, exitPartial, r.code, r.stderr)
	out := decode[assets.BulkEditJSON](t, r)
	require.Equal(t, 2, out.Updated)
	require.Equal(t, 2, out.Rejected)
	require.Equal(t, "applied", out.Batches[0].Status)
	require.Equal(t, "rejected", out.Batches[1].Status)
	require.Equal(t, 4, out.Batches[1].Errors[0].Line, "the error points at the CSV line")
	require.Equal(t, a[2].ID, out.Batches[1].Errors[0].ID)
	require.Contains(t, out.Batches[1].Errors[0].Message, "rating")

	rating := func(id string) any {
		r := cs.run(t, "", env, "get", "--json", id)
		got := decode[api.Asset](t, r)
		if got.Metadata.Rating == nil {
			return nil
		}
		return *got.Metadata.Rating
	}
	require.Equal(t, 4.0, rating(a[0].ID))
	require.Nil(t, rating(a[2].ID))
	require.Nil(t, rating(a[3].ID), "the valid row of the rejected batch was not applied either")

	// A row the CLI cannot parse is not sent, with the same effect.
	writeFile(t, file, []byte("id,rating\n"+a[3].ID+",two\n"))
	r = cs.run(t, "", env, "bulk-edit", file)
	require.Equal(t, exitUsage, r.code, r.stderr)
	require.Contains(t, r.stdout, "line 2 ("+a[3].ID+`): rating "two" is not a whole number`)
}

func TestCLIBulkEditFromJSONLAndByFilter(t *testing.T) {
	t.Parallel()
	cs := newCLIServer(t)
	env := cs.keyEnv(t)
	a := uploaded(t, cs, env, 3)
	var lines []string
	for _, x := range a[:2] {
		b, _ := json.Marshal(map[string]any{"id": x.ID, "latitude": 48.8584, "longitude": 2.2945})
		lines = append(lines, string(b))
	}
	r := cs.ok(t, strings.Join(lines, "\n")+"\n", env, "bulk-edit", "--format", "jsonl", "-")
	require.Contains(t, r.stdout, "Updated 2 asset(s)")
	r = cs.run(t, "", env, "ls", "--bbox", "2.2,48.8,2.4,48.9", "--json")
	require.Len(t, decode[[]api.Asset](t, r), 2)

	r = cs.run(t, "", env, "bulk-edit", "--rating", "3")
	require.Equal(t, exitUsage, r.code, "no filter and no --all-assets")
	r = cs.ok(t, "", env, "bulk-edit", "--bbox", "2.2,48.8,2.4,48.9", "--rating", "3")
	r = cs.run(t, "", env, "ls", "--min-rating", "3", "--json")
	require.Len(t, decode[[]api.Asset](t, r), 2)
}

func TestCLIDownloadVerifiesAndResumes(t *testing.T) {
	t.Parallel()
	cs := newCLIServer(t)
	env := cs.keyEnv(t)
	a := uploaded(t, cs, env, 3)
	out := t.TempDir()

	r := cs.ok(t, "", env, "export", "--by-date", "-o", out, "--json")
	results := decode[[]assets.DownloadResult](t, r)
	require.Len(t, results, 3)
	for _, res := range results {
		require.Equal(t, "downloaded", res.Status)
		data, err := os.ReadFile(res.Path)
		require.NoError(t, err)
		sum := sha256.Sum256(data)
		var asset api.Asset
		for _, x := range a {
			if x.ID == res.ID {
				asset = x
			}
		}
		require.Equal(t, asset.Checksum, base64.StdEncoding.EncodeToString(sum[:]))
		require.Equal(t, filepath.Join(out, asset.LocalDatetime[0:4], asset.LocalDatetime[5:7], asset.LocalDatetime[8:10],
			asset.OriginalFileName), res.Path)
	}

	// Run again: everything is there and verified. Then leave a partial
	// file as an interrupted run would, and resume it.
	r = cs.ok(t, "", env, "export", "--by-date", "-o", out)
	require.Contains(t, r.stdout, "Matched 3 asset(s); downloaded 0 file(s) (0 B), 3 already there")
	target := results[0].Path
	data, err := os.ReadFile(target)
	require.NoError(t, err)
	require.NoError(t, os.Remove(target))
	part := filepath.Join(filepath.Dir(target), "."+filepath.Base(target)+"."+results[0].ID+".part")
	writeFile(t, part, data[:len(data)/2])
	r = cs.ok(t, "", env, "download", "-o", filepath.Dir(target), "--json", results[0].ID)
	res := decode[[]assets.DownloadResult](t, r)
	require.Equal(t, int64(len(data)-len(data)/2), res[0].Bytes, "only the rest was fetched")
	again, err := os.ReadFile(target)
	require.NoError(t, err)
	require.Equal(t, data, again)
	_, err = os.Stat(part)
	require.ErrorIs(t, err, os.ErrNotExist)
}

func TestCLIKeysAndEvents(t *testing.T) {
	t.Parallel()
	cs := newCLIServer(t)
	cs.login(t)
	r := cs.ok(t, "", nil, "keys", "create", "--action", "asset.read", "--action", "event.read", "--json", "reader")
	key := decode[api.APIKeyCreated](t, r)
	require.True(t, strings.HasPrefix(key.Secret, "apikey_"))
	r = cs.run(t, "", nil, "keys", "create", "--action", "asset.nope", "x")
	require.Equal(t, exitUsage, r.code)

	keyEnv := []string{"PHOTOCTL_SERVER=" + cs.URL, "PHOTOCTL_API_KEY=" + key.Secret}
	uploaded(t, cs, nil, 1)
	r = cs.ok(t, "", keyEnv, "ls", "--json")
	r = cs.run(t, "", keyEnv, "upload", photoTree(t, nil, map[string][]byte{"x.jpg": servertest.JPEG(t, 24, 24, 5)}))
	require.Equal(t, exitAuth, r.code, "a read-only key cannot upload: %s", r.stderr)
	r = cs.run(t, "", keyEnv, "keys", "list")
	require.Equal(t, exitAuth, r.code, "keys are managed with a session only")

	r = cs.ok(t, "", keyEnv, "events", "tail", "--json")
	var types []string
	for _, line := range strings.Split(strings.TrimSpace(r.stdout), "\n") {
		var e api.Event
		require.NoError(t, json.Unmarshal([]byte(line), &e))
		types = append(types, e.Type)
	}
	require.Contains(t, types, "asset.created")

	r = cs.run(t, "", nil, "keys", "list", "--json")
	keys := decode[[]api.APIKey](t, r)
	require.Len(t, keys, 1)
	r = cs.ok(t, "", nil, "keys", "delete", key.ID)
	r = cs.run(t, "", keyEnv, "ls")
	require.Equal(t, exitAuth, r.code, "a revoked key is refused")
}

func TestCLIBashCompletionOffersTheNewCommands(t *testing.T) {
	t.Parallel()
	bin := photoctlBinary(t)
	env := append(binaryEnv(t), "PATH="+filepath.Dir(bin)+":"+os.Getenv("PATH"))
	r := runBinary(t, env, "", "--generate-bash-completion")
	for _, cmd := range []string{"upload", "ls", "bulk-edit", "download", "login", "keys"} {
		require.Contains(t, strings.Fields(r.stdout), cmd)
	}
	require.NotContains(t, strings.Fields(r.stdout), "import", "hidden synonyms are not offered")
}
