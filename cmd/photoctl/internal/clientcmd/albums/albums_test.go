package albums

import (
	"testing"

	"github.com/stretchr/testify/require"
	"github.com/urfave/cli/v2"

	"github.com/photoctl/photoctl/client"
	"github.com/photoctl/photoctl/cmd/photoctl/internal/cmdtest"
	"github.com/photoctl/photoctl/cmd/photoctl/internal/cmdutil"
	"github.com/photoctl/photoctl/server/api"
)

func TestAlbumsListParsesItsOptions(t *testing.T) {
	f, _ := cmdtest.NewFactory(t, "")
	var got *ListOptions
	cmd := NewCmdList(f, func(o *ListOptions) error { got = o; return nil })
	require.NoError(t, cmdtest.Run(t, cmd, "--library", "Family", "--asset", "asset_1", "--json"))
	require.NotNil(t, got)
	require.Equal(t, "Family", got.Library)
	require.Equal(t, "asset_1", got.Asset)
	require.True(t, got.JSON)
	require.NotNil(t, got.Conn)

	cmdtest.RequireUsageErrors(t, func(f *cmdutil.Factory) *cli.Command { return NewCmdList(f, nil) }, map[string][]string{
		"an argument": {"extra"},
	})
}

func TestAlbumsGetAndDeleteParseTheirOptions(t *testing.T) {
	f, _ := cmdtest.NewFactory(t, "")
	var get *GetOptions
	require.NoError(t, cmdtest.Run(t, NewCmdGet(f, func(o *GetOptions) error { get = o; return nil }),
		"--library", "Family", "--json", "Summer 2024", "album_1"))
	require.Equal(t, []string{"Summer 2024", "album_1"}, get.IDs)
	require.Equal(t, "Family", get.Library)
	require.True(t, get.JSON)
	var del *DeleteOptions
	require.NoError(t, cmdtest.Run(t, NewCmdDelete(f, func(o *DeleteOptions) error { del = o; return nil }), "Screenshots"))
	require.Equal(t, []string{"Screenshots"}, del.IDs)
	require.Empty(t, del.Library)
	require.False(t, del.JSON)

	for _, newCmd := range []func(*cmdutil.Factory) *cli.Command{
		func(f *cmdutil.Factory) *cli.Command { return NewCmdGet(f, nil) },
		func(f *cmdutil.Factory) *cli.Command { return NewCmdDelete(f, nil) },
	} {
		cmdtest.RequireUsageErrors(t, newCmd, map[string][]string{"no album": {"--json"}})
	}
}

func TestAlbumsCreateParsesItsOptions(t *testing.T) {
	f, _ := cmdtest.NewFactory(t, "")
	var got *CreateOptions
	cmd := NewCmdCreate(f, func(o *CreateOptions) error { got = o; return nil })
	require.NoError(t, cmdtest.Run(t, cmd, "--library", "Family", "--description", "", "--json", "Summer 2024"))
	require.NotNil(t, got)
	require.Equal(t, "Family", got.Library)
	require.Equal(t, "Summer 2024", got.Name)
	require.NotNil(t, got.Description, "--description set, even empty")
	require.Empty(t, *got.Description)
	require.True(t, got.JSON)

	require.NoError(t, cmdtest.Run(t, cmd, "Birthdays"))
	require.Nil(t, got.Description)

	cmdtest.RequireUsageErrors(t, func(f *cmdutil.Factory) *cli.Command { return NewCmdCreate(f, nil) }, map[string][]string{
		"no name":   {},
		"two names": {"a", "b"},
	})
}

func TestAlbumsEditParsesItsOptions(t *testing.T) {
	f, _ := cmdtest.NewFactory(t, "")
	var got *EditOptions
	cmd := NewCmdEdit(f, func(o *EditOptions) error { got = o; return nil })
	require.NoError(t, cmdtest.Run(t, cmd, "--library", "Family", "--name", "Summer in Brittany", "--clear-description",
		"--json", "Summer 2024"))
	require.NotNil(t, got)
	require.Equal(t, "Family", got.Library)
	require.Equal(t, "Summer 2024", got.Album)
	name := "Summer in Brittany"
	require.Equal(t, api.AlbumUpdateRequest{Name: api.Optional[string]{Set: true, Value: &name},
		Description: api.Optional[string]{Set: true}}, got.Update)
	require.True(t, got.JSON)

	require.NoError(t, cmdtest.Run(t, cmd, "--description", "Brittany", "album_1"))
	require.False(t, got.Update.Name.Set)
	require.Equal(t, "Brittany", *got.Update.Description.Value)

	cmdtest.RequireUsageErrors(t, func(f *cmdutil.Factory) *cli.Command { return NewCmdEdit(f, nil) }, map[string][]string{
		"no album":          {"--name", "x"},
		"nothing to change": {"album_1"},
		"both descriptions": {"--description", "x", "--clear-description", "album_1"},
	})
}

