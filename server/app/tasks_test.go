package app_test

import (
	"context"
	"io"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/photoctl/photoctl/server/api"
	"github.com/photoctl/photoctl/server/app"
	"github.com/photoctl/photoctl/server/blob/s3test"
	"github.com/photoctl/photoctl/server/query"
	"github.com/photoctl/photoctl/server/servertest"
	"github.com/photoctl/photoctl/server/store"
)

// TestServeRequeuesTasksADeadWorkerLeftRunningWhenAlone: tasks a killed
// worker left running (live-looking leases) stay running while the worker
// may still be alive — on SQLite while another process shares the data
// directory; on PostgreSQL, where workers may run on other hosts, while
// the worker holds its presence (store.TaskPresence) — and go back to the
// queue when serve starts once it is gone.
func TestServeRequeuesTasksADeadWorkerLeftRunningWhenAlone(t *testing.T) {
	dir := t.TempDir()
	noWorkers := func(c *app.Config) { c.DataDir, c.Workers.Concurrency = dir, 0 }
	s := servertest.Start(t, noWorkers)
	u := s.CreateUser()
	session := s.Login(u).AccessToken
	s.UploadAsset(session, "a.jpg", servertest.JPEG(t, 8, 8, 1), nil)
	s.UploadAsset(session, "b.jpg", servertest.JPEG(t, 8, 8, 2), nil)
	shutdown(t, s)

	// A worker claims both, then is killed: its leases run for an hour.
	st, err := app.OpenStore(t.Context(), s.Config)
	require.NoError(t, err)
	now := time.Now()
	for range 2 {
		require.NoError(t, st.InTx(t.Context(), func(r store.Repos) error {
			_, err := r.Tasks().Claim(t.Context(), query.Claim{Kinds: map[string]int{"metadata": 5}, Lease: "dead#1",
				Now: now, LeaseUntil: now.Add(time.Hour)})
			return err
		}))
	}
	require.NoError(t, st.Close())

	// Another process holds the data directory (and, on PostgreSQL, the
	// worker its presence): serve must not take over.
	lock, err := os.OpenFile(filepath.Join(dir, "photoctl.lock"), os.O_RDWR, 0)
	require.NoError(t, err)
	require.NoError(t, syscall.Flock(int(lock.Fd()), syscall.LOCK_SH))
	release := func() {}
	if servertest.Postgres() {
		release = holdPresence(t, s.Config, "dead")
		defer release()
	}
	s = servertest.Start(t, noWorkers)
	session = s.Login(u).AccessToken
	for _, task := range servertest.List[api.Task](s, session, "/api/tasks") {
		require.Equal(t, "running", task.State)
	}
	shutdown(t, s)
	require.NoError(t, lock.Close())
	release() // the worker is gone

	s = servertest.Start(t, noWorkers)
	session = s.Login(u).AccessToken
	list := servertest.List[api.Task](s, session, "/api/tasks")
	require.Len(t, list, 2)
	for _, task := range list {
		require.Equal(t, "queued", task.State)
		require.Equal(t, 1, task.Attempts)
		require.Equal(t, "the worker running it stopped before it finished", *task.Error)
	}
}

// holdPresence holds the presence of a task runner named runner on the
// PostgreSQL store of cfg, as a worker alive on another host does, until
// the returned function is called.
func holdPresence(t *testing.T, cfg app.Config, runner string) func() {
	t.Helper()
	st, err := app.OpenStore(t.Context(), cfg)
	require.NoError(t, err)
	ctx, cancel := context.WithCancel(t.Context())
	held, done := make(chan struct{}), make(chan error, 1)
	go func() { done <- st.(store.TaskPresence).HoldPresence(ctx, runner, func() { close(held) }) }()
	<-held
	return sync.OnceFunc(func() {
		cancel()
		require.NoError(t, <-done)
		require.NoError(t, st.Close())
	})
}

