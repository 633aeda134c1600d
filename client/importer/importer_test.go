package importer_test

import (
	"context"
	"net/http"
	"os"
	"path/filepath"
	"sync/atomic"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/photoctl/photoctl/client"
	"github.com/photoctl/photoctl/client/importer"
	"github.com/photoctl/photoctl/server/servertest"
)

// newClient returns a session client for a new user of s; wrap, when set,
// wraps its HTTP transport.
func newClient(t *testing.T, s *servertest.Server, wrap func(http.RoundTripper) http.RoundTripper) *client.Client {
	t.Helper()
	_, token := s.Session()
	opts := client.Options{Server: s.URL, Session: client.NewMemoryTokens(client.Tokens{AccessToken: token})}
	if wrap != nil {
		opts.HTTPClient = &http.Client{Transport: wrap(http.DefaultTransport)}
	}
	c, err := client.New(opts)
	require.NoError(t, err)
	return c
}

// tree writes files (path -> content) below a new folder and returns it.
func tree(t *testing.T, files map[string][]byte) string {
	t.Helper()
	dir := t.TempDir()
	for name, data := range files {
		path := filepath.Join(dir, filepath.FromSlash(name))
		require.NoError(t, os.MkdirAll(filepath.Dir(path), 0o755))
		require.NoError(t, os.WriteFile(path, data, 0o644))
	}
	return dir
}

func run(t *testing.T, c *client.Client, opts importer.Options) (*importer.Summary, importer.Progress) {
	t.Helper()
	im, err := importer.New(c, opts)
	require.NoError(t, err)
	sum, err := im.Run(context.Background())
	require.NoError(t, err)
	return sum, im.Progress()
}

// byPath indexes results by path relative to dir.
func byPath(t *testing.T, dir string, sum *importer.Summary) map[string]importer.Result {
	t.Helper()
	out := map[string]importer.Result{}
	for _, r := range sum.Results {
		rel, err := filepath.Rel(dir, r.Path)
		require.NoError(t, err)
		out[filepath.ToSlash(rel)] = r
	}
	return out
}

func TestImportSortsEveryFileIntoNewDuplicateSkippedFailed(t *testing.T) {
	s := servertest.Start(t)
	c := newClient(t, s, nil)
	a := servertest.JPEG(t, 32, 32, 1)
	already := servertest.JPEG(t, 32, 32, 2)
	dir := tree(t, map[string][]byte{
		"a.jpg":         a,
		"copy-of-a.JPG": a,
		"held.jpg":      already,
		"sub/c.jpg":     servertest.JPEG(t, 32, 32, 3),
		"sub/c.jpg.xmp": []byte(`<x:xmpmeta xmlns:x="adobe:ns:meta/"/>`),
		"notes.txt":     []byte("hello"),
		"broken.jpg":    []byte("this is not a JPEG"),
		".hidden/d.jpg": servertest.JPEG(t, 32, 32, 4),
		"skip/e.jpg":    servertest.JPEG(t, 32, 32, 5),
	})
	// The library already holds held.jpg's bytes.
	held := tree(t, map[string][]byte{"held.jpg": already})
	first, _ := run(t, c, importer.Options{Paths: []string{held}})
	require.Equal(t, 1, first.New)

	sum, p := run(t, c, importer.Options{Paths: []string{dir}, Recursive: true, Exclude: []string{"skip/**"},
		DeviceID: "test", CacheDir: t.TempDir()})
	got := byPath(t, dir, sum)
	// Of two files with the same bytes, whichever is hashed first is sent.
	sent, kept := got["a.jpg"], got["copy-of-a.JPG"]
	if sent.Status != importer.StatusNew {
		sent, kept = kept, sent
	}
	require.Equal(t, importer.StatusNew, sent.Status)
	require.Equal(t, importer.StatusDuplicate, kept.Status)
	require.Contains(t, kept.Reason, "same content as")
	require.Equal(t, importer.StatusDuplicate, got["held.jpg"].Status)
	require.Equal(t, first.Results[0].AssetID, got["held.jpg"].AssetID)
	require.Equal(t, importer.StatusNew, got["sub/c.jpg"].Status)
	require.NotEmpty(t, got["sub/c.jpg"].Sidecar)
	require.Equal(t, importer.StatusSkipped, got["notes.txt"].Status)
	require.Equal(t, importer.StatusSkipped, got["skip/e.jpg"].Status)
	require.Equal(t, importer.StatusFailed, got["broken.jpg"].Status)
	require.NotEmpty(t, got["broken.jpg"].Reason)
	require.NotContains(t, got, ".hidden/d.jpg")
	require.Equal(t, []int{2, 2, 2, 1}, []int{sum.New, sum.Duplicate, sum.Skipped, sum.Failed})
	require.Equal(t, p.Found, p.Done)
	require.Equal(t, p.FoundBytes, p.DoneBytes)
	require.Equal(t, int64(len(a))+int64(len(servertest.JPEG(t, 32, 32, 3)))+int64(len("this is not a JPEG")), sum.SentBytes)
}

