package postgres_test

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/photoctl/photoctl/server/catalog"
	"github.com/photoctl/photoctl/server/query"
	"github.com/photoctl/photoctl/server/store"
	"github.com/photoctl/photoctl/server/store/postgres"
	"github.com/photoctl/photoctl/server/store/postgres/pgtest"
)

// Claimers in other processes: the test binary runs itself with these
// variables set, and TestTaskClaimRaceHelper claims instead of testing.
const (
	raceURLEnv     = "PHOTOCTL_TASK_RACE_URL"
	raceWorkersEnv = "PHOTOCTL_TASK_RACE_WORKERS"
	raceKinds      = 10 // kinds per asset: tasks = assets × raceKinds
)

// raceQueue fills a fresh database with n queued tasks (n/raceKinds assets,
// one task of each kind on each) and returns its URL, the store and the ids.
func raceQueue(t *testing.T, n int) (string, store.Store, map[string]bool) {
	t.Helper()
	url := pgtest.NewURL(t, migrate)
	s, err := postgres.Open(t.Context(), url)
	require.NoError(t, err)
	t.Cleanup(func() { s.Close() })
	lib := seedLibrary(t, s)
	ids := make(map[string]bool, n)
	const batch = 500 // assets per transaction
	for first := 0; first < n/raceKinds; first += batch {
		require.NoError(t, s.InTx(t.Context(), func(r store.Repos) error {
			for i := first; i < min(first+batch, n/raceKinds); i++ {
				at := base.Add(time.Duration(i) * time.Millisecond)
				a := &catalog.Asset{ID: catalog.NewID(catalog.PrefixAsset, at), LibraryID: lib.ID, ContributorID: lib.OwnerID,
					MediaType: catalog.MediaImage, MIMEType: "image/jpeg", OriginalFileName: fmt.Sprintf("%d.jpg", i),
					FileCreatedAt: at, FileModifiedAt: at, Capture: catalog.CaptureTime{Wall: at},
					Checksum: []byte(fmt.Sprintf("checksum %d", i)), OriginalSize: 1, FileSizeBytes: 1,
					Metrics: map[string]any{}, CreatedAt: at, UpdatedAt: at}
				if err := r.Assets().Create(t.Context(), a); err != nil {
					return err
				}
				for k := range raceKinds {
					task := &catalog.Task{ID: catalog.NewID(catalog.PrefixTask, at), Kind: raceKind(k),
						State: catalog.TaskQueued, AssetID: a.ID, LibraryID: lib.ID, RunAfter: at, CreatedAt: at}
					ok, err := r.Tasks().Enqueue(t.Context(), task)
					if err != nil {
						return err
					}
					if !ok {
						return fmt.Errorf("task %s not enqueued", task.ID)
					}
					ids[task.ID] = true
				}
			}
			return nil
		}))
	}
	require.Len(t, ids, n)
	return url, s, ids
}

func raceKind(k int) string { return fmt.Sprintf("kind%02d", k) }

// raceClaims is what one claimer saw: the ids it claimed, in order.
type raceClaims struct {
	ids  []string
	busy int // claims InTx gave up on as serialization failures
	// lastBusy is the error of the last of those.
	lastBusy string
}

// drain claims and finishes tasks until none is queued, as the runner
// does: a claim in one transaction, success in the next. name makes the
// leases unique across claimers and processes.
func drain(ctx context.Context, s store.Store, name string) (raceClaims, error) {
	kinds := map[string]int{}
	for k := range raceKinds {
		kinds[raceKind(k)] = 3
	}
	var out raceClaims
	for n := 0; ; n++ {
		now := time.Now()
		lease := fmt.Sprintf("%s#%d", name, n)
		var task *catalog.Task
		err := s.InTx(ctx, func(r store.Repos) error {
			var err error
			task, err = r.Tasks().Claim(ctx, query.Claim{Kinds: kinds, Lease: lease, Now: now,
				LeaseUntil: now.Add(time.Hour)})
			return err
		})
		switch {
		case errors.Is(err, catalog.ErrNotFound):
			// Every candidate may be locked by other claimers for a moment:
			// done only when nothing is queued any more.
			_, err := s.Read().Tasks().NextDue(ctx, slicesOf(kinds))
			if errors.Is(err, catalog.ErrNotFound) {
				return out, nil
			}
			if err != nil {
				return out, err
			}
			continue
		case errors.Is(err, catalog.ErrUnavailable):
			out.busy, out.lastBusy = out.busy+1, err.Error()
			continue
		case err != nil:
			return out, err
		}
		out.ids = append(out.ids, task.ID)
		if err := s.InTx(ctx, func(r store.Repos) error {
			return r.Tasks().Succeed(ctx, task.ID, lease, "", time.Now())
		}); err != nil {
			return out, fmt.Errorf("succeed %s: %w", task.ID, err)
		}
	}
}

func slicesOf(m map[string]int) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	return out
}

