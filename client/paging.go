package client

import (
	"context"
	"iter"
	"net/url"
	"strconv"

	"github.com/photoctl/photoctl/server/api"
)

// MaxPageSize is the largest page the server serves.
const MaxPageSize = 200

// pageOf fetches one page of a cursor-paginated list: limit items after the
// item with id after ("" for the first page).
func pageOf[T any](ctx context.Context, c *Client, path string, query url.Values, after string, limit int) (*api.Page[T], error) {
	q := url.Values{}
	for k, v := range query {
		q[k] = v
	}
	if limit > 0 {
		q.Set("limit", strconv.Itoa(min(limit, MaxPageSize)))
	}
	if after != "" {
		q.Set("starting_after_id", after)
	}
	var page api.Page[T]
	if _, err := c.do(ctx, &call{method: "GET", path: path, query: q, idempotent: true, out: &page}); err != nil {
		return nil, err
	}
	return &page, nil
}

// walk iterates over every item of a list from the item after `after`,
// fetching pages of pageSize (MaxPageSize when 0) as the loop goes. The
// cursor is the id of the last item of each page. An error ends the
// iteration after being yielded.
func walk[T any](ctx context.Context, c *Client, path string, query url.Values, after string, pageSize int,
	id func(T) string) iter.Seq2[T, error] {
	if pageSize <= 0 {
		pageSize = MaxPageSize
	}
	return func(yield func(T, error) bool) {
		for {
			page, err := pageOf[T](ctx, c, path, query, after, pageSize)
			if err != nil {
				var zero T
				yield(zero, err)
				return
			}
			for _, item := range page.Data {
				if !yield(item, nil) {
					return
				}
			}
			if !page.HasMore || len(page.Data) == 0 {
				return
			}
			after = id(page.Data[len(page.Data)-1])
		}
	}
}

// Collect gathers an iterator's items, stopping at the first error.
func Collect[T any](seq iter.Seq2[T, error]) ([]T, error) {
	var out []T
	for item, err := range seq {
		if err != nil {
			return out, err
		}
		out = append(out, item)
	}
	return out, nil
}
