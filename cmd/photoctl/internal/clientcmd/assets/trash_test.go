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
)

func TestTrashRestoreRemoveParseTheirOptions(t *testing.T) {
	for name, newCmd := range map[string]func(*cmdutil.Factory, func(*LifecycleOptions) error) *cli.Command{
		"trash": NewCmdTrash, "restore": NewCmdRestore, "rm": NewCmdRemove,
	} {
		t.Run(name, func(t *testing.T) {
			f, _ := cmdtest.NewFactory(t, "")
			var got *LifecycleOptions
			cmd := newCmd(f, func(o *LifecycleOptions) error { got = o; return nil })
			require.Equal(t, name, cmd.Name)
			require.NoError(t, cmdtest.Run(t, cmd, "--library", "Family", "--json", "asset_1", "asset_2"))
			require.Equal(t, []string{"asset_1", "asset_2"}, got.IDs)
			require.Equal(t, "Family", got.Library)
			require.False(t, got.FromStdin)
			require.True(t, got.JSON)
			require.Equal(t, name == "rm", got.lc.confirm)
		})
	}
}

func TestTrashReadsIDsFromStandardInput(t *testing.T) {
	f, _ := cmdtest.NewFactory(t, `[{"id":"asset_1"},"asset_2"]`)
	var got *LifecycleOptions
	require.NoError(t, cmdtest.Run(t, NewCmdTrash(f, func(o *LifecycleOptions) error { got = o; return nil }), "-"))
	require.Equal(t, []string{"asset_1", "asset_2"}, got.IDs)
	require.True(t, got.FromStdin)

	f, _ = cmdtest.NewFactory(t, "asset_3\nasset_4 asset_5\n")
	require.NoError(t, cmdtest.Run(t, NewCmdRemove(f, func(o *LifecycleOptions) error { got = o; return nil }), "--yes", "-"))
	require.Equal(t, []string{"asset_3", "asset_4", "asset_5"}, got.IDs)
	require.True(t, got.Yes)
}

func TestTrashRestoreRemoveRefuseBadCommandLines(t *testing.T) {
	for name, newCmd := range map[string]func(*cmdutil.Factory, func(*LifecycleOptions) error) *cli.Command{
		"trash": NewCmdTrash, "restore": NewCmdRestore,
	} {
		t.Run(name, func(t *testing.T) {
			cmdtest.RequireUsageErrors(t, func(f *cmdutil.Factory) *cli.Command { return newCmd(f, nil) }, map[string][]string{
				"no id":            {},
				"nothing on stdin": {"-"},
			})
		})
	}
	cmdtest.RequireUsageErrors(t, func(f *cmdutil.Factory) *cli.Command { return NewCmdRemove(f, nil) }, map[string][]string{
		"no id":               {"--yes"},
		"nothing on stdin":    {"--yes", "-"},
		"stdin without --yes": {"-"},
	})
}

func TestReadStdinIDsRefusesJSONWithoutIDs(t *testing.T) {
	for _, stdin := range []string{`[{"name":"x"}]`, `[1,`} {
		f, _ := cmdtest.NewFactory(t, stdin)
		var usage *cmdutil.UsageError
		require.ErrorAs(t, cmdtest.Run(t, NewCmdTrash(f, nil), "-"), &usage, stdin)
	}
}

func TestDownloadParsesItsOptions(t *testing.T) {
	f, _ := cmdtest.NewFactory(t, "")
	var got *DownloadOptions
	cmd := NewCmdDownload(f, "download", func(o *DownloadOptions) error { got = o; return nil })
	require.False(t, cmd.Hidden)
	require.NoError(t, cmdtest.Run(t, cmd, "-o", "/backup", "--by-date", "-j", "8", "--json", "asset_1", "asset_2"))
	require.Equal(t, []string{"asset_1", "asset_2"}, got.IDs)
	require.Equal(t, "/backup", got.Dir)
	require.True(t, got.ByDate)
	require.Equal(t, 8, got.Jobs)
	require.True(t, got.JSON)
	require.False(t, got.Filter.Set)

	cmd = NewCmdDownload(f, "export", func(o *DownloadOptions) error { got = o; return nil })
	require.True(t, cmd.Hidden)
	require.NoError(t, cmdtest.Run(t, cmd, "--media-type", "video", "--library", "Family"))
	require.Empty(t, got.IDs)
	require.Equal(t, ".", got.Dir)
	require.Equal(t, 4, got.Jobs)
	require.Equal(t, cmdutil.AssetFilter{Library: "Family", Set: true,
		Query: client.AssetQuery{MediaType: "video", Stacks: "expand"}}, got.Filter)
}

func TestDownloadRefusesBadCommandLines(t *testing.T) {
	cmdtest.RequireUsageErrors(t, func(f *cmdutil.Factory) *cli.Command { return NewCmdDownload(f, "download", nil) }, map[string][]string{
		"no jobs":          {"-j", "0"},
		"ids and a filter": {"--after", "2024-01-01", "asset_1"},
	})
}

func TestUploadParsesItsOptions(t *testing.T) {
	t.Setenv("XDG_CACHE_HOME", "/cache")
	dir := t.TempDir()
	require.NoError(t, os.Mkdir(filepath.Join(dir, "DCIM"), 0o755))
	f, _ := cmdtest.NewFactory(t, "")
	var got *UploadOptions
	cmd := NewCmdUpload(f, "upload", func(o *UploadOptions) error { got = o; return nil })
	require.False(t, cmd.Hidden)
	require.NoError(t, cmdtest.Run(t, cmd, "--include", "*.jpg", "--exclude", "*.MOV", "--library", "Family", "-j", "8",
		"--album", "Trip", "--dry-run", "-v", dir))
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

	cmd = NewCmdUpload(f, "import", func(o *UploadOptions) error { got = o; return nil })
	require.True(t, cmd.Hidden)
	require.NoError(t, cmdtest.Run(t, cmd, "-r", "--no-index", "--album-from-folder", "-q", "--json", dir))
	require.True(t, got.Import.Recursive)
	require.True(t, got.Import.AlbumFromFolder)
	require.Empty(t, got.Import.CacheDir)
	require.Empty(t, got.OnlyFolders)
	require.Equal(t, 4, got.Import.Jobs)
	require.True(t, got.JSON)
}

func TestUploadRefusesBadCommandLines(t *testing.T) {
	cmdtest.RequireUsageErrors(t, func(f *cmdutil.Factory) *cli.Command { return NewCmdUpload(f, "upload", nil) }, map[string][]string{
		"no path":           {},
		"no jobs":           {"-j", "0", "."},
		"too many jobs":     {"-j", "65", "."},
		"quiet and verbose": {"-q", "-v", "."},
	})
}
