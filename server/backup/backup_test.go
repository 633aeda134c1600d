package backup_test

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"io"
	"mime/multipart"
	"net/http"
	"os"
	"path/filepath"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/photoctl/photoctl/server/api"
	"github.com/photoctl/photoctl/server/app"
	"github.com/photoctl/photoctl/server/backup"
	"github.com/photoctl/photoctl/server/servertest"
)

// TestBackupWhileUploadingRestoresTheLibrary backs up a seeded library
// while uploads continue, backs it up again (incrementally), restores it
// into an empty data directory, starts a server there and compares every
// asset (by the checksum of its downloaded original), album, person and
// event with the live server.
func TestBackupWhileUploadingRestoresTheLibrary(t *testing.T) {
	servertest.SkipOnPostgres(t, "admin backup snapshots the SQLite file")
	ctx := context.Background()
	dataDir, bdir := t.TempDir(), filepath.Join(t.TempDir(), "backup")
	// With the pipeline: variants are rendered (and copied) meanwhile.
	s := servertest.Start(t, func(c *app.Config) { c.DataDir = dataDir; servertest.WithPipeline(c) })
	u, tok := s.Session()
	lib := s.Libraries(tok)[0].ID
	var before []api.Asset
	for i := range 20 {
		before = append(before, s.UploadAsset(tok, fmt.Sprintf("seed%d.jpg", i), servertest.JPEG(t, 32, 32, i), nil))
	}
	for i := range 2 {
		r := s.Do("POST", "/api/albums", tok, map[string]any{"library_id": lib, "name": fmt.Sprintf("album %d", i)})
		require.Equal(t, http.StatusCreated, r.Status, "%s", r.Body)
		var al api.Album
		r.JSON(t, &al)
		r = s.Do("POST", "/api/albums/"+al.ID+"/assets", tok, map[string]any{"asset_ids": []string{before[i].ID, before[i+5].ID}})
		require.Equal(t, http.StatusOK, r.Status, "%s", r.Body)
		r = s.Do("POST", "/api/people", tok, map[string]any{"library_id": lib, "name": fmt.Sprintf("person %d", i)})
		require.Equal(t, http.StatusCreated, r.Status, "%s", r.Body)
	}

	stop := make(chan struct{})
	var wg sync.WaitGroup
	wg.Add(1)
	go func() { // uploads continue during both backups
		defer wg.Done()
		for i := 100; ; i++ {
			select {
			case <-stop:
				return
			default:
			}
			s.Upload(tok, fmt.Sprintf("live%d.jpg", i), servertest.JPEG(t, 32, 32, i), nil)
		}
	}()
	first, err := backup.Backup(ctx, dataDir, bdir, time.Now())
	require.NoError(t, err)
	require.GreaterOrEqual(t, first.Files, 20)
	second, err := backup.Backup(ctx, dataDir, bdir, time.Now().Add(time.Second))
	require.NoError(t, err)
	close(stop)
	wg.Wait()
	require.GreaterOrEqual(t, second.Reused, 20, "the seeded originals are not copied again")
	require.Less(t, second.Copied, second.Files)
	t.Logf("first backup %+v; second %+v", first, second)

	busy := t.TempDir()
	require.NoError(t, os.WriteFile(filepath.Join(busy, "x"), nil, 0o600))
	_, err = backup.Restore(ctx, bdir, busy)
	require.ErrorIs(t, err, backup.ErrNotEmpty)

	restored := filepath.Join(t.TempDir(), "restored")
	_, err = backup.Restore(ctx, bdir, restored)
	require.NoError(t, err)
	r := servertest.Start(t, func(c *app.Config) { c.DataDir = restored })
	rtok := r.Login(u).AccessToken

	got := servertest.List[api.Asset](r, rtok, "/api/assets?limit=200&state=all")
	live := map[string]api.Asset{}
	for _, a := range servertest.List[api.Asset](s, tok, "/api/assets?limit=200&state=all") {
		live[a.ID] = a
	}
	require.GreaterOrEqual(t, len(got), len(before))
	ids := map[string]bool{}
	for _, a := range got {
		ids[a.ID] = true
		require.Contains(t, live, a.ID, "a restored asset was in the library")
		require.Equal(t, live[a.ID].Checksum, a.Checksum)
		dl := r.Do("GET", "/api/assets/"+a.ID+"/original", rtok, nil)
		require.Equal(t, http.StatusOK, dl.Status)
		sum := sha256.Sum256(dl.Body)
		require.Equal(t, a.Checksum, base64.StdEncoding.EncodeToString(sum[:]), "restored original of %s", a.ID)
	}
	for _, a := range before {
		require.True(t, ids[a.ID], "asset %s acknowledged before the backup is restored", a.ID)
	}
	require.Equal(t, servertest.List[api.Album](s, tok, "/api/albums?limit=200"), servertest.List[api.Album](r, rtok, "/api/albums?limit=200"))
	require.Equal(t, servertest.List[api.Person](s, tok, "/api/people?limit=200&library_id="+lib), servertest.List[api.Person](r, rtok, "/api/people?limit=200&library_id="+lib))
	// The restored feed is the live feed as of the snapshot: a prefix.
	evLive := servertest.List[api.Event](s, tok, "/api/events?limit=200&library_id="+lib)
	evRestored := servertest.List[api.Event](r, rtok, "/api/events?limit=200&library_id="+lib)
	require.NotEmpty(t, evRestored)
	require.Equal(t, evLive[:len(evRestored)], evRestored)
}

