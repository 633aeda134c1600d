package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/photoctl/photoctl/server/api"
	"github.com/photoctl/photoctl/server/servertest"
)

// startWorker starts `photoctl worker args...`; the process is killed at
// the end of the test if it still runs.
func startWorker(t *testing.T, env []string, args ...string) *server {
	t.Helper()
	return startProcess(t, 3*time.Minute, photoctlBinary(t), "", env, append([]string{"worker"}, args...)...)
}

// tasksOf lists every task of the caller's library.
func tasksOf(t *testing.T, c *crashClient) []api.Task {
	t.Helper()
	status, body := c.get(t, "/api/tasks?limit=200")
	require.Equal(t, http.StatusOK, status, "%s", body)
	var page api.Page[api.Task]
	require.NoError(t, json.Unmarshal(body, &page))
	return page.Data
}

// TestBinaryWorkerAloneDrainsTheQueue runs serve without task workers
// (PHOTOCTL_WORKERS_CONCURRENCY=0), uploads photos whose metadata tasks
// queue up, then runs `photoctl worker` beside it and watches every task,
// and the steps each one chains to, succeed through GET /api/tasks.
func TestBinaryWorkerAloneDrainsTheQueue(t *testing.T) {
	photoctlBinary(t) // build first: createUser's deadline would count the build
	env := binaryEnv(t, "PHOTOCTL_WORKERS_CONCURRENCY=0")
	srv, c, dataDir, _ := newServedLibrary(t, env)

	uploaded := map[string]bool{}
	for i := range 4 {
		id, ok := c.upload(servertest.JPEG(t, 96, 64, 4000+i), fmt.Sprintf("photo%d.jpg", i))
		require.True(t, ok)
		uploaded[id] = true
	}
	// Nothing in serve runs them.
	time.Sleep(300 * time.Millisecond)
	queued := tasksOf(t, c)
	require.Len(t, queued, len(uploaded))
	for _, task := range queued {
		require.Equal(t, "metadata", task.Kind)
		require.Equal(t, "queued", task.State)
		require.True(t, uploaded[*task.AssetID])
	}

	w := startWorker(t, env, "--data-dir", dataDir, "--concurrency", "2")
	var last []api.Task
	deadline := time.Now().Add(time.Minute) // well within serve's 2-minute life
	for done := false; !done; time.Sleep(100 * time.Millisecond) {
		select {
		case <-w.done:
			t.Fatalf("photoctl worker exited early (%v); stderr:\n%s", w.cmd.ProcessState, w.stderr)
		default:
		}
		require.True(t, time.Now().Before(deadline), "tasks not all succeeded after a minute: %+v\nworker stderr:\n%s",
			last, w.stderr)
		last = tasksOf(t, c)
		done = len(last) > len(uploaded)
		for _, task := range last {
			done = done && task.State == "succeeded"
		}
	}
	perAsset := map[string]map[string]bool{}
	for _, task := range last {
		require.True(t, uploaded[*task.AssetID])
		if perAsset[*task.AssetID] == nil {
			perAsset[*task.AssetID] = map[string]bool{}
		}
		require.False(t, perAsset[*task.AssetID][task.Kind], "%s queued twice for one asset", task.Kind)
		perAsset[*task.AssetID][task.Kind] = true
	}
	for id := range uploaded {
		require.True(t, perAsset[id]["metadata"], id)
		require.Greater(t, len(perAsset[id]), 1, "metadata chains to the next steps")
	}

	w.terminate(t, 20*time.Second, "photoctl worker running")
	srv.stop(t)
}

func TestWorkerTakesConcurrencyFromFlagOrEnvironment(t *testing.T) {
	cases := []struct {
		name string
		env  string
		args []string
		want string
	}{
		{"the flag", "", []string{"--concurrency", "3"}, "concurrency=3"},
		{"the environment", "5", nil, "concurrency=5"},
		{"the flag over the environment", "5", []string{"--concurrency", "2"}, "concurrency=2"},
		{"0, which keeps serve from running tasks, means one per core here", "0", nil,
			fmt.Sprintf("concurrency=%d", runtime.NumCPU())},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			isolate(t)
			if c.env != "" {
				t.Setenv("PHOTOCTL_WORKERS_CONCURRENCY", c.env)
			}
			// The real worker on a fresh data directory, stopped once it runs.
			a := newApp(stubFactory(t))
			var stdout bytes.Buffer
			stderr := &syncBuffer{}
			a.Reader, a.Writer, a.ErrWriter = strings.NewReader(""), &stdout, stderr
			ctx, cancel := context.WithCancel(context.Background())
			defer cancel()
			code := make(chan int, 1)
			go func() {
				code <- execute(ctx, a, append([]string{"photoctl", "worker", "--data-dir", t.TempDir()}, c.args...))
			}()
			require.Eventually(t, func() bool { return strings.Contains(stderr.String(), "photoctl worker running") },
				time.Minute, 10*time.Millisecond, "stderr: %s", stderr)
			cancel()
			require.Equal(t, exitOK, <-code, stderr.String())
			require.Empty(t, stdout.String())
			require.Contains(t, stderr.String(), c.want)
		})
	}
}

func TestWorkerRejectsANegativeConcurrency(t *testing.T) {
	isolate(t)
	r := runCLI(t, nil, "", "worker", "--data-dir", t.TempDir(), "--concurrency", "-1")
	require.Equal(t, exitUsage, r.code, r.stderr)
	require.Contains(t, r.stderr, "workers.concurrency")
}
