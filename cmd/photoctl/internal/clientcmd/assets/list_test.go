package assets

import (
	"testing"

	"github.com/stretchr/testify/require"
	"github.com/urfave/cli/v2"

	"github.com/photoctl/photoctl/client"
	"github.com/photoctl/photoctl/cmd/photoctl/internal/cmdtest"
	"github.com/photoctl/photoctl/cmd/photoctl/internal/cmdutil"
)

func TestListParsesItsOptions(t *testing.T) {
	f, _ := cmdtest.NewFactory(t, "")
	var got *ListOptions
	cmd := NewCmdList(f, "ls", func(o *ListOptions) error { got = o; return nil })
	require.NoError(t, cmdtest.Run(t, cmd, "--library", "Family", "--id", "asset_1,asset_2", "--after", "2024-05-01",
		"--before", "2024-06-01", "--center", "2.3,48.8", "--radius", "500", "--bbox", "1,2,3,4", "--stack", "stack_1",
		"--media-type", "image", "--min-rating", "3", "--state", "all", "--order", "asc", "--covers-only", "-n", "7", "--json"))
	require.NotNil(t, got)
	three := 3
	require.Equal(t, cmdutil.AssetFilter{Library: "Family", Set: true, Query: client.AssetQuery{
		IDs: []string{"asset_1", "asset_2"}, After: "2024-05-01", Before: "2024-06-01", Center: "2.3,48.8", Radius: 500,
		BBox: "1,2,3,4", StackID: "stack_1", MediaType: "image", MinRating: &three, State: "all", Order: "asc",
		Stacks: "collapse"}}, got.Filter)
	require.Equal(t, 7, got.Limit)
	require.True(t, got.JSON)
	require.NotNil(t, got.IO)
	require.NotNil(t, got.Conn)
}

func TestListDefaultsAndAll(t *testing.T) {
	f, _ := cmdtest.NewFactory(t, "")
	var got *ListOptions
	cmd := NewCmdList(f, "ls", func(o *ListOptions) error { got = o; return nil })
	require.NoError(t, cmdtest.Run(t, cmd))
	require.Equal(t, 50, got.Limit)
	require.Equal(t, cmdutil.AssetFilter{Query: client.AssetQuery{Stacks: "expand"}}, got.Filter)
	require.False(t, got.JSON)

	require.NoError(t, cmdtest.Run(t, cmd, "--all", "--limit", "0"))
	require.Zero(t, got.Limit)
}

func TestListRefusesBadCommandLines(t *testing.T) {
	cmdtest.RequireUsageErrors(t, func(f *cmdutil.Factory) *cli.Command { return NewCmdList(f, "ls", nil) }, map[string][]string{
		"an argument":    {"extra"},
		"a zero limit":   {"--limit", "0"},
		"a minus limit":  {"-n", "-1"},
		"an extra after": {"--all", "x"},
	})
}

func TestAssetsListIsLs(t *testing.T) {
	f, _ := cmdtest.NewFactory(t, "")
	group := NewCmdAssets(f)
	require.Len(t, group.Subcommands, 1)
	require.Equal(t, "list", group.Subcommands[0].Name)
	ls := NewCmdList(f, "ls", nil)
	require.Equal(t, ls.Usage, group.Subcommands[0].Usage)
	require.Equal(t, len(ls.Flags), len(group.Subcommands[0].Flags))

	cmdtest.RequireUsageErrors(t, NewCmdAssets, map[string][]string{"an unknown subcommand": {"lst"}})
}

func TestGetParsesItsOptions(t *testing.T) {
	f, _ := cmdtest.NewFactory(t, "")
	var got *GetOptions
	cmd := NewCmdGet(f, func(o *GetOptions) error { got = o; return nil })
	require.NoError(t, cmdtest.Run(t, cmd, "--json", "asset_1", "asset_2"))
	require.Equal(t, []string{"asset_1", "asset_2"}, got.IDs)
	require.True(t, got.JSON)

	cmdtest.RequireUsageErrors(t, func(f *cmdutil.Factory) *cli.Command { return NewCmdGet(f, nil) }, map[string][]string{
		"no id": {},
	})
}

func TestSearchParsesItsOptions(t *testing.T) {
	f, _ := cmdtest.NewFactory(t, "")
	var got *SearchOptions
	cmd := NewCmdSearch(f, func(o *SearchOptions) error { got = o; return nil })
	require.NoError(t, cmdtest.Run(t, cmd, "--library", "Family", "--album", "Summer", "--person", "Ann,Bob",
		"--person", "person_3", "--after", "2024-01-01", "--before", "2025-01-01", "--image", "scan.jpg",
		"--center", "2.3,48.8", "--radius", "100", "--bbox", "1,2,3,4", "--media-type", "video", "--state", "trashed",
		"--limit", "5", "--json", "kyoto", "temple"))
	require.Equal(t, client.SearchQuery{Query: "kyoto temple", After: "2024-01-01", Before: "2025-01-01",
		Center: "2.3,48.8", Radius: 100, BBox: "1,2,3,4", MediaType: "video", State: "trashed", PageSize: cmdutil.PageSizeFor(5)}, got.Query)
	require.Equal(t, "Family", got.Library)
	require.Equal(t, "Summer", got.Album)
	require.Equal(t, []string{"Ann", "Bob", "person_3"}, got.People)
	require.Equal(t, "scan.jpg", got.Image)
	require.Equal(t, 5, got.Limit)
	require.True(t, got.JSON)
	require.Equal(t, "photoctl search", got.Help)

	require.NoError(t, cmdtest.Run(t, cmd, "-q", "beach", "--all"))
	require.Equal(t, "beach", got.Query.Query)
	require.Zero(t, got.Limit)
	require.Empty(t, got.People)
}

func TestSearchRefusesBadCommandLines(t *testing.T) {
	cmdtest.RequireUsageErrors(t, func(f *cmdutil.Factory) *cli.Command { return NewCmdSearch(f, nil) }, map[string][]string{
		"words and --query": {"--query", "beach", "sand"},
		"a zero limit":      {"--limit", "0", "beach"},
	})
}