// requireServes checks that s answers the asset's original and thumbnail
// with these bytes.
func requireServes(t *testing.T, s *servertest.Server, session, id string, original, thumb []byte) {
	t.Helper()
	for path, want := range map[string][]byte{"original": original, "variants/thumbnail": thumb} {
		r := s.Do("GET", "/api/assets/"+id+"/"+path, session, nil)
		require.Equal(t, 200, r.Status, "%s: %s", path, r.Body)
		require.Equal(t, want, r.Body, path)
	}
}

func shutdown(t *testing.T, s *servertest.Server) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	require.NoError(t, s.App().Shutdown(ctx))
}

func TestWorkerRunsBesideServeAndStopsCleanly(t *testing.T) {
	s := servertest.Start(t, func(c *app.Config) { c.Workers.Concurrency = 0 })
	cfg := s.Config
	cfg.Workers.Concurrency = 2
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- app.RunWorker(ctx, cfg, slogDiscard()) }()
	_, session := s.Session()
	s.UploadAsset(session, "a.jpg", servertest.JPEG(t, 8, 8, 1), nil) // the store is shared while both run
	cancel()
	select {
	case err := <-done:
		require.NoError(t, err)
	case <-time.After(10 * time.Second):
		t.Fatal("RunWorker did not return after its context ended")
	}
}

func slogDiscard() *slog.Logger { return slog.New(slog.NewTextHandler(io.Discard, nil)) }

// TestWorkerLoadsPlacesAndTimeZonesOnceStarted: a process that runs tasks
// loads what the metadata and geocode steps look up in the background once
// started, not on its first photos, and says so (the benchmarks wait for
// that line before they measure).
func TestWorkerLoadsPlacesAndTimeZonesOnceStarted(t *testing.T) {
	s := servertest.Start(t, func(c *app.Config) { c.Workers.Concurrency = 0 })
	runWorkerUntil(t, s.Config, "places and time zones loaded", "no task has run, yet the worker should load them")
}

// runWorkerUntil runs a worker (one task at a time) on cfg's store until
// it logs line, then stops it, and returns its log.
func runWorkerUntil(t *testing.T, cfg app.Config, line, why string) string {
	t.Helper()
	cfg.Workers.Concurrency = 1
	var log servertest.SyncBuffer
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- app.RunWorker(ctx, cfg, slog.New(slog.NewTextHandler(&log, nil))) }()
	require.Eventually(t, func() bool { return strings.Contains(log.String(), line) }, 30*time.Second, 20*time.Millisecond, why)
	cancel()
	require.NoError(t, <-done)
	return log.String()
}

// TestWorkerOnPostgreSQLTakesServesUploadsWithoutPolling: a worker that
// would poll once an hour still runs the tasks of uploads taken by serve,
// another process, at once: on PostgreSQL every enqueue notifies the
// runners listening (migration 0012, tasks.Runner.listen). SQLite's
// processes share no such channel; there the poll is the only way.
func TestWorkerOnPostgreSQLTakesServesUploadsWithoutPolling(t *testing.T) {
	if !servertest.Postgres() {
		t.Skip("SQLite processes poll for each other's tasks")
	}
	s := servertest.Start(t, func(c *app.Config) { c.Workers.Concurrency = 0 })
	cfg := s.Config
	cfg.Workers.Concurrency, cfg.Workers.PollInterval = 1, time.Hour
	runWorker(t, cfg)
	_, session := s.Session()
	// The first upload may come before the worker listens (it then finds
	// the task when it starts listening); by the time its chain is done
	// the worker listens, idle, for the second's.
	for i, name := range []string{"a.jpg", "b.jpg"} {
		a := s.UploadAsset(session, name, servertest.JPEG(t, 8, 8, i+1), nil)
		for _, task := range s.WaitForTasks(session, a.ID, 20*time.Second) {
			require.Equal(t, "succeeded", task.State, "%s %s: %v", name, task.Kind, task.Error)
		}
	}
}

