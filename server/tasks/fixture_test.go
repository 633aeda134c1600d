package tasks_test

import (
	"context"
	"io"
	"log/slog"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/photoctl/photoctl/server/app"
	"github.com/photoctl/photoctl/server/catalog"
	"github.com/photoctl/photoctl/server/libraries"
	"github.com/photoctl/photoctl/server/query"
	"github.com/photoctl/photoctl/server/servertest"
	"github.com/photoctl/photoctl/server/store"
	"github.com/photoctl/photoctl/server/tasks"
)

// clock is real time plus an offset the test moves.
type clock struct{ offset atomic.Int64 }

func (c *clock) Now() time.Time          { return time.Now().Add(time.Duration(c.offset.Load())) }
func (c *clock) Advance(d time.Duration) { c.offset.Add(int64(d)) }

// world is a real SQLite file with a library and its assets.
type world struct {
	t      *testing.T
	cfg    app.Config // names the database; open() opens it again
	st     store.Store
	clock  *clock
	lib    string
	user   string
	assets []string
}

// newWorld opens a fresh database with one user, one library and n assets.
func newWorld(t *testing.T, n int) *world {
	t.Helper()
	w := &world{t: t, cfg: servertest.StoreConfig(t), clock: &clock{}}
	w.st = w.open()
	now := w.clock.Now()
	u := &catalog.User{ID: catalog.NewID(catalog.PrefixUser, now), Email: "a@example.com", IsActive: true,
		CreatedAt: now, UpdatedAt: now}
	require.NoError(t, w.st.InTx(t.Context(), func(r store.Repos) error {
		if err := r.Users().Create(t.Context(), u); err != nil {
			return err
		}
		l, err := libraries.CreateOwned(t.Context(), r, u.ID, "Photos", now)
		w.lib = l.ID
		return err
	}))
	w.user = u.ID
	for range n {
		w.addAsset(false)
	}
	return w
}

// open opens another store on the same file, as another process would.
func (w *world) open() store.Store {
	return servertest.OpenStore(w.t, w.cfg)
}

// addAsset saves an asset, with its metadata task when enqueue is set,
// and returns its id.
func (w *world) addAsset(enqueue bool) string {
	w.t.Helper()
	now := w.clock.Now().UTC()
	id := catalog.NewID(catalog.PrefixAsset, now)
	a := &catalog.Asset{ID: id, LibraryID: w.lib, ContributorID: w.user, MediaType: catalog.MediaImage,
		MIMEType: "image/jpeg", OriginalFileName: "a.jpg", FileCreatedAt: now, FileModifiedAt: now,
		Capture: catalog.CaptureTime{Wall: now}, Checksum: []byte(id), OriginalSize: 1, FileSizeBytes: 1,
		Metrics: map[string]any{}, CreatedAt: now, UpdatedAt: now}
	require.NoError(w.t, w.st.InTx(w.t.Context(), func(r store.Repos) error {
		if err := r.Assets().Create(w.t.Context(), a); err != nil {
			return err
		}
		if enqueue {
			return tasks.Enqueue(w.t.Context(), r, tasks.KindMetadata, id, w.lib, now)
		}
		return nil
	}))
	w.assets = append(w.assets, id)
	return id
}

// enqueue queues a task of kind for an asset.
func (w *world) enqueue(kind, assetID string) {
	w.t.Helper()
	require.NoError(w.t, w.st.InTx(w.t.Context(), func(r store.Repos) error {
		return tasks.Enqueue(w.t.Context(), r, kind, assetID, w.lib, w.clock.Now())
	}))
}

// list returns every task of the library, newest first.
func (w *world) list(f query.TaskFilter) []catalog.Task {
	w.t.Helper()
	f.LibraryID = w.lib
	out, _, err := w.st.Read().Tasks().List(context.Background(), f, query.Page{Limit: 1000})
	require.NoError(w.t, err)
	return out
}

// only returns the one task of kind for an asset.
func (w *world) only(kind, assetID string) catalog.Task {
	w.t.Helper()
	list := w.list(query.TaskFilter{Kind: kind, AssetID: assetID})
	require.Len(w.t, list, 1, "tasks of kind %s for %s", kind, assetID)
	return list[0]
}

// eventually waits until cond holds (at most 20 s), describing what it
// waited for on failure.
func (w *world) eventually(what string, cond func() bool) {
	w.t.Helper()
	require.Eventually(w.t, cond, 20*time.Second, 5*time.Millisecond, "waiting for: %s", what)
}

// waitState waits until the task of kind for an asset is in state.
func (w *world) waitState(kind, assetID string, state catalog.TaskState) catalog.Task {
	w.t.Helper()
	var last []catalog.Task
	for deadline := time.Now().Add(20 * time.Second); time.Now().Before(deadline); time.Sleep(5 * time.Millisecond) {
		last = w.list(query.TaskFilter{Kind: kind, AssetID: assetID})
		if len(last) == 1 && last[0].State == state {
			return last[0]
		}
	}
	require.Failf(w.t, "task not reached", "%s of %s never became %s; last seen: %+v", kind, assetID, state, last)
	return catalog.Task{}
}

// runner starts a runner of kinds over st with quick polls and leases and
// a fixed one-minute backoff; it is stopped when the test ends.
func (w *world) runner(st store.Store, kinds []tasks.Kind, cfg tasks.RunnerConfig) *tasks.Runner {
	w.t.Helper()
	if cfg.Concurrency == 0 {
		cfg.Concurrency = 2
	}
	if cfg.PollInterval == 0 {
		cfg.PollInterval = 10 * time.Millisecond
	}
	if cfg.Lease == 0 {
		cfg.Lease = 2 * time.Second // beats every 0.7 s: long enough for a loaded machine
	}
	if cfg.Backoff == nil {
		cfg.Backoff = func(int) time.Duration { return time.Minute }
	}
	log := slog.New(slog.NewTextHandler(io.Discard, nil))
	if testing.Verbose() {
		log = slog.New(slog.NewTextHandler(testWriter{w.t}, &slog.HandlerOptions{Level: slog.LevelDebug}))
	}
	r, err := tasks.NewRunner(st, kinds, cfg, log, w.clock.Now)
	require.NoError(w.t, err)
	w.t.Cleanup(r.Stop)
	return r
}

type testWriter struct{ t *testing.T }

func (tw testWriter) Write(p []byte) (int, error) {
	tw.t.Log(string(p))
	return len(p), nil
}

// calls counts handler calls per asset.
type calls struct {
	mu sync.Mutex
	n  map[string]int
}

func (c *calls) add(assetID string) int {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.n == nil {
		c.n = map[string]int{}
	}
	c.n[assetID]++
	return c.n[assetID]
}

func (c *calls) get(assetID string) int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.n[assetID]
}

// counting is a kind whose handler counts its calls and succeeds.
func counting(name string, c *calls, next ...string) tasks.Kind {
	return tasks.Kind{Name: name, Next: next, Run: func(_ context.Context, t *catalog.Task) error {
		c.add(t.AssetID)
		return nil
	}}
}
