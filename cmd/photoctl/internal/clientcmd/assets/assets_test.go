package assets

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/require"
	"github.com/urfave/cli/v2"

	"github.com/photoctl/photoctl/client"
	"github.com/photoctl/photoctl/cmd/photoctl/internal/cmdtest"
	"github.com/photoctl/photoctl/cmd/photoctl/internal/cmdutil"
	"github.com/photoctl/photoctl/server/api"
)

// named fixes the name of a command that has a synonym (ls and assets
// list, download and export, upload and import).
func named[O any](newCmd func(*cmdutil.Factory, string, func(*O) error) *cli.Command, name string) func(*cmdutil.Factory, func(*O) error) *cli.Command {
	return func(f *cmdutil.Factory, runF func(*O) error) *cli.Command { return newCmd(f, name, runF) }
}

func TestListParsesItsOptions(t *testing.T) {
	got := cmdtest.Parse(t, named(NewCmdList, "ls"), "", "--library", "Family", "--id", "asset_1,asset_2", "--after", "2024-05-01", "--before", "2024-06-01", "--center", "2.3,48.8", "--radius", "500", "--bbox", "1,2,3,4", "--stack", "stack_1", "--media-type", "image", "--min-rating", "3", "--state", "all", "--order", "asc", "--covers-only", "-n", "7", "--json")
	three := 3
	require.Equal(t, cmdutil.AssetFilter{Library: "Family", Set: true, Query: client.AssetQuery{
		IDs: []string{"asset_1", "asset_2"}, After: "2024-05-01", Before: "2024-06-01", Center: "2.3,48.8", Radius: 500,
		BBox: "1,2,3,4", StackID: "stack_1", MediaType: "image", MinRating: &three, State: "all", Order: "asc",
		Stacks: "collapse"}}, got.Filter)
	require.Equal(t, 7, got.Limit)
	require.True(t, got.JSON)
	require.NotNil(t, got.IO)
	require.NotNil(t, got.Conn)

	got = cmdtest.Parse(t, named(NewCmdList, "ls"), "")
	require.Equal(t, 50, got.Limit)
	require.Equal(t, cmdutil.AssetFilter{Query: client.AssetQuery{Stacks: "expand"}}, got.Filter)
	require.False(t, got.JSON)
	require.Zero(t, cmdtest.Parse(t, named(NewCmdList, "ls"), "", "--all", "--limit", "0").Limit)

	cmdtest.RequireUsageErrors(t, cmdtest.WithoutRun(named(NewCmdList, "ls")), map[string][]string{
		"an argument":         {"extra"},
		"a zero limit":        {"--limit", "0"},
		"a minus limit":       {"-n", "-1"},
		"an argument, --all ": {"--all", "x"},
	})
}

func TestAssetsListIsLs(t *testing.T) {
	f, _ := cmdtest.NewFactory(t, "")
	group, ls := NewCmdAssets(f), NewCmdList(f, "ls", nil)
	require.Len(t, group.Subcommands, 1)
	require.Equal(t, "list", group.Subcommands[0].Name)
	require.Equal(t, ls.Usage, group.Subcommands[0].Usage)
	require.Equal(t, len(ls.Flags), len(group.Subcommands[0].Flags))
	cmdtest.RequireUsageErrors(t, NewCmdAssets, map[string][]string{"an unknown subcommand": {"lst"}})
}

func TestGetParsesItsOptions(t *testing.T) {
	got := cmdtest.Parse(t, NewCmdGet, "", "--json", "asset_1", "asset_2")
	require.Equal(t, []string{"asset_1", "asset_2"}, got.IDs)
	require.True(t, got.JSON)
	cmdtest.RequireUsageErrors(t, cmdtest.WithoutRun(NewCmdGet), map[string][]string{"no id": {}})
}

