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
	f, _ := cmdtest.NewFactory(t, "")
	var got *ListOptions
	cmd := NewCmdList(f, func(o *ListOptions) error { got = o; return nil })
	require.NoError(t, cmdtest.Run(t, cmd, "--library", "Family", "--json"))
	require.NotNil(t, got)
	require.Equal(t, "Family", got.Library)
	require.True(t, got.JSON)
	require.NotNil(t, got.Conn)

	cmdtest.RequireUsageErrors(t, func(f *cmdutil.Factory) *cli.Command { return NewCmdList(f, nil) }, map[string][]string{
		"an argument": {"extra"},
	})
}

func TestStacksGetAndDeleteParseTheirOptions(t *testing.T) {
	f, _ := cmdtest.NewFactory(t, "")
	var get *GetOptions
	require.NoError(t, cmdtest.Run(t, NewCmdGet(f, func(o *GetOptions) error { get = o; return nil }), "--json", "stack_1", "stack_2"))
	require.Equal(t, []string{"stack_1", "stack_2"}, get.IDs)
	require.True(t, get.JSON)
	var del *DeleteOptions
	require.NoError(t, cmdtest.Run(t, NewCmdDelete(f, func(o *DeleteOptions) error { del = o; return nil }), "stack_1"))
	require.Equal(t, []string{"stack_1"}, del.IDs)
	require.False(t, del.JSON)

	for _, newCmd := range []func(*cmdutil.Factory) *cli.Command{
		func(f *cmdutil.Factory) *cli.Command { return NewCmdGet(f, nil) },
		func(f *cmdutil.Factory) *cli.Command { return NewCmdDelete(f, nil) },
	} {
		cmdtest.RequireUsageErrors(t, newCmd, map[string][]string{"no id": {}})
	}
}

func TestStacksCreateParsesItsOptions(t *testing.T) {
	f, _ := cmdtest.NewFactory(t, "asset_3\nasset_4\n")
	var got *CreateOptions
	cmd := NewCmdCreate(f, func(o *CreateOptions) error { got = o; return nil })
	require.NoError(t, cmdtest.Run(t, cmd, "--library", "Family", "--cover", "asset_2", "--json", "asset_1", "asset_2"))
	require.NotNil(t, got)
	require.Equal(t, "Family", got.Library)
	require.Equal(t, "asset_2", got.Cover)
	require.True(t, got.JSON)
	ids, err := got.Assets.IDs()
	require.NoError(t, err)
	require.Equal(t, []string{"asset_1", "asset_2"}, ids)

	require.NoError(t, cmdtest.Run(t, cmd, "-"))
	require.Equal(t, []string{"-"}, got.Assets.Args)
	ids, err = got.Assets.IDs()
	require.NoError(t, err)
	require.Equal(t, []string{"asset_3", "asset_4"}, ids, "- reads standard input")

	cmdtest.RequireUsageErrors(t, func(f *cmdutil.Factory) *cli.Command { return NewCmdCreate(f, nil) }, map[string][]string{
		"no asset": {"--cover", "asset_1"},
	})
}

func TestStacksEditParsesItsOptions(t *testing.T) {
	f, _ := cmdtest.NewFactory(t, "")
	var got *EditOptions
	cmd := NewCmdEdit(f, func(o *EditOptions) error { got = o; return nil })
	require.NoError(t, cmdtest.Run(t, cmd, "--cover", "asset_2", "--add", "asset_3,asset_4", "--remove", "asset_5",
		"--json", "stack_1"))
	require.NotNil(t, got)
	require.Equal(t, "stack_1", got.ID)
	cover := "asset_2"
	require.Equal(t, api.StackUpdateRequest{CoverAssetID: &cover, AddAssetIDs: []string{"asset_3", "asset_4"},
		RemoveAssetIDs: []string{"asset_5"}}, got.Update)
	require.True(t, got.JSON)

	cmdtest.RequireUsageErrors(t, func(f *cmdutil.Factory) *cli.Command { return NewCmdEdit(f, nil) }, map[string][]string{
		"no stack":       {"--cover", "asset_1"},
		"two stacks":     {"--cover", "asset_1", "stack_1", "stack_2"},
		"nothing to set": {"stack_1"},
	})
}
