package client

import (
	"context"
	"iter"
	"net/url"

	"github.com/photoctl/photoctl/server/api"
)

// Events iterates over a library's change feed, oldest first, from the
// event after `after` ("" for the beginning) to the latest one. Keep the id
// of the last event seen and pass it as after to resume exactly there.
func (c *Client) Events(ctx context.Context, libraryID, after string) iter.Seq2[api.Event, error] {
	q := url.Values{}
	setIf(q, "library_id", libraryID)
	return walk(ctx, c, "/api/events", q, after, 0, func(e api.Event) string { return e.ID })
}
