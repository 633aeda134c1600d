package storetest

import (
	"testing"

	"github.com/photoctl/photoctl/server/catalog"
	"github.com/photoctl/photoctl/server/store"
)

// taskWorld is a library with assets for the task cases.
type taskWorld struct {
	lib    string
	assets []string
}

// newTaskWorld saves a user, a library and n assets in it.
func newTaskWorld(t *testing.T, s store.Store, n int) taskWorld {
	t.Helper()
	u := makeUser(t, s, "alice@example.com")
	lib := makeLibrary(t, s, u.ID, "Photos", 0)
	w := taskWorld{lib: lib.ID}
	for i := range n {
		w.assets = append(w.assets, makeAsset(t, s, lib.ID, u.ID, i))
	}
	return w
}

// newTask returns an unsaved queued task made and due at minute m.
func newTask(kind, assetID, libraryID string, m int) *catalog.Task {
	return &catalog.Task{ID: catalog.NewID(catalog.PrefixTask, at(m)), Kind: kind, State: catalog.TaskQueued,
		AssetID: assetID, LibraryID: libraryID, RunAfter: at(m), CreatedAt: at(m)}
}

// enqueueTasks saves tasks in one transaction and returns whether each was new.
func enqueueTasks(t *testing.T, s store.Store, tasks ...*catalog.Task) []bool {
	t.Helper()
	out := make([]bool, len(tasks))
	write(t, s, func(r store.Repos) error {
		for i, task := range tasks {
			ok, err := r.Tasks().Enqueue(ctx(t), task)
			if err != nil {
				return err
			}
			out[i] = ok
		}
		return nil
	})
	return out
}
