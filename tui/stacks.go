package tui

import (
	"fmt"

	tea "charm.land/bubbletea/v2"

	"github.com/photoctl/photoctl/client"
	"github.com/photoctl/photoctl/server/api"
)

// coverOf returns the stack that row a stands for in v: set only when v
// shows each stack as its cover (collapsed) and a is that cover, so that
// an action over a touches every member.
func (v *assetView) coverOf(a api.Asset) *api.AssetStack {
	if !v.collapsed || a.Stack == nil {
		return nil
	}
	if c := a.Stack.CoverAssetID; c != "" && c != a.ID {
		return nil
	}
	return a.Stack
}

// openStack shows the members of the stack of the asset under the cursor
// in place of the list shown, which esc brings back as it was.
func (m *Model) openStack() tea.Cmd {
	v := m.view()
	a, ok := v.p.current()
	if !ok || a.Stack == nil || v.stack != nil && v.stack.ID == a.Stack.ID {
		return nil
	}
	q := client.AssetQuery{StackID: a.Stack.ID}
	if v.trash {
		q.State = "trashed"
	}
	s := m.assetList("Stack of "+a.OriginalFileName, q, client.AssetScope{})
	stack := *a.Stack
	s.stack, s.parent, s.trash = &stack, v, v.trash
	return m.open(s)
}

// closeStack goes back from a stack's members to the list it was opened
// from; false when v is no stack's list.
func (m *Model) closeStack() (tea.Cmd, bool) {
	v := m.view()
	if v == nil || v.parent == nil {
		return nil, false
	}
	m.opened[m.tab] = v.parent
	return m.setTab(m.tab), true
}

// stackLines name the stack of a in the detail pane: whether a is its
// cover or a member, how many members it has (those in a's state: live,
// or in the trash), and its id on a line of its own (an empty label: the
// id is longer than a value's column at 80 columns).
func stackLines(v *assetView, a api.Asset) [][2]string {
	if a.Stack == nil {
		return nil
	}
	role := "member"
	if v.coverOf(a) != nil || a.Stack.CoverAssetID == a.ID {
		role = "cover"
	}
	what := fmt.Sprintf("%s of %d", role, a.Stack.AssetCount) // fits the pane at 80 columns
	if a.TrashedAt != nil {
		what += " in the trash"
	}
	if v.stack == nil {
		what += " (enter opens)"
	}
	return [][2]string{{"Stack", what}, {"", "id " + a.Stack.ID}}
}

// eachList calls f with every asset list held: each tab's, and under it
// the lists its stacks were opened from; shown marks the one on screen.
func (m *Model) eachList(f func(v *assetView, shown bool)) {
	for i, top := range m.opened {
		for v := top; v != nil; v = v.parent {
			f(v, i == m.tab && v == top)
		}
	}
}
