package storetest

import (
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/photoctl/photoctl/server/catalog"
	"github.com/photoctl/photoctl/server/query"
	"github.com/photoctl/photoctl/server/store"
)

// list fetches one page of some list.
type list[T any] func(p query.Page) ([]T, bool, error)

// checkPaging pages through a list with every limit from 1 to len(want)+1
// and requires the pages, joined, to be exactly want: no row duplicated or
// skipped, and has_more exact (true on every page but the last, so no empty
// trailing page even when the rows divide evenly into pages).
func checkPaging[T any](t *testing.T, want []string, id func(T) string, l list[T]) {
	t.Helper()
	for limit := 1; limit <= len(want)+1; limit++ {
		require.Equal(t, want, walk(t, limit, len(want), id, l), "limit %d", limit)
	}
}

// walk follows a list page by page with the given limit and returns the ids
// in the order served, checking each page's size against has_more.
func walk[T any](t *testing.T, limit, total int, id func(T) string, l list[T]) []string {
	t.Helper()
	got := []string{}
	after := ""
	for pages := 0; ; pages++ {
		require.LessOrEqual(t, pages, total, "limit %d: paging does not end", limit)
		items, more, err := l(query.Page{Limit: limit, AfterID: after})
		require.NoError(t, err, "limit %d, after %q", limit, after)
		require.LessOrEqual(t, len(items), limit, "limit %d: page too long", limit)
		for _, it := range items {
			got = append(got, id(it))
		}
		if !more {
			if pages > 0 {
				require.NotEmpty(t, items, "limit %d: has_more was true before an empty page", limit)
			}
			return got
		}
		require.Len(t, items, limit, "limit %d: a page with has_more must be full", limit)
		after = id(items[len(items)-1])
	}
}

// firstPage fetches the first page of a list, requiring no error.
func firstPage[T any](t *testing.T, limit int, l list[T]) ([]T, bool) {
	t.Helper()
	items, more, err := l(query.Page{Limit: limit})
	require.NoError(t, err)
	return items, more
}

// idsOf maps items to their ids.
func idsOf[T any](items []T, id func(T) string) []string {
	out := make([]string, len(items))
	for i, it := range items {
		out[i] = id(it)
	}
	return out
}

// ListedAssetIDs pages through a's list for f with the given limit and
// returns the ids in the order served, nil for none (checking each page as
// walk does): for store tests that compare the pages of different plans.
func ListedAssetIDs(t *testing.T, a store.Assets, f query.AssetFilter, limit int) []string {
	t.Helper()
	ids := walk(t, limit, 1<<30, func(x catalog.Asset) string { return x.ID },
		func(p query.Page) ([]catalog.Asset, bool, error) { return a.List(t.Context(), f, p) })
	if len(ids) == 0 {
		return nil
	}
	return ids
}
