package tui

import (
	"context"
	"fmt"
	"strings"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/photoctl/photoctl/client"
	"github.com/photoctl/photoctl/server/api"
)

// assetView is a lazily paged asset list with a multi-selection.
type assetView struct {
	title    string
	p        *pager[api.Asset]
	selected map[string]bool
	trash    bool // the list shows trashed assets
	// collapsed: the server shows each stack as one row, its cover, which
	// stands for every member (months, people, search; not albums or trash,
	// which list each asset on its own).
	collapsed bool
	// stack is the stack whose members the list shows, and parent the list
	// it was opened from (esc goes back to it).
	stack  *api.AssetStack
	parent *assetView
}

// assetList is the asset list of the library that q and scope select.
func (m *Model) assetList(title string, q client.AssetQuery, scope client.AssetScope) *assetView {
	q.LibraryID = m.libraryID
	collapsed := q.StackID == "" && q.Stacks != "expand" && scope.AlbumID == "" && q.State != "trashed"
	return &assetView{title: title, selected: map[string]bool{}, collapsed: collapsed, p: newPager(m.opts.PageSize, assetID,
		func(ctx context.Context, after string, limit int) (*api.Page[api.Asset], error) {
			return m.c.ScopedAssetsPage(ctx, q, scope, after, limit)
		})}
}

// searchList is the hits of q, best first.
func (m *Model) searchList(title string, q client.SearchQuery) *assetView {
	q.LibraryID = m.libraryID
	return &assetView{title: title, selected: map[string]bool{}, collapsed: true, p: newPager(m.opts.PageSize, assetID,
		func(ctx context.Context, after string, limit int) (*api.Page[api.Asset], error) {
			page, err := m.c.SearchPage(ctx, q, after, limit)
			if err != nil {
				return nil, err
			}
			out := &api.Page[api.Asset]{HasMore: page.HasMore, Data: make([]api.Asset, len(page.Data))}
			for i, h := range page.Data {
				out.Data[i] = h.Asset
			}
			return out, nil
		})}
}

func assetID(a api.Asset) string { return a.ID }

// targets are the assets an action applies to: the selection, else the
// asset under the cursor.
func (v *assetView) targets() []api.Asset {
	var out []api.Asset
	for _, a := range v.p.items {
		if v.selected[a.ID] {
			out = append(out, a)
		}
	}
	if len(out) == 0 {
		if a, ok := v.p.current(); ok {
			out = append(out, a)
		}
	}
	return out
}

// openMonth shows the assets captured in the month under the cursor.
func (m *Model) openMonth() tea.Cmd {
	b, ok := m.months.current()
	if !ok {
		return nil
	}
	start, err := time.Parse("2006-01", b.Bucket)
	if err != nil {
		m.fail(fmt.Errorf("month %q: %w", b.Bucket, err))
		return nil
	}
	const wall = "2006-01-02T15:04:05"
	q := client.AssetQuery{After: start.Format(wall), Before: start.AddDate(0, 1, 0).Format(wall)}
	return m.open(m.assetList(start.Format("January 2006"), q, client.AssetScope{}))
}

// open shows v in place of the current tab's own list.
func (m *Model) open(v *assetView) tea.Cmd {
	m.opened[m.tab] = v
	return v.p.ensure(m.ctx)
}

// rowText is an asset's line in v: capture time, file name, the stack
// mark (▣ and the member count on a cover that stands for its stack, a
// bare ▣ on a member listed on its own, "cover" in a stack's own list),
// rating.
func (v *assetView) rowText(a api.Asset) string {
	when := strings.Replace(a.LocalDatetime, "T", " ", 1)
	if len(when) > 16 {
		when = when[:16]
	}
	s := when + "  " + a.OriginalFileName
	switch {
	case v.coverOf(a) != nil:
		s += fmt.Sprintf(" ▣ %d", a.Stack.AssetCount)
	case v.stack != nil && a.Stack != nil && a.Stack.CoverAssetID == a.ID:
		s += " (cover)"
	case v.stack == nil && a.Stack != nil:
		s += " ▣"
	}
	if r := rating(a); r > 0 {
		s += " " + strings.Repeat("★", r)
	}
	return s
}

// rating is the asset's rating, 0 when none.
func rating(a api.Asset) int {
	if a.Metadata.Rating == nil {
		return 0
	}
	return int(*a.Metadata.Rating)
}
