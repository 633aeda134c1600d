package tui

import (
	"context"
	"fmt"

	tea "charm.land/bubbletea/v2"

	"github.com/photoctl/photoctl/client"
	"github.com/photoctl/photoctl/server/api"
)

// spread is what an action over some rows of a list touches once each
// stack cover among them stands for all its members.
type spread struct {
	rows   int         // the rows chosen (selection, else the cursor's)
	stacks int         // stack covers among them
	assets []api.Asset // every asset touched, each once
}

// String says how many: "3 asset(s)", or with stacks "3 asset(s) (2
// stacks, 14 assets in all)".
func (s spread) String() string {
	if s.stacks == 0 {
		return fmt.Sprintf("%d asset(s)", s.rows)
	}
	return fmt.Sprintf("%d asset(s) (%s, %d assets in all)", s.rows, plural(s.stacks, "stack"), len(s.assets))
}

func (s spread) ids() []string { return ids(s.assets) }

func plural(n int, noun string) string {
	if n == 1 {
		return "1 " + noun
	}
	return fmt.Sprintf("%d %ss", n, noun)
}

// coversAmong counts the targets of v that stand for a stack.
func coversAmong(v *assetView, targets []api.Asset) int {
	n := 0
	for _, a := range targets {
		if v.coverOf(a) != nil {
			n++
		}
	}
	return n
}

// coversOnly is the note of an action that changes only the asset it is
// given (a rating, a description: a judgement of one picture, not of the
// burst behind it): "" without stack covers among the targets.
func coversOnly(v *assetView, targets []api.Asset) string {
	if n := coversAmong(v, targets); n > 0 {
		return fmt.Sprintf(" (%s: the cover only)", plural(n, "stack"))
	}
	return ""
}

// spreadTargets reads the members of each stack cover among the targets
// of v (stack_id, in v's state) and then calls then with the spread: at
// once when there is none, else when the members arrive (the status line
// says so meanwhile).
func (m *Model) spreadTargets(v *assetView, then func(m *Model, s spread) tea.Cmd) tea.Cmd {
	targets := v.targets()
	s := spread{rows: len(targets)}
	seen := map[string]bool{}
	var stacks []string
	for _, a := range targets {
		if st := v.coverOf(a); st != nil {
			stacks = append(stacks, st.ID)
		} else if !seen[a.ID] {
			seen[a.ID] = true
			s.assets = append(s.assets, a)
		}
	}
	if len(stacks) == 0 {
		return then(m, s)
	}
	s.stacks = len(stacks)
	state := ""
	if v.trash {
		state = "trashed"
	}
	ctx, lib := m.ctx, m.libraryID
	m.inform("Reading the members of %s…", plural(len(stacks), "stack"))
	return func() tea.Msg {
		for _, id := range stacks {
			members, err := client.Collect(m.c.Assets(ctx, client.AssetQuery{LibraryID: lib, StackID: id, State: state}, 0))
			if err != nil {
				err = fmt.Errorf("read the members of stack %s: %w", id, err)
				return done(func(m *Model) tea.Cmd { m.fail(err); return nil })
			}
			for _, a := range members {
				if !seen[a.ID] {
					seen[a.ID] = true
					s.assets = append(s.assets, a)
				}
			}
		}
		return done(func(m *Model) tea.Cmd { m.status = ""; return then(m, s) })
	}
}

// inChunks calls call with the ids, MaxBulkIDs at a time, and returns the
// ids of the calls that succeeded.
func inChunks(ctx context.Context, list []string, call func(ctx context.Context, chunk []string) error) ([]string, error) {
	var did []string
	for start := 0; start < len(list); start += client.MaxBulkIDs {
		chunk := list[start:min(start+client.MaxBulkIDs, len(list))]
		if err := call(ctx, chunk); err != nil {
			return did, err
		}
		did = append(did, chunk...)
	}
	return did, nil
}

// stacksNote is " (3 chosen, 2 stacks)" after a count of every asset
// touched, "" without stacks.
func stacksNote(s spread) string {
	if s.stacks == 0 {
		return ""
	}
	return fmt.Sprintf(" (%d chosen, %s)", s.rows, plural(s.stacks, "stack"))
}