func TestSearchParsesItsOptions(t *testing.T) {
	got := cmdtest.Parse(t, NewCmdSearch, "", "--library", "Family", "--album", "Summer", "--person", "Ann,Bob", "--person", "person_3", "--after", "2024-01-01", "--before", "2025-01-01", "--image", "scan.jpg", "--center", "2.3,48.8", "--radius", "100", "--bbox", "1,2,3,4", "--media-type", "video", "--state", "trashed", "--limit", "5", "--json", "kyoto", "temple")
	require.Equal(t, client.SearchQuery{Query: "kyoto temple", After: "2024-01-01", Before: "2025-01-01",
		Center: "2.3,48.8", Radius: 100, BBox: "1,2,3,4", MediaType: "video", State: "trashed",
		PageSize: cmdutil.PageSizeFor(5)}, got.Query)
	require.Equal(t, "Family", got.Library)
	require.Equal(t, "Summer", got.Album)
	require.Equal(t, []string{"Ann", "Bob", "person_3"}, got.People)
	require.Equal(t, "scan.jpg", got.Image)
	require.Equal(t, 5, got.Limit)
	require.True(t, got.JSON)
	require.Equal(t, "photoctl search", got.Help)

	got = cmdtest.Parse(t, NewCmdSearch, "", "-q", "beach", "--all")
	require.Equal(t, "beach", got.Query.Query)
	require.Zero(t, got.Limit)
	require.Empty(t, got.People)

	cmdtest.RequireUsageErrors(t, cmdtest.WithoutRun(NewCmdSearch), map[string][]string{
		"words and --query": {"--query", "beach", "sand"},
		"a zero limit":      {"--limit", "0", "beach"},
	})
}

func TestEditParsesItsOptions(t *testing.T) {
	got := cmdtest.Parse(t, NewCmdEdit, "", "--rating", "5", "--description", "First day", "--latitude", "48.5", "--longitude", "2.25", "--datetime", "2019-07-14T21:30:00+02:00", "--json", "asset_1")
	five, desc, lat, lon, when := 5, "First day", 48.5, 2.25, "2019-07-14T21:30:00+02:00"
	require.Equal(t, "asset_1", got.ID)
	require.Equal(t, api.AssetChange{Rating: api.Optional[int]{Set: true, Value: &five},
		Description: api.Optional[string]{Set: true, Value: &desc}, Latitude: api.Optional[float64]{Set: true, Value: &lat},
		Longitude: api.Optional[float64]{Set: true, Value: &lon}, OriginalDatetime: api.Optional[string]{Set: true, Value: &when}},
		got.Change)
	require.True(t, got.JSON)

	got = cmdtest.Parse(t, NewCmdEdit, "", "--clear", "rating,location", "--clear", "datetime", "asset_2")
	require.Equal(t, api.AssetChange{Rating: api.Optional[int]{Set: true}, Latitude: api.Optional[float64]{Set: true},
		Longitude: api.Optional[float64]{Set: true}, OriginalDatetime: api.Optional[string]{Set: true}}, got.Change)
	require.False(t, got.JSON)

	cmdtest.RequireUsageErrors(t, cmdtest.WithoutRun(NewCmdEdit), map[string][]string{
		"no id":              {"--rating", "5"},
		"two ids":            {"--rating", "5", "a", "b"},
		"nothing to change":  {"asset_1"},
		"latitude alone":     {"--latitude", "1", "asset_1"},
		"an unknown --clear": {"--clear", "name", "asset_1"},
	})
}

func TestBulkEditParsesAFileOrStandardInput(t *testing.T) {
	path := filepath.Join(t.TempDir(), "ratings.csv")
	require.NoError(t, os.WriteFile(path, []byte("id,rating\nasset_1,5\nasset_2,null\n"), 0o600))
	got := cmdtest.Parse(t, NewCmdBulkEdit, "", "--library", "Family", "--batch-size", "10", "--dry-run", "--json", path)
	five := 5
	require.Equal(t, []editRow{{line: 2, id: "asset_1", change: api.AssetChange{Rating: api.Optional[int]{Set: true, Value: &five}}},
		{line: 3, id: "asset_2", change: api.AssetChange{Rating: api.Optional[int]{Set: true}}}}, got.Rows)
	require.Equal(t, "Family", got.Filter.Library)
	require.Equal(t, 10, got.BatchSize)
	require.True(t, got.DryRun)
	require.True(t, got.JSON)
	require.Equal(t, api.AssetChange{}, got.Change)

	got = cmdtest.Parse(t, NewCmdBulkEdit, `{"id":"asset_1","description":"Summer"}`+"\n", "--format", "jsonl", "-")
	desc := "Summer"
	require.Equal(t, []editRow{{line: 1, id: "asset_1", change: api.AssetChange{Description: api.Optional[string]{Set: true, Value: &desc}}}}, got.Rows)
	require.Equal(t, client.MaxBulkUpdate, got.BatchSize)
}

