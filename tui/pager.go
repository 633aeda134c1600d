package tui

import (
	"context"

	tea "charm.land/bubbletea/v2"

	"github.com/photoctl/photoctl/server/api"
)

// pager is a list the server pages through: it holds the pages fetched so
// far, a cursor and a scroll offset, and fetches the next page only when
// the cursor comes near the end of what it has (never the whole list).
type pager[T any] struct {
	items   []T
	cursor  int
	offset  int  // first row shown
	more    bool // the server has more after items
	loading bool
	loaded  bool // the first page has arrived
	gen     int  // bumped by reset, so late pages of an old list are dropped
	size    int
	fetch   func(ctx context.Context, after string, limit int) (*api.Page[T], error)
	id      func(T) string
}

func newPager[T any](size int, id func(T) string, fetch func(context.Context, string, int) (*api.Page[T], error)) *pager[T] {
	return &pager[T]{more: true, size: size, fetch: fetch, id: id}
}

// near reports whether the cursor is near enough to the end of the loaded
// items (5 rows, or half a page for small pages) to ask for the next page.
func (p *pager[T]) near() bool {
	return p.cursor >= len(p.items)-max(1, min(5, p.size/2))
}

// reset forgets the items so that the list reloads when next shown.
func (p *pager[T]) reset() {
	*p = pager[T]{more: true, size: p.size, fetch: p.fetch, id: p.id, gen: p.gen + 1}
}

// current returns the item under the cursor.
func (p *pager[T]) current() (T, bool) {
	if p.cursor < 0 || p.cursor >= len(p.items) {
		var zero T
		return zero, false
	}
	return p.items[p.cursor], true
}

// ensure returns the command that loads the first page, if none has been
// asked for yet.
func (p *pager[T]) ensure(ctx context.Context) tea.Cmd {
	if p.loaded || p.loading {
		return nil
	}
	return p.next(ctx)
}

// next returns the command that fetches the page after the last item, or
// nil when one is on its way or there is no more.
func (p *pager[T]) next(ctx context.Context) tea.Cmd {
	if p.loading || !p.more {
		return nil
	}
	p.loading = true
	after := ""
	if len(p.items) > 0 {
		after = p.id(p.items[len(p.items)-1])
	}
	gen, fetch, size := p.gen, p.fetch, p.size
	return func() tea.Msg {
		page, err := fetch(ctx, after, size)
		return pageMsg[T]{p: p, gen: gen, page: page, err: err}
	}
}

// move moves the cursor by delta within the loaded items, keeps it on
// screen (rows tall), and asks for the next page when it nears the end.
func (p *pager[T]) move(ctx context.Context, delta, rows int) tea.Cmd {
	p.cursor = max(0, min(p.cursor+delta, len(p.items)-1))
	p.scroll(rows)
	if p.near() {
		return p.next(ctx)
	}
	return nil
}

// scroll keeps the cursor inside the rows shown.
func (p *pager[T]) scroll(rows int) {
	rows = max(rows, 1)
	if p.cursor < p.offset {
		p.offset = p.cursor
	}
	if p.cursor >= p.offset+rows {
		p.offset = p.cursor - rows + 1
	}
	p.offset = max(0, min(p.offset, max(0, len(p.items)-rows)))
}

// remove drops the items whose ids are in ids.
func (p *pager[T]) remove(ids map[string]bool) {
	kept := p.items[:0]
	for _, it := range p.items {
		if !ids[p.id(it)] {
			kept = append(kept, it)
		}
	}
	clear(p.items[len(kept):])
	p.items = kept
	p.cursor = max(0, min(p.cursor, len(p.items)-1))
}

// update replaces the item with the same id as it.
func (p *pager[T]) update(it T) {
	for i := range p.items {
		if p.id(p.items[i]) == p.id(it) {
			p.items[i] = it
		}
	}
}

// pageMsg carries a fetched page to the pager that asked for it.
type pageMsg[T any] struct {
	p    *pager[T]
	gen  int
	page *api.Page[T]
	err  error
}

// applier is a message that changes the model itself when it arrives.
type applier interface {
	apply(m *Model) tea.Cmd
}

func (msg pageMsg[T]) apply(m *Model) tea.Cmd {
	p := msg.p
	if msg.gen != p.gen {
		return nil
	}
	p.loading = false
	if msg.err != nil {
		p.more = false
		m.fail(msg.err)
		return nil
	}
	first := !p.loaded
	p.loaded = true
	p.items = append(p.items, msg.page.Data...)
	p.more = msg.page.HasMore && len(msg.page.Data) > 0
	if first {
		// A list reloaded under its cursor (reset keeps it) may be shorter.
		p.cursor = max(0, min(p.cursor, len(p.items)-1))
		return m.cursorMoved()
	}
	// The cursor may already sit near the new end (a short page).
	if p.near() {
		return p.next(m.ctx)
	}
	return nil
}
