package client

import (
	"context"
	"iter"
	"net/url"

	"github.com/photoctl/photoctl/server/api"
)

// Task states (api.Task.State).
const (
	TaskQueued    = "queued"
	TaskRunning   = "running"
	TaskSucceeded = "succeeded"
	TaskFailed    = "failed"
)

// TaskQuery holds the filters of the task list. Zero values are left out.
// AssetID alone names its asset's library.
type TaskQuery struct {
	LibraryID string
	State     string // queued, running, succeeded or failed
	Kind      string // metadata, variants, ...
	AssetID   string
}

func (q TaskQuery) values() url.Values {
	v := url.Values{}
	setIf(v, "library_id", q.LibraryID)
	setIf(v, "state", q.State)
	setIf(v, "kind", q.Kind)
	setIf(v, "asset_id", q.AssetID)
	return v
}

// Tasks iterates over the tasks q selects, newest first (by id), pageSize
// per request (MaxPageSize when 0).
func (c *Client) Tasks(ctx context.Context, q TaskQuery, pageSize int) iter.Seq2[api.Task, error] {
	return walk(ctx, c, "/api/tasks", q.values(), "", pageSize, func(t api.Task) string { return t.ID })
}

// Task returns one task.
func (c *Client) Task(ctx context.Context, id string) (*api.Task, error) {
	var t api.Task
	if _, err := c.do(ctx, &call{method: "GET", path: "/api/tasks/" + url.PathEscape(id), idempotent: true, out: &t}); err != nil {
		return nil, err
	}
	return &t, nil
}