func TestBulkEditParsesAFilter(t *testing.T) {
	got := cmdtest.Parse(t, NewCmdBulkEdit, "", "--after", "2023-07-01", "--covers-only", "--description", "Brittany", "-q")
	desc := "Brittany"
	require.Nil(t, got.Rows)
	require.Equal(t, api.AssetChange{Description: api.Optional[string]{Set: true, Value: &desc}}, got.Change)
	require.Equal(t, cmdutil.AssetFilter{Set: true, Query: client.AssetQuery{After: "2023-07-01", Stacks: "collapse"}}, got.Filter)
	require.False(t, got.DryRun)

	got = cmdtest.Parse(t, NewCmdBulkEdit, "", "--all-assets", "--rating", "1")
	require.False(t, got.Filter.Set)
	require.True(t, got.Change.Rating.Set)
}

func TestBulkEditRefusesBadCommandLines(t *testing.T) {
	dir := t.TempDir()
	empty := filepath.Join(dir, "empty.csv")
	require.NoError(t, os.WriteFile(empty, []byte("id,rating\n"), 0o600))
	cmdtest.RequireUsageErrors(t, cmdtest.WithoutRun(NewCmdBulkEdit), map[string][]string{
		"two files":            {"a.csv", "b.csv"},
		"a zero batch":         {"--batch-size", "0", "a.csv"},
		"a batch too big":      {"--batch-size", "201", "a.csv"},
		"an unknown format":    {"--format", "xml", "a.csv"},
		"no format":            {filepath.Join(dir, "edits")},
		"a missing file":       {filepath.Join(dir, "missing.csv")},
		"a file with no rows":  {empty},
		"no file nor filter":   {"--rating", "5"},
		"a filter, no change":  {"--after", "2024-01-01"},
		"all, a bad --clear":   {"--all-assets", "--clear", "name"},
		"stdin, bad JSON":      {"--format", "json", "-"},
		"latitude without lon": {"--all-assets", "--latitude", "1"},
	})
}

func TestTrashRestoreRemoveParseTheirOptions(t *testing.T) {
	for name, newCmd := range map[string]func(*cmdutil.Factory, func(*LifecycleOptions) error) *cli.Command{
		"trash": NewCmdTrash, "restore": NewCmdRestore, "rm": NewCmdRemove,
	} {
		t.Run(name, func(t *testing.T) {
			got := cmdtest.Parse(t, newCmd, "", "--library", "Family", "--json", "asset_1", "asset_2")
			require.Equal(t, name, got.lc.name)
			require.Equal(t, []string{"asset_1", "asset_2"}, got.IDs)
			require.Equal(t, "Family", got.Library)
			require.False(t, got.FromStdin)
			require.True(t, got.JSON)
			require.Equal(t, name == "rm", got.lc.confirm)
			if name != "rm" {
				cmdtest.RequireUsageErrors(t, cmdtest.WithoutRun(newCmd), map[string][]string{"no id": {}, "nothing on stdin": {"-"}})
			}
		})
	}
	cmdtest.RequireUsageErrors(t, cmdtest.WithoutRun(NewCmdRemove), map[string][]string{
		"no id":               {"--yes"},
		"nothing on stdin":    {"--yes", "-"},
		"stdin without --yes": {"-"},
	})
}

func TestTrashReadsIDsFromStandardInput(t *testing.T) {
	got := cmdtest.Parse(t, NewCmdTrash, `[{"id":"asset_1"},"asset_2"]`, "-")
	require.Equal(t, []string{"asset_1", "asset_2"}, got.IDs)
	require.True(t, got.FromStdin)

	got = cmdtest.Parse(t, NewCmdRemove, "asset_3\nasset_4 asset_5\n", "--yes", "-")
	require.Equal(t, []string{"asset_3", "asset_4", "asset_5"}, got.IDs)
	require.True(t, got.Yes)

	for _, stdin := range []string{`[{"name":"x"}]`, `[1,`} {
		f, _ := cmdtest.NewFactory(t, stdin)
		var usage *cmdutil.UsageError
		require.ErrorAs(t, cmdtest.Run(t, NewCmdTrash(f, nil), "-"), &usage, stdin)
	}
}