func TestSecondRunOverAnUnchangedFolderHashesNothing(t *testing.T) {
	s := servertest.Start(t)
	c := newClient(t, s, nil)
	files := map[string][]byte{}
	for i := range 20 {
		files[filepath.Join("y", string(rune('a'+i))+".jpg")] = servertest.JPEG(t, 16, 16, 100+i)
	}
	dir := tree(t, files)
	cache := t.TempDir()
	opts := importer.Options{Paths: []string{dir}, Recursive: true, CacheDir: cache}
	sum, _ := run(t, c, opts)
	require.Equal(t, 20, sum.New)
	require.Equal(t, int64(20), sum.Hashed)

	sum, _ = run(t, c, opts)
	require.Equal(t, 20, sum.Duplicate)
	require.Equal(t, int64(0), sum.Hashed, "every checksum came from the index")

	// A changed file is hashed again, and uploaded.
	changed := filepath.Join(dir, "y", "a.jpg")
	require.NoError(t, os.WriteFile(changed, servertest.JPEG(t, 16, 16, 999), 0o644))
	sum, _ = run(t, c, opts)
	require.Equal(t, int64(1), sum.Hashed)
	require.Equal(t, 1, sum.New)
}

func TestDryRunSendsNothing(t *testing.T) {
	s := servertest.Start(t)
	c := newClient(t, s, nil)
	dir := tree(t, map[string][]byte{"a.jpg": servertest.JPEG(t, 16, 16, 1), "b.jpg": servertest.JPEG(t, 16, 16, 2)})
	sum, _ := run(t, c, importer.Options{Paths: []string{dir}, DryRun: true})
	require.True(t, sum.DryRun)
	require.Equal(t, 2, sum.New)
	require.Zero(t, sum.SentBytes)
	sum, _ = run(t, c, importer.Options{Paths: []string{dir}})
	require.Equal(t, 2, sum.New, "the dry run stored nothing")
}

func TestAnAmbiguousLibraryStopsTheRunBeforeAnyUpload(t *testing.T) {
	s := servertest.Start(t)
	c := newClient(t, s, nil)
	_, _, err := c.CreateLibrary(context.Background(), "Second")
	require.NoError(t, err)
	dir := tree(t, map[string][]byte{"a.jpg": servertest.JPEG(t, 16, 16, 1)})
	im, err := importer.New(c, importer.Options{Paths: []string{dir}})
	require.NoError(t, err)
	_, err = im.Run(context.Background())
	require.ErrorIs(t, err, client.ErrInvalid)
	require.ErrorContains(t, err, "library_id")

	libs, err := client.Collect(c.Libraries(context.Background()))
	require.NoError(t, err)
	sum, _ := run(t, c, importer.Options{Paths: []string{dir}, LibraryID: libs[0].ID})
	require.Equal(t, 1, sum.New)
}

// cancelAfterUploads cancels ctx when the nth upload request is sent, the
// way Ctrl-C would in the middle of a run.
type cancelAfterUploads struct {
	next   http.RoundTripper
	n      int32
	seen   atomic.Int32
	cancel context.CancelFunc
}

func (c *cancelAfterUploads) RoundTrip(r *http.Request) (*http.Response, error) {
	if r.Method == "POST" && r.URL.Path == "/api/assets" && c.seen.Add(1) == c.n {
		c.cancel()
	}
	return c.next.RoundTrip(r)
}

func TestAnInterruptedRunResumesWithoutDuplicates(t *testing.T) {
	s := servertest.Start(t)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	rt := &cancelAfterUploads{n: 3, cancel: cancel}
	c := newClient(t, s, func(next http.RoundTripper) http.RoundTripper { rt.next = next; return rt })
	files := map[string][]byte{}
	for i := range 12 {
		files[string(rune('a'+i))+".jpg"] = servertest.JPEG(t, 16, 16, 200+i)
	}
	dir := tree(t, files)
	cache := t.TempDir()
	opts := importer.Options{Paths: []string{dir}, CacheDir: cache, Jobs: 1}
	im, err := importer.New(c, opts)
	require.NoError(t, err)
	sum, err := im.Run(ctx)
	require.ErrorIs(t, err, importer.ErrInterrupted)
	require.True(t, sum.Interrupted)
	require.Less(t, sum.New, 12)

	rt.n = -1 // no more cancelling
	sum2, _ := run(t, c, opts)
	require.Equal(t, 12, sum.New+sum2.New, "each file uploaded once")
	all, err := client.Collect(c.Assets(context.Background(), client.AssetQuery{}, 0))
	require.NoError(t, err)
	require.Len(t, all, 12)
}

func TestBadGlobIsRefused(t *testing.T) {
	_, err := importer.New(nil, importer.Options{Paths: []string{"."}, Include: []string{"[abc"}})
	require.ErrorContains(t, err, "unclosed")
}

func TestAlbumFromFolderPutsEachFileInItsFolderAlbum(t *testing.T) {
	s := servertest.Start(t)
	c := newClient(t, s, nil)
	dir := tree(t, map[string][]byte{
		"Paris/a.jpg":  servertest.JPEG(t, 16, 16, 1),
		"Paris/b.jpg":  servertest.JPEG(t, 16, 16, 2),
		"Rome/c.jpg":   servertest.JPEG(t, 16, 16, 3),
		"Rome/x/d.jpg": servertest.JPEG(t, 16, 16, 4),
	})
	sum, _ := run(t, c, importer.Options{Paths: []string{dir}, Recursive: true, AlbumFromFolder: true})
	got := map[string]int{}
	for _, a := range sum.Albums {
		got[a.Name] = a.Added
	}
	require.Equal(t, map[string]int{"Paris": 2, "Rome": 1, "x": 1}, got)

	// Again, into one album: the files the library holds are added too.
	sum, _ = run(t, c, importer.Options{Paths: []string{dir}, Recursive: true, Album: "Italy and France"})
	require.Equal(t, 4, sum.Duplicate)
	require.Len(t, sum.Albums, 1)
	album, err := c.Album(context.Background(), sum.Albums[0].ID)
	require.NoError(t, err)
	require.Equal(t, 4, album.AssetCount)
}