// TestWorkerOnAnotherHostSharesTheBucket: with the blobs in a bucket, a
// worker with a data directory of its own (another host) ingests serve's
// uploads — it reads the originals from the bucket and writes the
// renderings there, where serve finds them — and neither data directory
// keeps a blob. PostgreSQL only: the database is what hosts share.
func TestWorkerOnAnotherHostSharesTheBucket(t *testing.T) {
	if !servertest.Postgres() {
		t.Skip("processes on several hosts share a PostgreSQL database")
	}
	svc := s3test.Start(t, "photos")
	s := servertest.Start(t, servertest.WithBucket(svc, "photos", "org/"), func(c *app.Config) { c.Workers.Concurrency = 0 })
	cfg := s.Config
	cfg.DataDir = t.TempDir() // the worker's host: same database and bucket, its own disk
	cfg.Workers.Concurrency = 2
	runWorker(t, cfg)
	_, session := s.Session()
	a := s.UploadAsset(session, "a.jpg", servertest.JPEG(t, 64, 48, 1), nil)
	for _, task := range s.WaitForTasks(session, a.ID, 30*time.Second) {
		require.Equal(t, "succeeded", task.State, "%s: %v", task.Kind, task.Error)
	}
	r := s.Do("GET", "/api/assets/"+a.ID+"/variants/thumbnail", session, nil)
	require.Equal(t, 200, r.Status, "%s", r.Body)
	require.Equal(t, "image/webp", r.Header.Get("Content-Type"))
	for _, dir := range []string{s.Config.DataDir, cfg.DataDir} {
		blobs, _ := os.ReadDir(filepath.Join(dir, "blobs"))
		require.Empty(t, blobs, "no blob on the disk of %s", dir)
	}
	require.Equal(t, 1, svc.Reads("originals/"+a.ID), "the worker downloads the original once for its tools")
}

// runWorker runs a worker with cfg until the test ends, then requires it
// to stop cleanly.
func runWorker(t *testing.T, cfg app.Config) {
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- app.RunWorker(ctx, cfg, slogDiscard()) }()
	t.Cleanup(func() {
		cancel()
		require.NoError(t, <-done)
	})
}

// TestLibraryMovesIntoABucket: a library ingested on the local disk, its
// files copied with CopyBlobsToBucket, then served from the bucket:
// originals and renderings read back the same, and new uploads land in
// the bucket.
func TestLibraryMovesIntoABucket(t *testing.T) {
	dir := t.TempDir()
	inDir := func(c *app.Config) { c.DataDir = dir }
	s := servertest.Start(t, inDir, servertest.WithPipeline)
	u := s.CreateUser()
	session := s.Login(u).AccessToken
	data := servertest.JPEG(t, 64, 48, 1)
	a := s.UploadAsset(session, "a.jpg", data, nil)
	for _, task := range s.WaitForTasks(session, a.ID, 30*time.Second) {
		require.Equal(t, "succeeded", task.State, "%s: %v", task.Kind, task.Error)
	}
	thumb := s.Do("GET", "/api/assets/"+a.ID+"/variants/thumbnail", session, nil)
	require.Equal(t, 200, thumb.Status, "%s", thumb.Body)
	shutdown(t, s)

	svc := s3test.Start(t, "photos")
	withBucket := servertest.WithBucket(svc, "photos", "lib/")
	cfg := s.Config
	withBucket(&cfg)
	st, err := app.CopyBlobsToBucket(t.Context(), cfg, 4, nil)
	require.NoError(t, err)
	require.Equal(t, st.Blobs, st.Copied)
	require.NoError(t, os.RemoveAll(filepath.Join(dir, "blobs")))

	s = servertest.Start(t, inDir, withBucket)
	session = s.Login(u).AccessToken
	requireServes(t, s, session, a.ID, data, thumb.Body)
	b := s.UploadAsset(session, "b.jpg", servertest.JPEG(t, 64, 48, 2), nil)
	r := s.Do("GET", "/api/assets/"+b.ID+"/original", session, nil)
	require.Equal(t, 200, r.Status, "%s", r.Body)
	blobs, _ := os.ReadDir(filepath.Join(dir, "blobs"))
	require.Empty(t, blobs, "new uploads go to the bucket")
}