// library is a server on a fresh data directory, a signed-in user of it,
// and a fresh directory for its backups.
type library struct {
	s            *servertest.Server
	user         servertest.User
	tok          string
	dataDir, dir string // the library's and the backup's directories
}

func startLibrary(t *testing.T) library {
	t.Helper()
	servertest.SkipOnPostgres(t, "admin backup snapshots the SQLite file")
	l := library{dataDir: t.TempDir(), dir: t.TempDir()}
	l.s = servertest.Start(t, func(c *app.Config) { c.DataDir = l.dataDir })
	l.user, l.tok = l.s.Session()
	return l
}

// oneBackup is a library of one photo and its backup.
type oneBackup struct {
	library
	asset api.Asset
	data  []byte // the photo's bytes
}

// backUpOne starts a library, uploads one photo and backs it up.
func backUpOne(t *testing.T) oneBackup {
	t.Helper()
	b := oneBackup{library: startLibrary(t), data: servertest.JPEG(t, 16, 16, 1)}
	b.asset = b.s.UploadAsset(b.tok, "a.jpg", b.data, nil)
	_, err := backup.Backup(context.Background(), b.dataDir, b.dir, time.Now())
	require.NoError(t, err)
	return b
}

// TestRestoreRefusesADamagedBackup flips a byte of a backed-up original:
// the restore fails, names the file, and leaves the data directory empty.
func TestRestoreRefusesADamagedBackup(t *testing.T) {
	ctx := context.Background()
	b := backUpOne(t)
	p := servertest.BlobFile(t, b.dir, "originals/"+b.asset.ID)
	data, err := os.ReadFile(p)
	require.NoError(t, err)
	data[len(data)/2] ^= 0xff
	require.NoError(t, os.WriteFile(p, data, 0o600))

	target := filepath.Join(t.TempDir(), "d")
	_, err = backup.Restore(ctx, b.dir, target)
	require.ErrorContains(t, err, "originals/"+b.asset.ID)
	require.ErrorContains(t, err, "damaged")
	require.NotContains(t, err.Error(), "read manifest", "the manifest is fine: the file is not")
	entries, err := os.ReadDir(target)
	require.NoError(t, err)
	require.Empty(t, entries, "a failed restore leaves the data directory empty")
}

