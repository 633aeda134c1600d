package assets

import (
	"errors"
	"fmt"
	"os"
	"strings"

	"github.com/photoctl/photoctl/client/importer"
)

// errOnlyFolders is wrapped by onlyFoldersError; an upload that found no
// file at all because of it is a usage error.
var errOnlyFolders = errors.New("use -r to upload them recursively")

// onlyFolders returns the folders among paths that hold at least one
// folder and no file (hidden entries, which the upload passes over, aside):
// without --recursive they upload nothing, which is likely a mistake.
func onlyFolders(paths []string) []string {
	var out []string
	for _, p := range paths {
		entries, err := os.ReadDir(p)
		if err != nil {
			continue // a file, or an error the import reports itself
		}
		folders, files := 0, 0
		for _, e := range entries {
			switch {
			case strings.HasPrefix(e.Name(), "."):
			case e.IsDir():
				folders++
			default:
				files++
			}
		}
		if folders > 0 && files == 0 {
			out = append(out, p)
		}
	}
	return out
}

// onlyFoldersError says which folders held only folders and what to do.
func onlyFoldersError(dirs []string) error {
	if len(dirs) == 1 {
		return fmt.Errorf("%s holds only folders; %w", dirs[0], errOnlyFolders)
	}
	return fmt.Errorf("%s hold only folders; %w", strings.Join(dirs, ", "), errOnlyFolders)
}

// uploadTotal counts the files an import came across, whatever became of
// them.
func uploadTotal(sum *importer.Summary) int {
	return sum.New + sum.Duplicate + sum.Skipped + sum.Failed
}
