package query

import (
	"time"

	"github.com/photoctl/photoctl/server/catalog"
)

// TaskFilter narrows a task list. Zero fields do not filter, but one of
// the library fields is required.
type TaskFilter struct {
	LibraryID string
	// LibraryIDs lists the tasks of these libraries when LibraryID is ""
	// (none lists nothing); each library's tasks come through its index.
	LibraryIDs []string
	State      catalog.TaskState
	Kind       string
	AssetID    string
}

// Claim asks for the next task to run.
type Claim struct {
	// Kinds maps each kind the caller can run to the attempts it allows;
	// other kinds are never claimed.
	Kinds map[string]int
	// Lease names this claim; every later call about the task must carry it.
	Lease      string
	Now        time.Time
	LeaseUntil time.Time
}