// sendVersion sends a version's bytes (POST adds, PUT replaces).
func sendVersion(t *testing.T, s *servertest.Server, token, method, path string, data []byte) api.Version {
	t.Helper()
	var body bytes.Buffer
	mw := multipart.NewWriter(&body)
	fw, err := mw.CreateFormFile("file", "edit.jpg")
	require.NoError(t, err)
	_, err = fw.Write(data)
	require.NoError(t, err)
	require.NoError(t, mw.Close())
	req, err := http.NewRequest(method, s.URL+path, &body)
	require.NoError(t, err)
	req.Header.Set("Content-Type", mw.FormDataContentType())
	req.Header.Set("Authorization", "Bearer "+token)
	resp, err := http.DefaultClient.Do(req)
	require.NoError(t, err)
	defer resp.Body.Close()
	out, err := io.ReadAll(resp.Body)
	require.NoError(t, err)
	require.Contains(t, []int{http.StatusOK, http.StatusCreated}, resp.StatusCode, "%s %s: %s", method, path, out)
	var v api.Version
	require.NoError(t, json.Unmarshal(out, &v))
	return v
}

// TestBackupCarriesVersions: added and replaced versions (whose files
// carry a revision suffix) are backed up and restored byte for byte.
func TestBackupCarriesVersions(t *testing.T) {
	ctx := context.Background()
	l := startLibrary(t)
	s, u, tok, dataDir, bdir := l.s, l.user, l.tok, l.dataDir, l.dir
	a := s.UploadAsset(tok, "a.jpg", servertest.JPEG(t, 16, 16, 1), nil)
	base := "/api/assets/" + a.ID + "/versions"
	v1 := sendVersion(t, s, tok, "POST", base, servertest.JPEG(t, 16, 16, 2))
	sendVersion(t, s, tok, "PUT", base+"/"+v1.ID, servertest.JPEG(t, 16, 16, 3)) // revision 1
	sendVersion(t, s, tok, "POST", base, servertest.JPEG(t, 16, 16, 4))
	_, err := backup.Backup(ctx, dataDir, bdir, time.Now())
	require.NoError(t, err)
	m, err := backup.ReadManifest(bdir)
	require.NoError(t, err)
	var keys []string
	for _, f := range m.Files {
		keys = append(keys, f.Key)
	}
	require.Contains(t, keys, "versions/"+a.ID+"/"+v1.ID+".1", "the replaced version's file")
	restored := filepath.Join(t.TempDir(), "r")
	_, err = backup.Restore(ctx, bdir, restored)
	require.NoError(t, err)
	r := servertest.Start(t, func(c *app.Config) { c.DataDir = restored })
	rtok := r.Login(u).AccessToken

	want := servertest.List[api.Version](s, tok, base+"?limit=200")
	require.Len(t, want, 3)
	require.Equal(t, want, servertest.List[api.Version](r, rtok, base+"?limit=200"))
	for _, v := range want {
		live := s.Do("GET", base+"/"+v.ID+"/file", tok, nil)
		got := r.Do("GET", base+"/"+v.ID+"/file", rtok, nil)
		require.Equal(t, http.StatusOK, got.Status, "version %s: %s", v.ID, got.Body)
		require.Equal(t, live.Body, got.Body, "version %s", v.ID)
	}
}

