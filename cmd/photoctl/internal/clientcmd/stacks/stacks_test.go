package stacks

import (
	"testing"

	"github.com/stretchr/testify/require"
	"github.com/urfave/cli/v2"

	"github.com/photoctl/photoctl/cmd/photoctl/internal/cmdtest"
	"github.com/photoctl/photoctl/cmd/photoctl/internal/cmdutil"
	"github.com/photoctl/photoctl/server/api"
)

func TestStacksListParsesItsOptions(t *testing.T) {
	parse := func(args ...string) *ListOptions { return cmdtest.Parse(t, NewCmdList, "", args...) }
	got := parse("--library", "Family", "--json")
	require.Equal(t, "Family", got.Library)
	require.True(t, got.JSON)
	require.NotNil(t, got.Conn)

	cmdtest.RequireUsageErrors(t, cmdtest.WithoutRun(NewCmdList), map[string][]string{
		"an argument": {"extra"},
	})
}

func TestStacksGetAndDeleteParseTheirOptions(t *testing.T) {
	get := cmdtest.Parse(t, NewCmdGet, "", "--json", "stack_1", "stack_2")
	require.Equal(t, []string{"stack_1", "stack_2"}, get.IDs)
	require.True(t, get.JSON)
	del := cmdtest.Parse(t, NewCmdDelete, "", "stack_1")
	require.Equal(t, []string{"stack_1"}, del.IDs)
	require.False(t, del.JSON)

	for _, newCmd := range []func(*cmdutil.Factory) *cli.Command{
		cmdtest.WithoutRun(NewCmdGet),
		cmdtest.WithoutRun(NewCmdDelete),
	} {
		cmdtest.RequireUsageErrors(t, newCmd, map[string][]string{"no id": {}})
	}
}

func TestStacksCreateParsesItsOptions(t *testing.T) {
	parse := func(args ...string) *CreateOptions {
		return cmdtest.Parse(t, NewCmdCreate, "asset_3\nasset_4\n", args...)
	}
	got := parse("--library", "Family", "--cover", "asset_2", "--json", "asset_1", "asset_2")
	require.Equal(t, "Family", got.Library)
	require.Equal(t, "asset_2", got.Cover)
	require.True(t, got.JSON)
	ids, err := got.Assets.IDs()
	require.NoError(t, err)
	require.Equal(t, []string{"asset_1", "asset_2"}, ids)

	got = parse("-")
	require.Equal(t, []string{"-"}, got.Assets.Args)
	ids, err = got.Assets.IDs()
	require.NoError(t, err)
	require.Equal(t, []string{"asset_3", "asset_4"}, ids, "- reads standard input")

	cmdtest.RequireUsageErrors(t, cmdtest.WithoutRun(NewCmdCreate), map[string][]string{
		"no asset": {"--cover", "asset_1"},
	})
}

func TestStacksEditParsesItsOptions(t *testing.T) {
	parse := func(args ...string) *EditOptions { return cmdtest.Parse(t, NewCmdEdit, "", args...) }
	got := parse("--cover", "asset_2", "--add", "asset_3,asset_4", "--remove", "asset_5",
		"--json", "stack_1")
	require.Equal(t, "stack_1", got.ID)
	cover := "asset_2"
	require.Equal(t, api.StackUpdateRequest{CoverAssetID: &cover, AddAssetIDs: []string{"asset_3", "asset_4"},
		RemoveAssetIDs: []string{"asset_5"}}, got.Update)
	require.True(t, got.JSON)

	cmdtest.RequireUsageErrors(t, cmdtest.WithoutRun(NewCmdEdit), map[string][]string{
		"no stack":       {"--cover", "asset_1"},
		"two stacks":     {"--cover", "asset_1", "stack_1", "stack_2"},
		"nothing to set": {"stack_1"},
	})
}
