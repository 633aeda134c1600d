package main

import (
	"context"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/photoctl/photoctl/client/importer"
	"github.com/photoctl/photoctl/cmd/photoctl/internal/clientcmd/assets"
	"github.com/photoctl/photoctl/server/api"
	"github.com/photoctl/photoctl/server/servertest"
)

// statuses maps each file below dir to its outcome.
func statuses(t *testing.T, dir string, out assets.UploadJSON) map[string]importer.Status {
	t.Helper()
	m := map[string]importer.Status{}
	for _, f := range out.Files {
		rel, err := filepath.Rel(dir, f.Path)
		require.NoError(t, err)
		m[filepath.ToSlash(rel)] = f.Status
	}
	return m
}

func TestCLIUploadSortsDuplicatesFailuresAndSkips(t *testing.T) {
	t.Parallel()
	cs := newCLIServer(t)
	cs.login(t)
	same := servertest.JPEG(t, 24, 24, 7)
	dir := photoTree(t, []string{"2024/a.jpg", "2024/b.jpg", "2024/raw/c.jpg"}, map[string][]byte{
		"2024/a-copy.jpg": same,
		"2024/z-same.jpg": same,
		"2024/broken.jpg": []byte("not really a photo"),
		"2024/notes.txt":  []byte("hello"),
		"2024/b.jpg.xmp":  []byte(`<x:xmpmeta xmlns:x="adobe:ns:meta/"/>`),
		"2024/skip/d.jpg": servertest.JPEG(t, 24, 24, 8),
	})

	r := cs.run(t, "", nil, "upload", "--recursive", "--exclude", "skip", "--json", dir)
	require.Equal(t, exitPartial, r.code, "one file failed, the rest went through: %s", r.stderr)
	out := decode[assets.UploadJSON](t, r)
	st := statuses(t, dir, out)
	require.Equal(t, importer.StatusNew, st["2024/a.jpg"])
	require.Equal(t, importer.StatusNew, st["2024/raw/c.jpg"])
	require.Equal(t, importer.StatusFailed, st["2024/broken.jpg"])
	require.Equal(t, importer.StatusSkipped, st["2024/notes.txt"])
	require.Equal(t, importer.StatusSkipped, st["2024/skip"], "an excluded folder is reported once")
	require.ElementsMatch(t, []importer.Status{importer.StatusNew, importer.StatusDuplicate},
		[]importer.Status{st["2024/a-copy.jpg"], st["2024/z-same.jpg"]}, "one copy is sent, the other never")
	require.Equal(t, []int{4, 1, 2, 1}, []int{out.New, out.Duplicate, out.Skipped, out.Failed})

	// The human summary says the same, with the reasons.
	r = cs.run(t, "", nil, "upload", "-r", "--exclude", "skip", dir)
	require.Equal(t, exitPartial, r.code, r.stderr)
	require.Contains(t, r.stdout, "Uploaded 0 new")
	require.Contains(t, r.stdout, "5 duplicate")
	require.Contains(t, r.stdout, "not a photo or video")
	require.Contains(t, r.stdout, "broken.jpg: ")
}

func TestCLIUploadRerunIsIncremental(t *testing.T) {
	t.Parallel()
	cs := newCLIServer(t)
	env := cs.keyEnv(t)
	dir := photoTree(t, []string{"a.jpg", "b.jpg", "sub/c.jpg"}, nil)

	r := cs.ok(t, "", env, "import", "-r", "--json", dir)
	first := decode[assets.UploadJSON](t, r)
	require.Equal(t, 3, first.New)
	require.Equal(t, int64(3), first.Hashed)

	r = cs.ok(t, "", env, "upload", "-r", "--json", dir)
	again := decode[assets.UploadJSON](t, r)
	require.Equal(t, 3, again.Duplicate)
	require.Zero(t, again.Hashed, "an unchanged folder is not read again")
	require.Zero(t, again.SentBytes)

	writeFile(t, filepath.Join(dir, "sub", "d.jpg"), servertest.JPEG(t, 24, 24, 99))
	r = cs.ok(t, "", env, "upload", "-r", "--json", dir)
	third := decode[assets.UploadJSON](t, r)
	require.Equal(t, 1, third.New)
	require.Equal(t, int64(1), third.Hashed)

	r = cs.ok(t, "", env, "upload", "-r", "--dry-run", dir)
	require.Contains(t, r.stdout, "Dry run: would upload 0 new")
}

