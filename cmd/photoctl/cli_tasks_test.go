package main

import (
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/photoctl/photoctl/cmd/photoctl/internal/clientcmd/tasks"
	"github.com/photoctl/photoctl/server/api"
	"github.com/photoctl/photoctl/server/servertest"
)

func TestCLITasksList(t *testing.T) {
	t.Parallel()
	cs := newCLIServer(t) // no workers: the uploads' first tasks stay queued
	env := cs.keyEnv(t)
	assets := uploaded(t, cs, env, 2)

	r := cs.ok(t, "", env, "tasks", "list", "--state", "queued", "--kind", "metadata", "--json")
	tasks := decode[[]api.Task](t, r)
	require.Len(t, tasks, 2)
	r = cs.ok(t, "", env, "tasks", "list", "--asset", assets[0].ID, "--json")
	require.Len(t, decode[[]api.Task](t, r), 1)
	r = cs.ok(t, "", env, "tasks", "list", "--limit", "1")
	require.Contains(t, r.stdout, "metadata")
	r = cs.ok(t, "", env, "tasks", "get", "--json", tasks[0].ID)
	require.Equal(t, tasks[0].ID, decode[api.Task](t, r).ID)

	r = cs.run(t, "", env, "tasks", "list", "--state", "done")
	require.Equal(t, exitUsage, r.code, "the server refuses the state: %s", r.stderr)
	require.Contains(t, r.stderr, "422")
	r = cs.run(t, "", env, "tasks", "get", "task_01j00000000000000000000000")
	require.Equal(t, exitFailure, r.code, r.stderr)
	require.Contains(t, r.stderr, "404")
}

func TestCLITasksWatchUntilTheQueueDrains(t *testing.T) {
	t.Parallel()
	photoctlBinary(t)
	s := servertest.Start(t, servertest.WithPipeline)
	cs := &cliServer{Server: s, user: s.CreateUser(), env: binaryEnv(t, "XDG_CACHE_HOME="+t.TempDir(), "NO_COLOR=1")}
	env := cs.keyEnv(t)
	uploaded(t, cs, env, 3)

	r := cs.ok(t, "", env, "tasks", "watch", "--interval", "100ms", "--json")
	out := decode[tasks.WatchJSON](t, r)
	require.Zero(t, out.Failed, "%+v", out)
	require.Empty(t, out.FailedTasks)
	for _, state := range []string{"queued", "running"} {
		r = cs.run(t, "", env, "tasks", "list", "--state", state, "--json")
		require.Empty(t, decode[[]api.Task](t, r), "nothing %s once the watch ends", state)
	}
	r = cs.run(t, "", env, "tasks", "list", "--state", "succeeded", "--all", "--json")
	require.NotEmpty(t, decode[[]api.Task](t, r))

	r = cs.ok(t, "", env, "tasks", "watch")
	require.Contains(t, r.stdout, "Nothing queued or running: 0 task(s) succeeded, 0 failed")
}

// TestCLITasksWatchFailsWhenATaskFails watches a queue that a separate
// worker process drains, started once the watch has taken its first look:
// a truncated JPEG's variants step fails for good, so the watch exits 1
// and names it.
func TestCLITasksWatchFailsWhenATaskFails(t *testing.T) {
	t.Parallel()
	cs := newCLIServer(t) // no workers in the server
	env := cs.keyEnv(t)
	good := servertest.JPEG(t, 64, 48, 7)
	bad := good[:len(good)/3]
	dir := photoTree(t, []string{"good.jpg"}, map[string][]byte{"bad.jpg": bad})
	cs.ok(t, "", env, "upload", dir)

	watch := startCLI(t, append(append([]string{}, cs.env...), env...), "tasks", "watch", "--interval", "100ms", "--json")
	watch.waitFor(t, "Watching 2 queued or running task(s)")
	startWorker(t, cs.env, "--data-dir", cs.Config.DataDir)
	<-watch.done
	require.Equal(t, exitFailure, watch.cmd.ProcessState.ExitCode(), watch.stderr.String())
	require.Contains(t, watch.stderr.String(), "1 task(s) failed")
	var out tasks.WatchJSON
	require.NoError(t, json.Unmarshal([]byte(watch.stdout.String()), &out), watch.stdout.String())
	require.Equal(t, 1, out.Failed)
	require.Equal(t, "variants", out.FailedTasks[0].Kind)
	require.Positive(t, out.Succeeded, "the metadata steps at least")
}

// startCLI starts photoctl with args in the background; the process is
// killed at the end of the test if it still runs.
func startCLI(t *testing.T, env []string, args ...string) *server {
	t.Helper()
	return startProcess(t, 3*time.Minute, photoctlBinary(t), "", env, args...)
}

// waitFor waits until the process printed text on stderr, failing the
// test if it exits first. The 2-minute limit only bounds a hung process.
func (s *server) waitFor(t *testing.T, text string) {
	t.Helper()
	deadline := time.Now().Add(2 * time.Minute)
	for !strings.Contains(s.stderr.String(), text) {
		select {
		case <-s.done:
			t.Fatalf("exited before printing %q; stderr:\n%s\nstdout:\n%s", text, s.stderr, s.stdout)
		case <-time.After(20 * time.Millisecond):
		}
		if time.Now().After(deadline) {
			t.Fatalf("no %q after 2 minutes; stderr:\n%s", text, s.stderr)
		}
	}
}
