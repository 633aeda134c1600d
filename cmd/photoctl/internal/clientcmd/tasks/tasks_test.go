package tasks

import (
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/photoctl/photoctl/client"
	"github.com/photoctl/photoctl/cmd/photoctl/internal/cmdtest"
)

func TestTasksListParsesItsOptions(t *testing.T) {
	parse := func(args ...string) *ListOptions { return cmdtest.Parse(t, NewCmdList, "", args...) }
	got := parse("--library", "Family", "--state", "failed", "--kind", "metadata",
		"--asset", "asset_1", "-n", "7", "--json")
	require.Equal(t, "Family", got.Library)
	require.True(t, got.LibrarySet)
	require.Equal(t, client.TaskQuery{State: "failed", Kind: "metadata", AssetID: "asset_1"}, got.Query)
	require.Equal(t, 7, got.Limit)
	require.True(t, got.JSON)
	require.NotNil(t, got.Conn)

	got = parse("--all")
	require.Equal(t, 0, got.Limit)
	require.False(t, got.LibrarySet)

	cmdtest.RequireUsageErrors(t, cmdtest.WithoutRun(NewCmdList), map[string][]string{
		"an argument":  {"extra"},
		"a zero limit": {"--limit", "0"},
	})
}

func TestTasksGetParsesItsOptions(t *testing.T) {
	parse := func(args ...string) *GetOptions { return cmdtest.Parse(t, NewCmdGet, "", args...) }
	got := parse("--json", "task_1", "task_2")
	require.Equal(t, []string{"task_1", "task_2"}, got.IDs)
	require.True(t, got.JSON)

	cmdtest.RequireUsageErrors(t, cmdtest.WithoutRun(NewCmdGet), map[string][]string{
		"no id": {},
	})
}

func TestTasksWatchParsesItsOptions(t *testing.T) {
	parse := func(args ...string) *WatchOptions { return cmdtest.Parse(t, NewCmdWatch, "", args...) }
	got := parse("--library", "Family", "--interval", "5s", "--json", "-q")
	require.Equal(t, "Family", got.Library)
	require.Equal(t, 5*time.Second, got.Interval)
	require.True(t, got.JSON)

	got = parse()
	require.Equal(t, time.Second, got.Interval)
	require.False(t, got.JSON)

	cmdtest.RequireUsageErrors(t, cmdtest.WithoutRun(NewCmdWatch), map[string][]string{
		"an argument":    {"extra"},
		"a fast polling": {"--interval", "10ms"},
	})
}

func TestEventsTailParsesItsOptions(t *testing.T) {
	parse := func(args ...string) *EventsTailOptions { return cmdtest.Parse(t, NewCmdEventsTail, "", args...) }
	got := parse("--library", "Family", "--after", "evt_1", "-f", "-n", "0",
		"--interval", "3s", "--json")
	require.Equal(t, "Family", got.Library)
	require.Equal(t, "evt_1", got.After)
	require.Equal(t, 0, got.Last)
	require.True(t, got.Follow)
	require.Equal(t, 3*time.Second, got.Interval)
	require.True(t, got.JSON)

	got = parse()
	require.Equal(t, -1, got.Last, "all events without -n")
	require.False(t, got.Follow)
	require.Equal(t, 2*time.Second, got.Interval)

	cmdtest.RequireUsageErrors(t, cmdtest.WithoutRun(NewCmdEventsTail), map[string][]string{
		"an argument":    {"extra"},
		"a fast polling": {"--interval", "50ms"},
		"a negative -n":  {"-n", "-1"},
	})
}