func TestCLIUploadNeedsALibraryWhenThereAreSeveral(t *testing.T) {
	t.Parallel()
	cs := newCLIServer(t)
	cs.login(t)
	r := cs.ok(t, "", nil, "libraries", "create", "Travel")
	dir := photoTree(t, []string{"a.jpg"}, nil)
	r = cs.run(t, "", nil, "upload", dir)
	require.Equal(t, exitUsage, r.code, r.stderr)
	require.Contains(t, r.stderr, "--library", "the 422 becomes a hint")
	r = cs.ok(t, "", nil, "upload", "--library", "travel", dir)
	r = cs.ok(t, "", nil, "ls", "--library", "Travel", "--json")
	require.Len(t, decode[[]api.Asset](t, r), 1)
}

func TestCLIUploadInterruptedResumes(t *testing.T) {
	servertest.SkipStoreNeutralOnPostgres(t, "the client's resume")
	t.Parallel()
	cs := newCLIServer(t)
	env := cs.keyEnv(t)
	names := make([]string, 150)
	for i := range names {
		names[i] = filepath.Join("burst", strings.Repeat("x", i%3)+string(rune('a'+i%26))+"-"+time.Duration(i).String()+".jpg")
	}
	dir := photoTree(t, names, nil)
	token := cs.Login(cs.user).AccessToken

	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, photoctlBinary(t), "upload", "-r", "-j", "1", dir)
	cmd.Env = append(append([]string{}, cs.env...), env...)
	var out syncBuffer
	cmd.Stdout, cmd.Stderr = &out, &out
	require.NoError(t, cmd.Start())
	// Interrupt once the first files are on the server.
	deadline := time.Now().Add(time.Minute)
	for time.Now().Before(deadline) {
		if len(servertest.List[api.Asset](cs.Server, token, "/api/assets?limit=5")) >= 5 {
			break
		}
		time.Sleep(20 * time.Millisecond)
	}
	require.NoError(t, cmd.Process.Signal(syscall.SIGINT))
	err := cmd.Wait()
	require.Error(t, err, "output: %s", out.String())
	require.Equal(t, exitFailure, cmd.ProcessState.ExitCode(), out.String())
	require.Contains(t, out.String(), "run the same command again to resume")

	r := cs.ok(t, "", env, "upload", "-r", "--json", dir)
	second := decode[assets.UploadJSON](t, r)
	require.Equal(t, 150, second.New+second.Duplicate)
	require.Less(t, second.Hashed, int64(150), "files hashed before the interruption come from the index")
	r = cs.run(t, "", env, "ls", "--all", "--json")
	require.Len(t, decode[[]api.Asset](t, r), 150, "every file once")
}

func TestCLIUploadAlbumFromFolder(t *testing.T) {
	t.Parallel()
	cs := newCLIServer(t)
	env := cs.keyEnv(t)
	dir := photoTree(t, []string{"Trips/Lisbon/a.jpg", "Trips/Lisbon/b.jpg", "Trips/Porto/c.jpg"}, nil)
	r := cs.ok(t, "", env, "upload", "-r", "--album-from-folder", "--json", filepath.Join(dir, "Trips"))
	out := decode[assets.UploadJSON](t, r)
	added := map[string]int{}
	for _, a := range out.Albums {
		added[a.Name] = a.Added
	}
	require.Equal(t, map[string]int{"Lisbon": 2, "Porto": 1}, added)
	token := cs.Login(cs.user).AccessToken
	albums := servertest.List[api.Album](cs.Server, token, "/api/albums")
	require.Len(t, albums, 2)

	r = cs.ok(t, "", env, "upload", "-r", "--album", "Portugal", filepath.Join(dir, "Trips"))
	require.Contains(t, r.stdout, `Album "Portugal"`)
	require.Contains(t, r.stdout, "3 added")
}
