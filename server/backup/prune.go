package backup

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/photoctl/photoctl/server/backup/keyindex"
	"github.com/photoctl/photoctl/server/blob"
)

// removeEmpty removes each of dirs that is empty, and then its parents that
// became empty, up to (not including) root: an asset's directories once
// its files are pruned, and a flat layout's after a backup in the shard
// layout (manifest format 2) replaced it.
func removeEmpty(root string, dirs map[string]bool) {
	for len(dirs) > 0 {
		parents := map[string]bool{}
		for d := range dirs {
			if d != root && strings.HasPrefix(d, root+string(filepath.Separator)) && os.Remove(d) == nil {
				parents[filepath.Dir(d)] = true
			}
		}
		dirs = parents
	}
}

// pruneAll removes every blob file in the backup directory dir that the
// committed manifest does not name (keep holds the keys of its files): the
// blobs of earlier backups, copies an interrupted run made, a flat
// layout's files (format 1).
func pruneAll(dir string, keep *keyindex.Index) (int, error) {
	n := 0
	blobs := filepath.Join(dir, "blobs")
	emptied := map[string]bool{} // directories a removal may have left empty
	err := filepath.WalkDir(blobs, func(p string, d fs.DirEntry, err error) error {
		if errors.Is(err, fs.ErrNotExist) {
			return nil
		}
		if err != nil || d.IsDir() {
			return err
		}
		if key, ok := blob.KeyOf(dir, p); ok {
			if _, ok, err := keep.Get(key); ok || err != nil {
				return err
			}
		}
		n++
		emptied[filepath.Dir(p)] = true
		return os.Remove(p)
	})
	if err != nil {
		return n, fmt.Errorf("prune backup: %w", err)
	}
	removeEmpty(blobs, emptied)
	return n, nil
}

// prunePrevious removes the files of the last backup that the new one does
// not name: what is left in prev once the run took out every key it
// named.
func prunePrevious(dir string, prev *keyindex.Index) (int, error) {
	n := 0
	emptied := map[string]bool{}
	err := prev.Each(func(key string, _ []byte) error {
		p, err := blob.Path(dir, key)
		if err != nil {
			return err
		}
		if err := os.Remove(p); err != nil && !errors.Is(err, fs.ErrNotExist) {
			return err
		}
		n++
		emptied[filepath.Dir(p)] = true
		return nil
	})
	if err != nil {
		return n, fmt.Errorf("prune backup: %w", err)
	}
	removeEmpty(filepath.Join(dir, "blobs"), emptied)
	return n, nil
}

// pruneTop removes what the top of the backup directory dir holds that the
// committed backup does not need: earlier snapshots (database is the
// current one), temporary files of interrupted runs.
func pruneTop(dir, database string) (int, error) {
	n := 0
	top, err := os.ReadDir(dir)
	if err != nil {
		return n, fmt.Errorf("prune backup: %w", err)
	}
	for _, e := range top {
		name := e.Name()
		old := strings.HasPrefix(name, "photoctl-") && strings.HasSuffix(name, ".db") && name != database
		scratch := strings.HasPrefix(name, ".tmp-") && name != keepIndex && name != previousIndex
		if !e.IsDir() && (old || scratch || strings.HasPrefix(name, ".manifest-")) {
			n++
			if err := os.Remove(filepath.Join(dir, name)); err != nil {
				return n, fmt.Errorf("prune backup: %w", err)
			}
		}
	}
	return n, nil
}