// requireEachOnce checks that the claimers together claimed every queued
// task exactly once, and that the database agrees: every task succeeded
// on its first attempt.
func requireEachOnce(t *testing.T, s store.Store, ids map[string]bool, claimers string, claims []raceClaims) {
	t.Helper()
	seen := make(map[string]int, len(ids))
	busy, lastBusy := 0, ""
	for _, c := range claims {
		busy += c.busy
		if c.lastBusy != "" {
			lastBusy = c.lastBusy
		}
		for _, id := range c.ids {
			seen[id]++
		}
	}
	twice, lost := 0, 0
	for id := range ids {
		switch seen[id] {
		case 0:
			lost++
		case 1:
		default:
			twice++
		}
	}
	require.Len(t, seen, len(ids), "claimed tasks that were never queued")
	require.Zero(t, twice, "tasks claimed more than once")
	require.Zero(t, lost, "queued tasks never claimed")
	var states, attempts string
	require.NoError(t, s.(*postgres.DB).Pool().QueryRow(t.Context(), `SELECT
		string_agg(DISTINCT state, ','), string_agg(DISTINCT attempts::text, ',') FROM tasks`).Scan(&states, &attempts))
	require.Equal(t, "succeeded", states)
	require.Equal(t, "1", attempts)
	t.Logf("%d tasks claimed once each by %s; InTx gave up on %d claims (last: %s)", len(ids), claimers,
		busy, lastBusy)
}

// raceTasks is how many tasks the race tests queue (the issue counts
// 10,000; -short takes fewer).
func raceTasks() int {
	if testing.Short() {
		return 1000
	}
	return 10000
}

// TestTaskClaimRaceGoroutines drains 10,000 tasks with 8 concurrent
// claimers on one pool: no task is claimed twice, none is lost.
func TestTaskClaimRaceGoroutines(t *testing.T) {
	_, s, ids := raceQueue(t, raceTasks())
	const claimers = 8
	claims := make([]raceClaims, claimers)
	errs := make([]error, claimers)
	var wg sync.WaitGroup
	start := time.Now()
	for i := range claimers {
		wg.Go(func() { claims[i], errs[i] = drain(t.Context(), s, fmt.Sprintf("g%d", i)) })
	}
	wg.Wait()
	require.NoError(t, errors.Join(errs...))
	t.Logf("drained in %v", time.Since(start).Round(time.Millisecond))
	requireEachOnce(t, s, ids, fmt.Sprintf("%d goroutines", claimers), claims)
}

// TestTaskClaimRaceProcesses drains 10,000 tasks with two processes (this
// test binary run again), each with 4 claimers on its own pool.
func TestTaskClaimRaceProcesses(t *testing.T) {
	url, s, ids := raceQueue(t, raceTasks())
	const procs, perProc = 2, 4
	outs := make([]bytes.Buffer, procs)
	cmds := make([]*exec.Cmd, procs)
	start := time.Now()
	for i := range procs {
		cmd := exec.CommandContext(t.Context(), os.Args[0], "-test.run=^TestTaskClaimRaceHelper$", "-test.count=1")
		cmd.Env = append(os.Environ(), raceURLEnv+"="+url, fmt.Sprintf("%s=%d", raceWorkersEnv, perProc),
			fmt.Sprintf("PHOTOCTL_TASK_RACE_NAME=p%d", i))
		cmd.Stdout, cmd.Stderr = &outs[i], &outs[i]
		require.NoError(t, cmd.Start())
		cmds[i] = cmd
	}
	var claims []raceClaims
	for i, cmd := range cmds {
		require.NoError(t, cmd.Wait(), outs[i].String())
		c, err := parseClaims(&outs[i])
		require.NoError(t, err, outs[i].String())
		require.NotEmpty(t, c.ids, "process %d claimed nothing: the other drained the queue alone", i)
		claims = append(claims, c)
	}
	t.Logf("drained in %v", time.Since(start).Round(time.Millisecond))
	requireEachOnce(t, s, ids, fmt.Sprintf("%d processes of %d goroutines", procs, perProc), claims)
}

// TestTaskClaimRaceHelper is the other process of TestTaskClaimRaceProcesses;
// run directly it skips. It prints "claimed ID" per task and "busy N".
func TestTaskClaimRaceHelper(t *testing.T) {
	url := os.Getenv(raceURLEnv)
	if url == "" {
		t.Skip("runs only as a child of TestTaskClaimRaceProcesses")
	}
	workers, err := strconv.Atoi(os.Getenv(raceWorkersEnv))
	require.NoError(t, err)
	s, err := postgres.Open(t.Context(), url)
	require.NoError(t, err)
	defer s.Close()
	claims := make([]raceClaims, workers)
	errs := make([]error, workers)
	var wg sync.WaitGroup
	for i := range workers {
		wg.Go(func() {
			claims[i], errs[i] = drain(t.Context(), s, fmt.Sprintf("%s.%d", os.Getenv("PHOTOCTL_TASK_RACE_NAME"), i))
		})
	}
	wg.Wait()
	require.NoError(t, errors.Join(errs...))
	w := bufio.NewWriter(os.Stdout)
	for _, c := range claims {
		for _, id := range c.ids {
			fmt.Fprintln(w, "claimed", id)
		}
		fmt.Fprintln(w, "busy", c.busy)
	}
	require.NoError(t, w.Flush())
}

// parseClaims reads a helper process's output.
func parseClaims(out *bytes.Buffer) (raceClaims, error) {
	var c raceClaims
	sc := bufio.NewScanner(bytes.NewReader(out.Bytes()))
	for sc.Scan() {
		word, rest, _ := strings.Cut(sc.Text(), " ")
		switch word {
		case "claimed":
			c.ids = append(c.ids, rest)
		case "busy":
			n, err := strconv.Atoi(rest)
			if err != nil {
				return c, err
			}
			c.busy += n
		}
	}
	return c, sc.Err()
}