// TestRestoreReadsABackupInTheFlatLayout restores a backup as photoctl
// wrote them before the shard directories (manifest format 1, each blob at
// blobs/<key>): the library comes back whole, its files in the shards.
func TestRestoreReadsABackupInTheFlatLayout(t *testing.T) {
	ctx := context.Background()
	b := backUpOne(t)
	dataDir, bdir, a := b.dataDir, b.dir, b.asset

	// Make it format 1: every blob at its flat place.
	m, err := backup.ReadManifest(bdir)
	require.NoError(t, err)
	require.NotEmpty(t, m.Files)
	for _, f := range m.Files {
		flat := filepath.Join(bdir, "blobs", filepath.FromSlash(f.Key))
		require.NoError(t, os.MkdirAll(filepath.Dir(flat), 0o700))
		require.NoError(t, os.Rename(servertest.BlobFile(t, bdir, f.Key), flat))
	}
	m.Version = 1
	raw, err := json.Marshal(m)
	require.NoError(t, err)
	require.NoError(t, os.WriteFile(filepath.Join(bdir, backup.ManifestName), raw, 0o600))

	target := filepath.Join(t.TempDir(), "d")
	st, err := backup.Restore(ctx, bdir, target)
	require.NoError(t, err)
	require.Equal(t, len(m.Files), st.Files)
	require.FileExists(t, servertest.BlobFile(t, target, "originals/"+a.ID))
	r := servertest.Start(t, func(c *app.Config) { c.DataDir = target })
	dl := r.Do("GET", "/api/assets/"+a.ID+"/original", r.Login(b.user).AccessToken, nil)
	require.Equal(t, http.StatusOK, dl.Status, "%s", dl.Body)
	require.Equal(t, b.data, dl.Body)

	// The next backup into the same directory writes format 2 and leaves
	// no flat copy behind.
	_, err = backup.Backup(ctx, dataDir, bdir, time.Now())
	require.NoError(t, err)
	require.FileExists(t, servertest.BlobFile(t, bdir, "originals/"+a.ID))
	kinds, err := os.ReadDir(filepath.Join(bdir, "blobs"))
	require.NoError(t, err)
	for _, kind := range kinds {
		entries, err := os.ReadDir(filepath.Join(bdir, "blobs", kind.Name()))
		require.NoError(t, err)
		for _, e := range entries {
			require.True(t, e.IsDir() && len(e.Name()) == 2, "only shards in %s: %s", kind.Name(), e.Name())
		}
	}
}

// TestBackupPrunesWhatTheLibraryNoLongerHolds: the backup after an asset's
// deletion removes its file; after a run killed mid-way (its marker, a copy
// no manifest names, temporary and scratch files left), the next removes
// all that too and leaves none of its own scratch files behind; a run with
// nothing new reuses everything.
func TestBackupPrunesWhatTheLibraryNoLongerHolds(t *testing.T) {
	ctx := context.Background()
	b := backUpOne(t)
	s, tok, bdir := b.s, b.tok, b.dir
	goneFile := servertest.BlobFile(t, bdir, "originals/"+b.asset.ID)
	require.FileExists(t, goneFile)
	kept := s.UploadAsset(tok, "kept.jpg", servertest.JPEG(t, 16, 16, 2), nil)
	require.Equal(t, http.StatusOK, s.Do("DELETE", "/api/assets", tok, api.AssetIDs{IDs: []string{b.asset.ID}}).Status)

	second, err := backup.Backup(ctx, b.dataDir, bdir, time.Now())
	require.NoError(t, err)
	require.Equal(t, 1, second.Files)
	require.NoFileExists(t, goneFile)
	keptFile := servertest.BlobFile(t, bdir, "originals/"+kept.ID)
	require.FileExists(t, keptFile)

	stray := servertest.BlobFile(t, bdir, "originals/asset_stray")
	require.NoError(t, os.MkdirAll(filepath.Dir(stray), 0o700))
	for _, p := range []string{stray, filepath.Join(filepath.Dir(keptFile), ".tmp-123"),
		filepath.Join(bdir, ".tmp-photoctl-x.db"), filepath.Join(bdir, ".tmp-previous.db"),
		filepath.Join(bdir, ".tmp-keep.db"), filepath.Join(bdir, ".backup-running")} {
		require.NoError(t, os.WriteFile(p, []byte("left by a killed run"), 0o600))
	}
	_, err = backup.Backup(ctx, b.dataDir, bdir, time.Now())
	require.NoError(t, err)
	require.NoFileExists(t, stray)
	require.NoFileExists(t, filepath.Join(filepath.Dir(keptFile), ".tmp-123"))
	require.FileExists(t, keptFile)
	m, err := backup.ReadManifest(bdir)
	require.NoError(t, err)
	require.Equal(t, []backup.File{{Key: "originals/" + kept.ID, SHA256: hexSHA256(t, s, tok, kept.ID), Size: kept.FileSizeBytes}}, m.Files)
	top, err := os.ReadDir(bdir)
	require.NoError(t, err)
	var names []string
	for _, e := range top {
		names = append(names, e.Name())
	}
	require.ElementsMatch(t, []string{"blobs", backup.ManifestName, m.Database.Key, ".backup-lock"}, names)

	last, err := backup.Backup(ctx, b.dataDir, bdir, time.Now())
	require.NoError(t, err)
	require.Equal(t, backup.Stats{Database: last.Database, Files: 1, Reused: 1, Pruned: 1}, *last,
		"the one file reused, the run before's snapshot pruned")
}

