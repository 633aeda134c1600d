package httpapi_test

import (
	"fmt"
	"net/http"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/photoctl/photoctl/server/api"
	"github.com/photoctl/photoctl/server/app"
	"github.com/photoctl/photoctl/server/catalog"
	"github.com/photoctl/photoctl/server/query"
	"github.com/photoctl/photoctl/server/servertest"
	"github.com/photoctl/photoctl/server/store"
)

// startWithoutWorkers starts a server that runs no tasks itself, so the
// tasks its uploads queue stay where the test puts them, and opens the
// data directory's store beside it, as a `photoctl worker` would.
func startWithoutWorkers(t *testing.T) (*servertest.Server, store.Store) {
	t.Helper()
	s := servertest.Start(t, func(c *app.Config) { c.Workers.Concurrency = 0 })
	st, err := app.OpenStore(t.Context(), s.Config)
	require.NoError(t, err)
	t.Cleanup(func() { st.Close() })
	return s, st
}

// workOn claims the next metadata task as a worker would, then succeeds
// or fails it (failMsg non-empty); it returns the task's id.
func workOn(t *testing.T, s *servertest.Server, st store.Store, failMsg string) string {
	t.Helper()
	now := s.Clock.Now()
	var id string
	require.NoError(t, st.InTx(t.Context(), func(r store.Repos) error {
		task, err := r.Tasks().Claim(t.Context(), query.Claim{Kinds: map[string]int{"metadata": 1}, Lease: "test#1",
			Now: now, LeaseUntil: now.Add(time.Minute)})
		if err != nil {
			return err
		}
		id = task.ID
		if failMsg != "" {
			return r.Tasks().Fail(t.Context(), id, "test#1", failMsg, now)
		}
		return r.Tasks().Succeed(t.Context(), id, "test#1", "", now)
	}))
	return id
}

func TestUploadsQueueMetadataTasksListedNewestFirst(t *testing.T) {
	s, st := startWithoutWorkers(t)
	_, session := s.Session()
	var assets []api.Asset
	for i := range 3 {
		assets = append(assets, s.UploadAsset(session, fmt.Sprintf("%d.jpg", i), servertest.JPEG(t, 16, 16, i), nil))
	}
	list := servertest.List[api.Task](s, session, "/api/tasks")
	require.Len(t, list, 3)
	for i, task := range list {
		a := assets[len(assets)-1-i] // newest first
		require.True(t, catalog.HasPrefix(task.ID, catalog.PrefixTask), task.ID)
		require.Equal(t, "metadata", task.Kind)
		require.Equal(t, "queued", task.State)
		require.Equal(t, a.ID, *task.AssetID)
		require.Equal(t, a.LibraryID, task.LibraryID)
		require.Zero(t, task.Attempts)
		require.Nil(t, task.Error)
		require.Nil(t, task.StartedAt)
		require.Nil(t, task.FinishedAt)
	}

	// The oldest is claimed first; it fails, the next one succeeds.
	failed, succeeded := workOn(t, s, st, "exiftool: unreadable file"), workOn(t, s, st, "")
	require.Equal(t, list[2].ID, failed)
	require.Equal(t, list[1].ID, succeeded)

	r := s.Do("GET", "/api/tasks/"+failed, session, nil)
	require.Equal(t, http.StatusOK, r.Status, "%s", r.Body)
	body := r.Map(t)
	for _, field := range []string{"id", "kind", "state", "asset_id", "library_id", "attempts", "error", "progress",
		"created_at", "started_at", "finished_at"} {
		require.Contains(t, body, field)
	}
	var task api.Task
	r.JSON(t, &task)
	require.Equal(t, "failed", task.State)
	require.Equal(t, 1, task.Attempts)
	require.Equal(t, "exiftool: unreadable file", *task.Error)
	require.NotNil(t, task.StartedAt)
	require.NotNil(t, task.FinishedAt)

	task = servertest.List[api.Task](s, session, "/api/tasks?state=succeeded")[0]
	require.Equal(t, succeeded, task.ID)
	require.Equal(t, 1.0, *task.Progress)
	queued := servertest.List[api.Task](s, session, "/api/tasks?state=queued&kind=metadata")
	require.Len(t, queued, 1)
	require.Equal(t, list[0].ID, queued[0].ID)
	require.Empty(t, servertest.List[api.Task](s, session, "/api/tasks?kind=variants"))
	byAsset := servertest.List[api.Task](s, session, "/api/tasks?asset_id="+assets[0].ID)
	require.Len(t, byAsset, 1)
	require.Equal(t, failed, byAsset[0].ID)
}

func TestTaskListPagesWithStartingAfterID(t *testing.T) {
	s, _ := startWithoutWorkers(t)
	_, session := s.Session()
	for i := range 5 {
		s.UploadAsset(session, "a.jpg", servertest.JPEG(t, 8, 8, i), nil)
	}
	all := servertest.List[api.Task](s, session, "/api/tasks?limit=200")
	require.Len(t, all, 5)
	var walked []string
	after := ""
	for {
		page := servertest.Expect[api.Page[api.Task]](t, s.Do("GET", "/api/tasks?limit=2&starting_after_id="+after, session, nil), http.StatusOK)
		for _, task := range page.Data {
			walked = append(walked, task.ID)
		}
		if !page.HasMore {
			break
		}
		after = page.Data[len(page.Data)-1].ID
	}
	want := make([]string, len(all))
	for i, task := range all {
		want[i] = task.ID
	}
	require.Equal(t, want, walked)

	r := s.Do("GET", "/api/tasks?state=failed&starting_after_id="+all[0].ID, session, nil)
	require.Equal(t, "starting_after_id", validationItems(t, r)[0].Loc[1])
}

