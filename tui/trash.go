package tui

import (
	"context"
	"fmt"

	tea "charm.land/bubbletea/v2"

	"github.com/photoctl/photoctl/server/api"
)

// askTrash asks before moving the targets to the trash. A stack cover
// among them stands for its stack: every member goes (the members are read
// first, so that the question counts them).
func (m *Model) askTrash() tea.Cmd {
	v := m.view()
	if v.trash || len(v.targets()) == 0 {
		return nil
	}
	return m.spreadTargets(v, func(m *Model, s spread) tea.Cmd {
		m.confirm = &confirmation{question: fmt.Sprintf("Move %s to the trash? (y/n)", s),
			run: func() tea.Cmd {
				return m.bulkMove(s.ids(), func(ctx context.Context, lib string, chunk []string) error {
					_, err := m.c.TrashAssets(ctx, lib, chunk)
					return err
				}, func(m *Model) { m.inform("Moved %s to the trash.", s) })
			}}
		return nil
	})
}

// askRestore asks before restoring the targets from the trash. The trash
// lists each asset on its own (no cover stands for others), so what is
// chosen is what comes back.
func (m *Model) askRestore() tea.Cmd {
	v := m.view()
	targets := ids(v.targets())
	if !v.trash || len(targets) == 0 {
		return nil
	}
	m.confirm = &confirmation{question: fmt.Sprintf("Restore %d asset(s) from the trash? (y/n)", len(targets)),
		run: func() tea.Cmd {
			return m.bulkMove(targets, func(ctx context.Context, lib string, chunk []string) error {
				_, err := m.c.RestoreAssets(ctx, lib, chunk)
				return err
			}, func(m *Model) { m.inform("Restored %d asset(s).", len(targets)) })
		}}
	return nil
}

// bulkMove moves list into or out of the trash with call, MaxBulkIDs at a
// time; the lists drop what moved, also when a later request fails.
func (m *Model) bulkMove(list []string, call func(ctx context.Context, lib string, chunk []string) error, said func(m *Model)) tea.Cmd {
	ctx, lib := m.ctx, m.libraryID
	return func() tea.Msg {
		did, err := inChunks(ctx, list, func(ctx context.Context, chunk []string) error { return call(ctx, lib, chunk) })
		return done(func(m *Model) tea.Cmd {
			m.gone(did)
			if err != nil {
				m.fail(fmt.Errorf("%d of %d done: %w", len(did), len(list), err))
			} else {
				said(m)
			}
			return m.cursorMoved()
		})
	}
}

// gone drops assets that changed state from every list held and forgets
// the lists whose counts they change: the trash (unless shown), and the
// lists stacks were opened from (a cover's count, or the cover itself,
// may have changed); those keep their cursor for when esc comes back.
func (m *Model) gone(list []string) {
	drop := make(map[string]bool, len(list))
	for _, id := range list {
		drop[id] = true
	}
	m.eachList(func(v *assetView, shown bool) {
		v.p.remove(drop)
		for id := range drop {
			delete(v.selected, id)
		}
		if !shown && (v.trash || v.collapsed) && len(list) > 0 {
			cursor := v.p.cursor
			v.p.reset() // trash gains what the timeline lost
			v.p.cursor = cursor
		}
	})
	m.months.reset()
	m.albums.reset()
	m.people.reset()
}

// eachAsset changes the copies of the assets ids in every list.
func (m *Model) eachAsset(list []string, change func(*api.Asset)) {
	want := make(map[string]bool, len(list))
	for _, id := range list {
		want[id] = true
	}
	m.eachList(func(v *assetView, _ bool) {
		for i := range v.p.items {
			if want[v.p.items[i].ID] {
				change(&v.p.items[i])
			}
		}
	})
}
