package main

import (
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/photoctl/photoctl/cmd/photoctl/internal/clientcmd/tasks"
	"github.com/photoctl/photoctl/server/api"
	"github.com/photoctl/photoctl/server/app"
	"github.com/photoctl/photoctl/server/servertest"
)

// TestCLITasksWatchEndsWithTheReclusterScheduledAhead: with the real face
// models a group photo's faces are clustered, and the library's people
// re-cluster is queued an hour ahead. `tasks watch` ends once the rest is
// done (it used to wait for the re-cluster, for an hour), exits 0 and says
// when the re-cluster is due; `tasks list` shows it queued with that
// run_after.
func TestCLITasksWatchEndsWithTheReclusterScheduledAhead(t *testing.T) {
	t.Parallel()
	models := mlModels(t)
	photoctlBinary(t)
	s := servertest.Start(t, servertest.WithPipeline, func(c *app.Config) { c.ML.Dir = models })
	cs := &cliServer{Server: s, user: s.CreateUser(), env: binaryEnv(t, "XDG_CACHE_HOME="+t.TempDir(), "NO_COLOR=1")}
	env := cs.keyEnv(t)
	photo, err := os.ReadFile(filepath.Join(models, "photos", "face-api-sample1.jpg"))
	require.NoError(t, err)
	dir := photoTree(t, nil, map[string][]byte{"group.jpg": photo})
	r := cs.ok(t, "", env, "upload", dir)

	started := time.Now()
	r = cs.ok(t, "", env, "tasks", "watch", "--interval", "200ms", "--json")
	out := decode[tasks.WatchJSON](t, r)
	require.Zero(t, out.Failed, "%+v", out)
	require.Equal(t, 1, out.Scheduled, "%+v", out)
	require.NotNil(t, out.NextDue)
	require.WithinDuration(t, started.Add(time.Hour), *out.NextDue, 10*time.Minute)

	r = cs.run(t, "", env, "tasks", "list", "--state", "queued", "--json")
	queued := decode[[]api.Task](t, r)
	require.Len(t, queued, 1)
	require.Equal(t, "recluster", queued[0].Kind)
	require.Equal(t, *out.NextDue, queued[0].RunAfter)
	r = cs.run(t, "", env, "tasks", "list", "--state", "succeeded", "--all", "--json")
	kinds := map[string]bool{}
	for _, task := range decode[[]api.Task](t, r) {
		kinds[task.Kind] = true
	}
	require.True(t, kinds["faces"] && kinds["cluster"], "the faces were found and clustered: %v", kinds)

	r = cs.ok(t, "", env, "tasks", "watch")
	require.Contains(t, r.stdout, "Nothing queued or running: 0 task(s) succeeded, 0 failed")
	require.Contains(t, r.stdout, "1 task(s) scheduled for later, the next at "+out.NextDue.Local().Format("2006-01-02 15:04"))
}
