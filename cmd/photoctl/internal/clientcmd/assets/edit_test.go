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

func TestEditParsesItsOptions(t *testing.T) {
	f, _ := cmdtest.NewFactory(t, "")
	var got *EditOptions
	cmd := NewCmdEdit(f, func(o *EditOptions) error { got = o; return nil })
	require.NoError(t, cmdtest.Run(t, cmd, "--rating", "5", "--description", "First day", "--latitude", "48.5",
		"--longitude", "2.25", "--datetime", "2019-07-14T21:30:00+02:00", "--json", "asset_1"))
	five, desc, lat, lon, when := 5, "First day", 48.5, 2.25, "2019-07-14T21:30:00+02:00"
	require.Equal(t, "asset_1", got.ID)
	require.Equal(t, api.AssetChange{Rating: api.Optional[int]{Set: true, Value: &five},
		Description: api.Optional[string]{Set: true, Value: &desc}, Latitude: api.Optional[float64]{Set: true, Value: &lat},
		Longitude: api.Optional[float64]{Set: true, Value: &lon}, OriginalDatetime: api.Optional[string]{Set: true, Value: &when}},
		got.Change)
	require.True(t, got.JSON)

	require.NoError(t, cmdtest.Run(t, cmd, "--clear", "rating,location", "--clear", "datetime", "asset_2"))
	require.Equal(t, api.AssetChange{Rating: api.Optional[int]{Set: true}, Latitude: api.Optional[float64]{Set: true},
		Longitude: api.Optional[float64]{Set: true}, OriginalDatetime: api.Optional[string]{Set: true}}, got.Change)
	require.False(t, got.JSON)
}

func TestEditRefusesBadCommandLines(t *testing.T) {
	cmdtest.RequireUsageErrors(t, func(f *cmdutil.Factory) *cli.Command { return NewCmdEdit(f, nil) }, map[string][]string{
		"no id":              {"--rating", "5"},
		"two ids":            {"--rating", "5", "a", "b"},
		"nothing to change":  {"asset_1"},
		"latitude alone":     {"--latitude", "1", "asset_1"},
		"an unknown --clear": {"--clear", "name", "asset_1"},
	})
}

func TestBulkEditParsesAFile(t *testing.T) {
	path := filepath.Join(t.TempDir(), "ratings.csv")
	require.NoError(t, os.WriteFile(path, []byte("id,rating\nasset_1,5\nasset_2,null\n"), 0o600))
	f, _ := cmdtest.NewFactory(t, "")
	var got *BulkEditOptions
	cmd := NewCmdBulkEdit(f, func(o *BulkEditOptions) error { got = o; return nil })
	require.NoError(t, cmdtest.Run(t, cmd, "--library", "Family", "--batch-size", "10", "--dry-run", "--json", path))
	five := 5
	require.Equal(t, []editRow{{line: 2, id: "asset_1", change: api.AssetChange{Rating: api.Optional[int]{Set: true, Value: &five}}},
		{line: 3, id: "asset_2", change: api.AssetChange{Rating: api.Optional[int]{Set: true}}}}, got.Rows)
	require.Equal(t, "Family", got.Filter.Library)
	require.Equal(t, 10, got.BatchSize)
	require.True(t, got.DryRun)
	require.True(t, got.JSON)
	require.Equal(t, api.AssetChange{}, got.Change)
}

func TestBulkEditReadsStandardInput(t *testing.T) {
	f, _ := cmdtest.NewFactory(t, `{"id":"asset_1","description":"Summer"}`+"\n")
	var got *BulkEditOptions
	cmd := NewCmdBulkEdit(f, func(o *BulkEditOptions) error { got = o; return nil })
	require.NoError(t, cmdtest.Run(t, cmd, "--format", "jsonl", "-"))
	desc := "Summer"
	require.Equal(t, []editRow{{line: 1, id: "asset_1", change: api.AssetChange{Description: api.Optional[string]{Set: true, Value: &desc}}}}, got.Rows)
	require.Equal(t, client.MaxBulkUpdate, got.BatchSize)
}

func TestBulkEditParsesAFilter(t *testing.T) {
	f, _ := cmdtest.NewFactory(t, "")
	var got *BulkEditOptions
	cmd := NewCmdBulkEdit(f, func(o *BulkEditOptions) error { got = o; return nil })
	require.NoError(t, cmdtest.Run(t, cmd, "--after", "2023-07-01", "--covers-only", "--description", "Brittany", "-q"))
	desc := "Brittany"
	require.Nil(t, got.Rows)
	require.Equal(t, api.AssetChange{Description: api.Optional[string]{Set: true, Value: &desc}}, got.Change)
	require.Equal(t, cmdutil.AssetFilter{Set: true, Query: client.AssetQuery{After: "2023-07-01", Stacks: "collapse"}}, got.Filter)
	require.False(t, got.DryRun)

	require.NoError(t, cmdtest.Run(t, cmd, "--all-assets", "--rating", "1"))
	require.False(t, got.Filter.Set)
	require.True(t, got.Change.Rating.Set)
}

func TestBulkEditRefusesBadCommandLines(t *testing.T) {
	dir := t.TempDir()
	empty := filepath.Join(dir, "empty.csv")
	require.NoError(t, os.WriteFile(empty, []byte("id,rating\n"), 0o600))
	cmdtest.RequireUsageErrors(t, func(f *cmdutil.Factory) *cli.Command { return NewCmdBulkEdit(f, nil) }, map[string][]string{
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