func TestDownloadParsesItsOptions(t *testing.T) {
	got := cmdtest.Parse(t, named(NewCmdDownload, "download"), "", "-o", "/backup", "--by-date", "-j", "8", "--json", "asset_1", "asset_2")
	require.Equal(t, []string{"asset_1", "asset_2"}, got.IDs)
	require.Equal(t, "/backup", got.Dir)
	require.True(t, got.ByDate)
	require.Equal(t, 8, got.Jobs)
	require.True(t, got.JSON)
	require.False(t, got.Filter.Set)

	got = cmdtest.Parse(t, named(NewCmdDownload, "export"), "", "--media-type", "video", "--library", "Family")
	require.Empty(t, got.IDs)
	require.Equal(t, ".", got.Dir)
	require.Equal(t, 4, got.Jobs)
	require.Equal(t, cmdutil.AssetFilter{Library: "Family", Set: true,
		Query: client.AssetQuery{MediaType: "video", Stacks: "expand"}}, got.Filter)

	f, _ := cmdtest.NewFactory(t, "")
	require.False(t, NewCmdDownload(f, "download", nil).Hidden)
	require.True(t, NewCmdDownload(f, "export", nil).Hidden)
	cmdtest.RequireUsageErrors(t, cmdtest.WithoutRun(named(NewCmdDownload, "download")), map[string][]string{
		"no jobs":          {"-j", "0"},
		"ids and a filter": {"--after", "2024-01-01", "asset_1"},
	})
}

func TestUploadParsesItsOptions(t *testing.T) {
	t.Setenv("XDG_CACHE_HOME", "/cache")
	dir := t.TempDir()
	require.NoError(t, os.Mkdir(filepath.Join(dir, "DCIM"), 0o755))
	got := cmdtest.Parse(t, named(NewCmdUpload, "upload"), "", "--include", "*.jpg", "--exclude", "*.MOV", "--library", "Family", "-j", "8", "--album", "Trip", "--dry-run", "-v", dir)
	require.Equal(t, []string{dir}, got.Import.Paths)
	require.False(t, got.Import.Recursive)
	require.Equal(t, []string{"*.jpg"}, got.Import.Include)
	require.Equal(t, []string{"*.MOV"}, got.Import.Exclude)
	require.Equal(t, "Family", got.Library)
	require.Empty(t, got.Import.LibraryID) // resolved once connected
	require.Equal(t, 8, got.Import.Jobs)
	require.Equal(t, "Trip", got.Import.Album)
	require.True(t, got.Import.DryRun)
	require.Equal(t, filepath.Join("/cache", "photoctl"), got.Import.CacheDir)
	require.Contains(t, got.Import.DeviceID, "photoctl@")
	require.Equal(t, []string{dir}, got.OnlyFolders)
	require.True(t, got.Verbose)
	require.False(t, got.JSON)
	require.Equal(t, "photoctl upload", got.Help)

	got = cmdtest.Parse(t, named(NewCmdUpload, "import"), "", "-r", "--no-index", "--album-from-folder", "-q", "--json", dir)
	require.True(t, got.Import.Recursive)
	require.True(t, got.Import.AlbumFromFolder)
	require.Empty(t, got.Import.CacheDir)
	require.Empty(t, got.OnlyFolders)
	require.Equal(t, 4, got.Import.Jobs)
	require.True(t, got.JSON)

	f, _ := cmdtest.NewFactory(t, "")
	require.False(t, NewCmdUpload(f, "upload", nil).Hidden)
	require.True(t, NewCmdUpload(f, "import", nil).Hidden)
	cmdtest.RequireUsageErrors(t, cmdtest.WithoutRun(named(NewCmdUpload, "upload")), map[string][]string{
		"no path":           {},
		"no jobs":           {"-j", "0", "."},
		"too many jobs":     {"-j", "65", "."},
		"quiet and verbose": {"-q", "-v", "."},
	})
}