func TestTasksOfOtherUsersLibrariesAreNotFound(t *testing.T) {
	s, _ := startWithoutWorkers(t)
	_, alice := s.Session()
	_, bob := s.Session()
	a := s.UploadAsset(alice, "a.jpg", servertest.JPEG(t, 8, 8, 1), nil)
	task := servertest.List[api.Task](s, alice, "/api/tasks")[0]

	require.Equal(t, http.StatusNotFound, s.Do("GET", "/api/tasks/"+task.ID, bob, nil).Status)
	require.Equal(t, http.StatusNotFound, s.Do("GET", "/api/tasks?asset_id="+a.ID, bob, nil).Status)
	require.Empty(t, servertest.List[api.Task](s, bob, "/api/tasks"))
	require.Equal(t, http.StatusNotFound, s.Do("GET", "/api/tasks/task_01hzzzzzzzzzzzzzzzzzzzzzzz", alice, nil).Status)
	require.Equal(t, http.StatusNotFound, s.Do("GET", "/api/tasks?asset_id=asset_01hzzzzzzzzzzzzzzzzzzzzzzz", alice, nil).Status)
}

func TestTaskListRejectsBadFilters(t *testing.T) {
	s, _ := startWithoutWorkers(t)
	_, session := s.Session()
	cases := []struct {
		query string
		locs  []string
	}{
		{"state=done", []string{"state"}},
		{"kind=Not%20a%20kind", []string{"kind"}},
		{"asset_id=album_01hzzzzzzzzzzzzzzzzzzzzzzz", []string{"asset_id"}},
		{"state=done&asset_id=x", []string{"state", "asset_id"}},
		{"status=queued", []string{"status"}},
		{"limit=0", []string{"limit"}},
		{"limit=201", []string{"limit"}},
	}
	for _, c := range cases {
		items := validationItems(t, s.Do("GET", "/api/tasks?"+c.query, session, nil))
		var locs []string
		for _, it := range items {
			require.Equal(t, "query", it.Loc[0], c.query)
			locs = append(locs, fmt.Sprint(it.Loc[1]))
		}
		require.Equal(t, c.locs, locs, c.query)
	}
	validationItems(t, s.Do("GET", "/api/tasks/task_01hzzzzzzzzzzzzzzzzzzzzzzz?x=1", session, nil))
}

// TestTaskListTakesLibraryIDAsAFilter: with several libraries the list
// spans them all (not the selection rule's 422); library_id narrows it.
func TestTaskListTakesLibraryIDAsAFilter(t *testing.T) {
	s, _ := startWithoutWorkers(t)
	_, session := s.Session()
	first := s.Libraries(session)[0]
	second := s.CreateLibrary(session, "Second")
	a := s.UploadAsset(session, "a.jpg", servertest.JPEG(t, 8, 8, 1), map[string]string{"library_id": second.ID})

	require.Len(t, servertest.List[api.Task](s, session, "/api/tasks"), 1)
	require.Len(t, servertest.List[api.Task](s, session, "/api/tasks?library_id="+second.ID), 1)
	require.Empty(t, servertest.List[api.Task](s, session, "/api/tasks?library_id="+first.ID))
	// An asset names its library.
	byAsset := servertest.List[api.Task](s, session, "/api/tasks?asset_id="+a.ID)
	require.Len(t, byAsset, 1)
	require.Equal(t, second.ID, byAsset[0].LibraryID)
	require.Empty(t, servertest.List[api.Task](s, session, "/api/tasks?asset_id="+a.ID+"&library_id="+first.ID))
}

func TestTaskRoutesNeedTheTaskReadAction(t *testing.T) {
	s, _ := startWithoutWorkers(t)
	_, session := s.Session()
	s.UploadAsset(session, "a.jpg", servertest.JPEG(t, 8, 8, 1), nil)
	task := servertest.List[api.Task](s, session, "/api/tasks")[0]
	lib := s.Libraries(session)[0].ID

	second := s.CreateLibrary(session, "Second")

	reader := s.CreateKey(session, []string{"task.read"}, nil)
	other := s.CreateKey(session, []string{"asset.read"}, nil)
	elsewhere := s.CreateKey(session, []string{"task.read"}, []string{second.ID})
	require.Equal(t, http.StatusOK, s.Do("GET", "/api/tasks/"+task.ID, reader, nil).Status)
	require.Len(t, servertest.List[api.Task](s, reader, "/api/tasks?library_id="+lib), 1)
	require.Equal(t, http.StatusForbidden, s.Do("GET", "/api/tasks", other, nil).Status)
	require.Equal(t, http.StatusForbidden, s.Do("GET", "/api/tasks/"+task.ID, other, nil).Status)
	require.Equal(t, http.StatusForbidden, s.Do("GET", "/api/tasks/"+task.ID, elsewhere, nil).Status)
	require.Equal(t, http.StatusForbidden, s.Do("GET", "/api/tasks?library_id="+lib, elsewhere, nil).Status)
	require.Equal(t, http.StatusUnauthorized, s.Do("GET", "/api/tasks", "", nil).Status)
}