// hexSHA256 downloads the original of asset id and returns its SHA-256 in hex.
func hexSHA256(t *testing.T, s *servertest.Server, tok, id string) string {
	t.Helper()
	r := s.Do("GET", "/api/assets/"+id+"/original", tok, nil)
	require.Equal(t, http.StatusOK, r.Status)
	sum := sha256.Sum256(r.Body)
	return fmt.Sprintf("%x", sum)
}

// TestProgressReachesTheTotal: a backup reports its rows (an asset or a
// version each) up to the total, a restore the bytes of the manifest it
// has read, both never going back.
func TestProgressReachesTheTotal(t *testing.T) {
	ctx := context.Background()
	l := startLibrary(t)
	a := l.s.UploadAsset(l.tok, "a.jpg", servertest.JPEG(t, 16, 16, 1), nil)
	l.s.UploadAsset(l.tok, "b.jpg", servertest.JPEG(t, 16, 16, 2), nil)
	sendVersion(t, l.s, l.tok, "POST", "/api/assets/"+a.ID+"/versions", servertest.JPEG(t, 16, 16, 3))

	type report struct{ done, total int64 }
	record := func(into *[]report) backup.Option {
		return backup.WithProgress(func(done, total int64) { *into = append(*into, report{done, total}) })
	}
	var backedUp, restored []report
	_, err := backup.Backup(ctx, l.dataDir, l.dir, time.Now(), record(&backedUp))
	require.NoError(t, err)
	require.Equal(t, []report{{0, 3}, {1, 3}, {2, 3}, {3, 3}}, backedUp)

	st, err := backup.Restore(ctx, l.dir, filepath.Join(t.TempDir(), "r"), record(&restored))
	require.NoError(t, err)
	require.Len(t, restored, st.Files)
	fi, err := os.Stat(filepath.Join(l.dir, backup.ManifestName))
	require.NoError(t, err)
	for i, r := range restored {
		require.Equal(t, fi.Size(), r.total)
		require.Positive(t, r.done)
		require.LessOrEqual(t, r.done, r.total)
		if i > 0 {
			require.Greater(t, r.done, restored[i-1].done)
		}
	}
}

// TestOneBackupWritesIntoADirectoryAtATime: while a backup holds the
// directory (its flock), another backup and a restore from it are refused
// with ErrBusy and change nothing; once it lets go, both run.
func TestOneBackupWritesIntoADirectoryAtATime(t *testing.T) {
	ctx := context.Background()
	b := backUpOne(t)
	lock, err := os.OpenFile(filepath.Join(b.dir, ".backup-lock"), os.O_RDWR, 0)
	require.NoError(t, err)
	require.NoError(t, syscall.Flock(int(lock.Fd()), syscall.LOCK_EX))
	before, err := backup.ReadManifest(b.dir)
	require.NoError(t, err)

	_, err = backup.Backup(ctx, b.dataDir, b.dir, time.Now())
	require.ErrorIs(t, err, backup.ErrBusy)
	target := filepath.Join(t.TempDir(), "r")
	_, err = backup.Restore(ctx, b.dir, target)
	require.ErrorIs(t, err, backup.ErrBusy)
	require.NoDirExists(t, target, "a refused restore creates nothing")
	after, err := backup.ReadManifest(b.dir)
	require.NoError(t, err)
	require.Equal(t, before, after)

	require.NoError(t, lock.Close())
	_, err = backup.Backup(ctx, b.dataDir, b.dir, time.Now())
	require.NoError(t, err)
	_, err = backup.Restore(ctx, b.dir, target)
	require.NoError(t, err)
}
