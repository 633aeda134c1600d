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
	parse := func(args ...string) *ListOptions { return cmdtest.Parse(t, NewCmdList, "", args...) }
	got := parse("--library", "Family", "--asset", "asset_1", "--json")
	require.Equal(t, "Family", got.Library)
	require.Equal(t, "asset_1", got.Asset)
	require.True(t, got.JSON)
	require.NotNil(t, got.Conn)

	cmdtest.RequireUsageErrors(t, cmdtest.WithoutRun(NewCmdList), map[string][]string{
		"an argument": {"extra"},
	})
}

func TestAlbumsGetAndDeleteParseTheirOptions(t *testing.T) {
	get := cmdtest.Parse(t, NewCmdGet, "", "--library", "Family", "--json", "Summer 2024", "album_1")
	require.Equal(t, []string{"Summer 2024", "album_1"}, get.IDs)
	require.Equal(t, "Family", get.Library)
	require.True(t, get.JSON)
	del := cmdtest.Parse(t, NewCmdDelete, "", "Screenshots")
	require.Equal(t, []string{"Screenshots"}, del.IDs)
	require.Empty(t, del.Library)
	require.False(t, del.JSON)

	for _, newCmd := range []func(*cmdutil.Factory) *cli.Command{
		cmdtest.WithoutRun(NewCmdGet),
		cmdtest.WithoutRun(NewCmdDelete),
	} {
		cmdtest.RequireUsageErrors(t, newCmd, map[string][]string{"no album": {"--json"}})
	}
}

func TestAlbumsCreateParsesItsOptions(t *testing.T) {
	parse := func(args ...string) *CreateOptions { return cmdtest.Parse(t, NewCmdCreate, "", args...) }
	got := parse("--library", "Family", "--description", "", "--json", "Summer 2024")
	require.Equal(t, "Family", got.Library)
	require.Equal(t, "Summer 2024", got.Name)
	require.NotNil(t, got.Description, "--description set, even empty")
	require.Empty(t, *got.Description)
	require.True(t, got.JSON)

	got = parse("Birthdays")
	require.Nil(t, got.Description)

	cmdtest.RequireUsageErrors(t, cmdtest.WithoutRun(NewCmdCreate), map[string][]string{
		"no name":   {},
		"two names": {"a", "b"},
	})
}

func TestAlbumsEditParsesItsOptions(t *testing.T) {
	parse := func(args ...string) *EditOptions { return cmdtest.Parse(t, NewCmdEdit, "", args...) }
	got := parse("--library", "Family", "--name", "Summer in Brittany", "--clear-description",
		"--json", "Summer 2024")
	require.Equal(t, "Family", got.Library)
	require.Equal(t, "Summer 2024", got.Album)
	name := "Summer in Brittany"
	require.Equal(t, api.AlbumUpdateRequest{Name: api.Optional[string]{Set: true, Value: &name},
		Description: api.Optional[string]{Set: true}}, got.Update)
	require.True(t, got.JSON)

	got = parse("--description", "Brittany", "album_1")
	require.False(t, got.Update.Name.Set)
	require.Equal(t, "Brittany", *got.Update.Description.Value)

	cmdtest.RequireUsageErrors(t, cmdtest.WithoutRun(NewCmdEdit), map[string][]string{
		"no album":          {"--name", "x"},
		"nothing to change": {"album_1"},
		"both descriptions": {"--description", "x", "--clear-description", "album_1"},
	})
}

func TestAlbumsCoverParsesItsOptions(t *testing.T) {
	parse := func(args ...string) *CoverOptions { return cmdtest.Parse(t, NewCmdCover, "", args...) }
	got := parse("--library", "Family", "--json", "Summer 2024", "asset_1")
	require.Equal(t, "Family", got.Library)
	require.Equal(t, "Summer 2024", got.Album)
	require.Equal(t, "asset_1", *got.Asset)
	require.True(t, got.JSON)

	got = parse("--auto", "album_1")
	require.Nil(t, got.Asset)

	cmdtest.RequireUsageErrors(t, cmdtest.WithoutRun(NewCmdCover), map[string][]string{
		"no album":          {"--auto"},
		"no asset nor auto": {"album_1"},
		"asset and auto":    {"--auto", "album_1", "asset_1"},
		"three arguments":   {"album_1", "asset_1", "asset_2"},
	})
}

func TestAlbumsAddParsesItsOptions(t *testing.T) {
	parse := func(args ...string) *AssetsOptions {
		return cmdtest.Parse(t, NewCmdAdd, `[{"id": "asset_3"}, {"id": "asset_4"}]`, args...)
	}
	got := parse("--library", "Family", "--json", "Summer 2024", "asset_1", "asset_2")
	require.Equal(t, "Family", got.Library)
	require.Equal(t, "Summer 2024", got.Album)
	require.Equal(t, []string{"asset_1", "asset_2"}, got.Assets.Args)
	require.Nil(t, got.Filter)
	require.False(t, got.Remove)
	require.True(t, got.JSON)

	got = parse("Summer 2024", "-")
	ids, err := got.Assets.IDs()
	require.NoError(t, err)
	require.Equal(t, []string{"asset_3", "asset_4"}, ids, "- reads the JSON of ls --json")

	got = parse("--after", "2024-07-01", "--before", "2024-09-01", "--covers-only", "Summer 2024")
	require.Equal(t, &client.AssetQuery{After: "2024-07-01", Before: "2024-09-01", Stacks: "collapse"}, got.Filter)
	require.Empty(t, got.Assets.Args)

	cmdtest.RequireUsageErrors(t, cmdtest.WithoutRun(NewCmdAdd), map[string][]string{
		"no album":           {},
		"no asset":           {"Summer 2024"},
		"ids and filters":    {"--media-type", "video", "Summer 2024", "asset_1"},
		"order is no filter": {"--order", "asc", "Summer 2024"},
	})
}

func TestAlbumsRemoveParsesItsOptions(t *testing.T) {
	parse := func(args ...string) *AssetsOptions { return cmdtest.Parse(t, NewCmdRemove, "", args...) }
	got := parse("--library", "Family", "album_1", "asset_1")
	require.Equal(t, "Family", got.Library)
	require.Equal(t, "album_1", got.Album)
	require.Equal(t, []string{"asset_1"}, got.Assets.Args)
	require.True(t, got.Remove)
	require.False(t, got.JSON)

	got = parse("album_1", "-")
	_, err := got.Assets.IDs()
	var usage *cmdutil.UsageError
	require.ErrorAs(t, err, &usage, "nothing on standard input")

	cmdtest.RequireUsageErrors(t, cmdtest.WithoutRun(NewCmdRemove), map[string][]string{
		"no album": {},
		"no asset": {"album_1"},
	})
}
