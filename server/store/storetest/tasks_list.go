package storetest

import (
	"testing"

	"github.com/photoctl/photoctl/server/catalog"
	"github.com/photoctl/photoctl/server/query"
	"github.com/photoctl/photoctl/server/store"
)

// taskListCases cover the task list over several libraries (GET
// /api/tasks without library_id).
var taskListCases = []testCase{
	{"a list over several libraries merges them newest first, with exact paging", func(t *testing.T, s store.Store) {
		alice, bob := newTaskWorld(t, s, 2), taskWorld{}
		u := makeUser(t, s, "bob@example.com")
		bob.lib = makeLibrary(t, s, u.ID, "Bob", 1).ID
		bob.assets = []string{makeAsset(t, s, bob.lib, u.ID, 2)}
		third := makeLibrary(t, s, u.ID, "Elsewhere", 2).ID
		a0, b0 := newTask("metadata", alice.assets[0], alice.lib, 1), newTask("metadata", bob.assets[0], bob.lib, 2)
		a1, b1 := newTask("variants", alice.assets[1], alice.lib, 3), newTask("variants", bob.assets[0], bob.lib, 4)
		a2, other := newTask("metadata", alice.assets[1], alice.lib, 5), newTask("faces.cluster", "", third, 6)
		enqueueTasks(t, s, a0, b0, a1, b1, a2, other)
		both := []string{alice.lib, bob.lib}
		checkPaging(t, taskIDs(a2, b1, a1, b0, a0), taskID, listTasks(t, s, query.TaskFilter{LibraryIDs: both}))
		checkPaging(t, taskIDs(b1, a1), taskID, listTasks(t, s, query.TaskFilter{LibraryIDs: both, Kind: "variants"}))
		mustClaimTask(t, s, "A", 9, a0.ID, "metadata")
		checkPaging(t, taskIDs(a2, b1, a1, b0), taskID, listTasks(t, s, query.TaskFilter{LibraryIDs: both,
			State: catalog.TaskQueued}))
		checkPaging(t, taskIDs(b1, b0), taskID, listTasks(t, s, query.TaskFilter{LibraryIDs: []string{bob.lib}}))
		checkPaging(t, []string{}, taskID, listTasks(t, s, query.TaskFilter{LibraryIDs: []string{}}))
		_, _, err := s.Read().Tasks().List(ctx(t), query.TaskFilter{LibraryIDs: both},
			query.Page{Limit: 5, AfterID: other.ID})
		requireInvalidCursor(t, err)
	}},
}
