package tui

import (
	"context"
	"fmt"
	"strconv"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/photoctl/photoctl/client"
	"github.com/photoctl/photoctl/server/api"
)

// The Tasks view lists the queue of every library the caller can read,
// newest first, as GET /api/tasks and `photoctl tasks list` without a
// library do; its header counts each state with that same list filtered
// by state, so the numbers are the server's, not the loaded page's.

// taskStates are the states the header counts, in its order.
var taskStates = []string{client.TaskQueued, client.TaskRunning, client.TaskFailed, client.TaskSucceeded}

// taskCountCap bounds the tasks counted in a state: beyond it the header
// says "1000+" rather than page through a long history.
const taskCountCap = 1000

// taskCounts are the header's numbers by state; capped marks a count cut
// at taskCountCap.
type taskCounts struct {
	n      map[string]int
	capped map[string]bool
	err    error
}

// newTaskPager is the list of the Tasks view, over every library.
func newTaskPager(m *Model) *pager[api.Task] {
	return newPager(m.opts.PageSize, func(t api.Task) string { return t.ID },
		func(ctx context.Context, after string, limit int) (*api.Page[api.Task], error) {
			return m.c.TasksPage(ctx, client.TaskQuery{}, after, limit)
		})
}

// loadTaskCounts counts the tasks in each state (GET /api/tasks?state=).
func (m *Model) loadTaskCounts() tea.Cmd {
	ctx := m.ctx
	return func() tea.Msg {
		c := countTasks(ctx, m.c)
		return done(func(m *Model) tea.Cmd { m.taskCount = c; return nil })
	}
}

func countTasks(ctx context.Context, c *client.Client) *taskCounts {
	out := &taskCounts{n: map[string]int{}, capped: map[string]bool{}}
	for _, state := range taskStates {
		for _, err := range c.Tasks(ctx, client.TaskQuery{State: state}, client.MaxPageSize) {
			if err != nil {
				return &taskCounts{err: err}
			}
			if out.n[state]++; out.n[state] >= taskCountCap {
				out.capped[state] = true
				break
			}
		}
	}
	return out
}

// taskTitle is the header: the count of each state.
func (m *Model) taskTitle() string {
	c := m.taskCount
	switch {
	case c == nil:
		return "Tasks of all your libraries (counting…)"
	case c.err != nil:
		return "Tasks of all your libraries (not counted: " + c.err.Error() + ")"
	}
	count := func(state string) string {
		s := strconv.Itoa(c.n[state])
		if c.capped[state] {
			s += "+"
		}
		return s
	}
	return fmt.Sprintf("Tasks of all your libraries: %s queued, %s running, %s failed, %s done", count(client.TaskQueued),
		count(client.TaskRunning), count(client.TaskFailed), count(client.TaskSucceeded))
}

func taskRow(t api.Task) string {
	progress := ""
	if t.Progress != nil && t.State == "running" {
		progress = fmt.Sprintf(" %3.0f%%", *t.Progress*100)
	}
	asset := ""
	if t.AssetID != nil {
		asset = " " + *t.AssetID
	}
	s := fmt.Sprintf("%-10s %-9s%s%s", t.State, t.Kind, progress, asset)
	if t.Error != nil && *t.Error != "" {
		s += "  " + *t.Error
	}
	return s
}

// tickTasks schedules the next reload of the Tasks view.
func (m *Model) tickTasks() tea.Cmd {
	if m.opts.TaskRefresh <= 0 {
		return nil
	}
	gen := m.taskTick
	return tea.Tick(m.opts.TaskRefresh, func(time.Time) tea.Msg { return taskTick{gen: gen} })
}

// taskTick reloads the Tasks view, list and counts, while it is shown.
type taskTick struct{ gen int }

func (msg taskTick) apply(m *Model) tea.Cmd {
	if m.tab != tabTasks || msg.gen != m.taskTick {
		return nil
	}
	cursor := m.tasks.cursor
	m.tasks.reset()
	m.tasks.cursor = cursor
	return tea.Batch(m.tasks.ensure(m.ctx), m.loadTaskCounts(), m.tickTasks())
}
