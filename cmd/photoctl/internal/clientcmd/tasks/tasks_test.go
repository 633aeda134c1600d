package tasks

import (
	"testing"
	"time"

	"github.com/stretchr/testify/require"
	"github.com/urfave/cli/v2"

	"github.com/photoctl/photoctl/client"
	"github.com/photoctl/photoctl/cmd/photoctl/internal/cmdtest"
	"github.com/photoctl/photoctl/cmd/photoctl/internal/cmdutil"
)

func TestTasksListParsesItsOptions(t *testing.T) {
	f, _ := cmdtest.NewFactory(t, "")
	var got *ListOptions
	cmd := NewCmdList(f, func(o *ListOptions) error { got = o; return nil })
	require.NoError(t, cmdtest.Run(t, cmd, "--library", "Family", "--state", "failed", "--kind", "metadata",
		"--asset", "asset_1", "-n", "7", "--json"))
	require.NotNil(t, got)
	require.Equal(t, "Family", got.Library)
	require.True(t, got.LibrarySet)
	require.Equal(t, client.TaskQuery{State: "failed", Kind: "metadata", AssetID: "asset_1"}, got.Query)
	require.Equal(t, 7, got.Limit)
	require.True(t, got.JSON)
	require.NotNil(t, got.Conn)

	require.NoError(t, cmdtest.Run(t, cmd, "--all"))
	require.Equal(t, 0, got.Limit)
	require.False(t, got.LibrarySet)

	cmdtest.RequireUsageErrors(t, func(f *cmdutil.Factory) *cli.Command { return NewCmdList(f, nil) }, map[string][]string{
		"an argument":  {"extra"},
		"a zero limit": {"--limit", "0"},
	})
}

func TestTasksGetParsesItsOptions(t *testing.T) {
	f, _ := cmdtest.NewFactory(t, "")
	var got *GetOptions
	cmd := NewCmdGet(f, func(o *GetOptions) error { got = o; return nil })
	require.NoError(t, cmdtest.Run(t, cmd, "--json", "task_1", "task_2"))
	require.NotNil(t, got)
	require.Equal(t, []string{"task_1", "task_2"}, got.IDs)
	require.True(t, got.JSON)

	cmdtest.RequireUsageErrors(t, func(f *cmdutil.Factory) *cli.Command { return NewCmdGet(f, nil) }, map[string][]string{
		"no id": {},
	})
}

func TestTasksWatchParsesItsOptions(t *testing.T) {
	f, _ := cmdtest.NewFactory(t, "")
	var got *WatchOptions
	cmd := NewCmdWatch(f, func(o *WatchOptions) error { got = o; return nil })
	require.NoError(t, cmdtest.Run(t, cmd, "--library", "Family", "--interval", "5s", "--json", "-q"))
	require.NotNil(t, got)
	require.Equal(t, "Family", got.Library)
	require.Equal(t, 5*time.Second, got.Interval)
	require.True(t, got.JSON)

	require.NoError(t, cmdtest.Run(t, cmd))
	require.Equal(t, time.Second, got.Interval)
	require.False(t, got.JSON)

	cmdtest.RequireUsageErrors(t, func(f *cmdutil.Factory) *cli.Command { return NewCmdWatch(f, nil) }, map[string][]string{
		"an argument":    {"extra"},
		"a fast polling": {"--interval", "10ms"},
	})
}

func TestEventsTailParsesItsOptions(t *testing.T) {
	f, _ := cmdtest.NewFactory(t, "")
	var got *EventsTailOptions
	cmd := NewCmdEventsTail(f, func(o *EventsTailOptions) error { got = o; return nil })
	require.NoError(t, cmdtest.Run(t, cmd, "--library", "Family", "--after", "evt_1", "-f", "-n", "0",
		"--interval", "3s", "--json"))
	require.NotNil(t, got)
	require.Equal(t, "Family", got.Library)
	require.Equal(t, "evt_1", got.After)
	require.Equal(t, 0, got.Last)
	require.True(t, got.Follow)
	require.Equal(t, 3*time.Second, got.Interval)
	require.True(t, got.JSON)

	require.NoError(t, cmdtest.Run(t, cmd))
	require.Equal(t, -1, got.Last, "all events without -n")
	require.False(t, got.Follow)
	require.Equal(t, 2*time.Second, got.Interval)

	cmdtest.RequireUsageErrors(t, func(f *cmdutil.Factory) *cli.Command { return NewCmdEventsTail(f, nil) }, map[string][]string{
		"an argument":    {"extra"},
		"a fast polling": {"--interval", "50ms"},
		"a negative -n":  {"-n", "-1"},
	})
}