func TestAlbumsCoverParsesItsOptions(t *testing.T) {
	f, _ := cmdtest.NewFactory(t, "")
	var got *CoverOptions
	cmd := NewCmdCover(f, func(o *CoverOptions) error { got = o; return nil })
	require.NoError(t, cmdtest.Run(t, cmd, "--library", "Family", "--json", "Summer 2024", "asset_1"))
	require.NotNil(t, got)
	require.Equal(t, "Family", got.Library)
	require.Equal(t, "Summer 2024", got.Album)
	require.Equal(t, "asset_1", *got.Asset)
	require.True(t, got.JSON)

	require.NoError(t, cmdtest.Run(t, cmd, "--auto", "album_1"))
	require.Nil(t, got.Asset)

	cmdtest.RequireUsageErrors(t, func(f *cmdutil.Factory) *cli.Command { return NewCmdCover(f, nil) }, map[string][]string{
		"no album":          {"--auto"},
		"no asset nor auto": {"album_1"},
		"asset and auto":    {"--auto", "album_1", "asset_1"},
		"three arguments":   {"album_1", "asset_1", "asset_2"},
	})
}

func TestAlbumsAddParsesItsOptions(t *testing.T) {
	f, _ := cmdtest.NewFactory(t, `[{"id": "asset_3"}, {"id": "asset_4"}]`)
	var got *AssetsOptions
	cmd := NewCmdAdd(f, func(o *AssetsOptions) error { got = o; return nil })
	require.NoError(t, cmdtest.Run(t, cmd, "--library", "Family", "--json", "Summer 2024", "asset_1", "asset_2"))
	require.NotNil(t, got)
	require.Equal(t, "Family", got.Library)
	require.Equal(t, "Summer 2024", got.Album)
	require.Equal(t, []string{"asset_1", "asset_2"}, got.Assets.Args)
	require.Nil(t, got.Filter)
	require.False(t, got.Remove)
	require.True(t, got.JSON)

	require.NoError(t, cmdtest.Run(t, cmd, "Summer 2024", "-"))
	ids, err := got.Assets.IDs()
	require.NoError(t, err)
	require.Equal(t, []string{"asset_3", "asset_4"}, ids, "- reads the JSON of ls --json")

	require.NoError(t, cmdtest.Run(t, cmd, "--after", "2024-07-01", "--before", "2024-09-01", "--covers-only", "Summer 2024"))
	require.Equal(t, &client.AssetQuery{After: "2024-07-01", Before: "2024-09-01", Stacks: "collapse"}, got.Filter)
	require.Empty(t, got.Assets.Args)

	cmdtest.RequireUsageErrors(t, func(f *cmdutil.Factory) *cli.Command { return NewCmdAdd(f, nil) }, map[string][]string{
		"no album":           {},
		"no asset":           {"Summer 2024"},
		"ids and filters":    {"--media-type", "video", "Summer 2024", "asset_1"},
		"order is no filter": {"--order", "asc", "Summer 2024"},
	})
}

func TestAlbumsRemoveParsesItsOptions(t *testing.T) {
	f, _ := cmdtest.NewFactory(t, "")
	var got *AssetsOptions
	cmd := NewCmdRemove(f, func(o *AssetsOptions) error { got = o; return nil })
	require.NoError(t, cmdtest.Run(t, cmd, "--library", "Family", "album_1", "asset_1"))
	require.NotNil(t, got)
	require.Equal(t, "Family", got.Library)
	require.Equal(t, "album_1", got.Album)
	require.Equal(t, []string{"asset_1"}, got.Assets.Args)
	require.True(t, got.Remove)
	require.False(t, got.JSON)

	require.NoError(t, cmdtest.Run(t, cmd, "album_1", "-"))
	_, err := got.Assets.IDs()
	var usage *cmdutil.UsageError
	require.ErrorAs(t, err, &usage, "nothing on standard input")

	cmdtest.RequireUsageErrors(t, func(f *cmdutil.Factory) *cli.Command { return NewCmdRemove(f, nil) }, map[string][]string{
		"no album": {},
		"no asset": {"album_1"},
	})
}
