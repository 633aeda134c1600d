package backup

import (
	"context"
	"encoding/hex"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/photoctl/photoctl/server/blob"
	"github.com/photoctl/photoctl/server/store/sqlite"
)

// dbFile is the database's file name in a data directory.
const dbFile = "photoctl.db"

// attempts bounds how often Backup starts over when a blob a snapshot row
// points at was deleted before it could be copied (a deletion committed
// after the snapshot).
const attempts = 3

// errVanished is returned by one attempt when a blob was deleted under it.
var errVanished = errors.New("a file was deleted during the backup")

// Stats tells what a backup did.
type Stats struct {
	Database string `json:"database"`
	// Files is the number of blobs in the backup; Copied of them were
	// copied now, Reused were already there with the same checksum.
	Files       int   `json:"files"`
	Copied      int   `json:"copied"`
	Reused      int   `json:"reused"`
	CopiedBytes int64 `json:"copied_bytes"`
	Pruned      int   `json:"pruned"`
}

// Backup backs up the data directory dataDir into dir (created if
// needed), beside a running server: it takes no data-directory lock and
// only reads dataDir.
func Backup(ctx context.Context, dataDir, dir string, now time.Time) (*Stats, error) {
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return nil, fmt.Errorf("create backup directory: %w", err)
	}
	var err error
	for range attempts {
		var st *Stats
		st, err = backupOnce(ctx, dataDir, dir, now)
		if !errors.Is(err, errVanished) {
			return st, err
		}
	}
	return nil, fmt.Errorf("back up: %w %d times in a row", err, attempts)
}

func backupOnce(ctx context.Context, dataDir, dir string, now time.Time) (*Stats, error) {
	prev, err := previous(dir)
	if err != nil {
		return nil, err
	}
	name := "photoctl-" + now.UTC().Format("20060102T150405.000000000Z") + ".db"
	tmpDB := filepath.Join(dir, ".tmp-"+name)
	os.Remove(tmpDB)
	if err := sqlite.Snapshot(ctx, filepath.Join(dataDir, dbFile), tmpDB); err != nil {
		return nil, err
	}
	defer os.Remove(tmpDB)
	refs, err := sqlite.SnapshotFiles(ctx, tmpDB)
	if err != nil {
		return nil, err
	}
	st := &Stats{Database: name}
	m := &Manifest{Version: manifestVersion, CreatedAt: now.UTC()}
	for _, r := range refs {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		f, err := st.copyChecked(dataDir, dir, r, prev[r.Key])
		if err != nil {
			return nil, err
		}
		m.Files = append(m.Files, f)
		if strings.HasPrefix(r.Key, "originals/") {
			extra, err := st.copyExtras(dataDir, dir, strings.TrimPrefix(r.Key, "originals/"), prev)
			if err != nil {
				return nil, err
			}
			m.Files = append(m.Files, extra...)
		}
	}
	sum, size, err := hashFile(tmpDB)
	if err != nil {
		return nil, err
	}
	if err := os.Rename(tmpDB, filepath.Join(dir, name)); err != nil {
		return nil, fmt.Errorf("rename snapshot: %w", err)
	}
	m.Database = File{Key: name, SHA256: sum, Size: size}
	st.Files = len(m.Files)
	// Every copy and the snapshot on disk before the manifest names them.
	if err := syncTree(dir); err != nil {
		return nil, err
	}
	if err := writeManifest(dir, m); err != nil {
		return nil, err
	}
	st.Pruned, err = prune(dir, m)
	return st, err
}

// copyChecked copies a blob whose row records its checksum, unless the
// backup already holds it with that checksum. A blob that is not there
// any more was deleted after the snapshot: errVanished.
func (st *Stats) copyChecked(dataDir, dir string, r sqlite.FileRef, old File) (File, error) {
	want := hex.EncodeToString(r.SHA256)
	src, err := blob.Path(dataDir, r.Key)
	if err != nil {
		return File{}, err
	}
	dst, err := blob.Path(dir, r.Key)
	if err != nil {
		return File{}, err
	}
	if old.SHA256 == want {
		if fi, err := os.Stat(dst); err == nil && fi.Size() == old.Size {
			st.Reused++
			return old, nil
		}
	}
	sum, size, err := copyFile(src, dst, syncAtCommit)
	if errors.Is(err, fs.ErrNotExist) {
		return File{}, fmt.Errorf("%w: %s", errVanished, r.Key)
	}
	if err != nil {
		return File{}, err
	}
	if sum != want {
		return File{}, fmt.Errorf("back up %s: its checksum %s is not the recorded %s", r.Key, sum, want)
	}
	st.Copied++
	st.CopiedBytes += size
	return File{Key: r.Key, SHA256: sum, Size: size}, nil
}

