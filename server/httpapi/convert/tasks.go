package convert

import (
	"github.com/photoctl/photoctl/server/api"
	"github.com/photoctl/photoctl/server/catalog"
)

// Task converts a task of the durable queue.
func Task(t *catalog.Task) api.Task {
	out := api.Task{ID: t.ID, Kind: t.Kind, State: string(t.State), LibraryID: t.LibraryID, Attempts: t.Attempts,
		Error: t.Error, Progress: t.Progress, CreatedAt: t.CreatedAt, RunAfter: t.RunAfter, StartedAt: t.StartedAt, FinishedAt: t.FinishedAt}
	if t.AssetID != "" {
		out.AssetID = &t.AssetID
	}
	return out
}

// Event converts an event of the change feed; its data is copied.
func Event(e *catalog.Event) api.Event {
	return api.Event{ID: e.ID, Type: e.Type, LibraryID: e.LibraryID, ResourceID: e.ResourceID,
		Data: append([]byte(nil), e.Data...), CreatedAt: e.CreatedAt}
}