// copyExtras copies the sidecar and variants of an asset, files no row
// records a checksum for. They are optional (variants are rebuilt by
// ingest), so a missing one is skipped; an unchanged one (key, size and
// modification time) is reused.
func (st *Stats) copyExtras(dataDir, dir, assetID string, prev map[string]File) ([]File, error) {
	keys := []string{"sidecars/" + assetID + ".xmp"}
	variants, err := blob.Path(dataDir, "variants/"+assetID)
	if err != nil {
		return nil, err
	}
	entries, err := os.ReadDir(variants)
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		return nil, fmt.Errorf("list variants: %w", err)
	}
	for _, e := range entries {
		if e.Type().IsRegular() && !strings.HasPrefix(e.Name(), ".") {
			keys = append(keys, "variants/"+assetID+"/"+e.Name())
		}
	}
	var out []File
	for _, key := range keys {
		src, err := blob.Path(dataDir, key)
		if err != nil {
			return nil, err
		}
		dst, err := blob.Path(dir, key)
		if err != nil {
			return nil, err
		}
		fi, err := os.Stat(src)
		if errors.Is(err, fs.ErrNotExist) {
			continue
		}
		if err != nil {
			return nil, fmt.Errorf("stat %s: %w", key, err)
		}
		if old, ok := prev[key]; ok && old.Size == fi.Size() && old.ModTime.Equal(fi.ModTime()) {
			if dfi, err := os.Stat(dst); err == nil && dfi.Size() == old.Size {
				st.Reused++
				out = append(out, old)
				continue
			}
		}
		sum, size, err := copyFile(src, dst, syncAtCommit)
		if errors.Is(err, fs.ErrNotExist) {
			continue
		}
		if err != nil {
			return nil, err
		}
		st.Copied++
		st.CopiedBytes += size
		out = append(out, File{Key: key, SHA256: sum, Size: size, ModTime: fi.ModTime()})
	}
	return out, nil
}

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

// prune removes what the committed manifest m does not name: blobs of
// earlier backups, earlier snapshots, temporary files of interrupted runs.
func prune(dir string, m *Manifest) (int, error) {
	keep := make(map[string]bool, len(m.Files))
	for _, f := range m.Files {
		p, err := m.blobPath(dir, f.Key)
		if err != nil {
			return 0, err
		}
		keep[p] = true
	}
	n := 0
	blobs := filepath.Join(dir, "blobs")
	emptied := map[string]bool{} // directories a removal may have left empty
	err := filepath.WalkDir(blobs, func(p string, d fs.DirEntry, err error) error {
		if errors.Is(err, fs.ErrNotExist) {
			return nil
		}
		if err != nil || d.IsDir() || keep[p] {
			return err
		}
		n++
		emptied[filepath.Dir(p)] = true
		return os.Remove(p)
	})
	if err != nil {
		return n, fmt.Errorf("prune backup: %w", err)
	}
	removeEmpty(blobs, emptied)
	top, err := os.ReadDir(dir)
	if err != nil {
		return n, fmt.Errorf("prune backup: %w", err)
	}
	for _, e := range top {
		name := e.Name()
		old := strings.HasPrefix(name, "photoctl-") && strings.HasSuffix(name, ".db") && name != m.Database.Key
		if !e.IsDir() && (old || strings.HasPrefix(name, ".tmp-") || strings.HasPrefix(name, ".manifest-")) {
			n++
			if err := os.Remove(filepath.Join(dir, name)); err != nil {
				return n, fmt.Errorf("prune backup: %w", err)
			}
		}
	}
	return n, nil
}
