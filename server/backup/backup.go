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

	"github.com/photoctl/photoctl/server/backup/keyindex"
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

// Option tunes a Backup or a Restore.
type Option func(*settings)

type settings struct {
	progress func(done, total int64)
}

// WithProgress has fn called as the work goes, with how much is done of
// how much in all (see Backup and Restore for the unit).
func WithProgress(fn func(done, total int64)) Option {
	return func(s *settings) { s.progress = fn }
}

func options(opts []Option) settings {
	var s settings
	for _, o := range opts {
		o(&s)
	}
	return s
}

// Backup backs up the data directory dataDir into dir (created if
// needed), beside a running server: it takes no data-directory lock and
// only reads dataDir. One backup writes into dir at a time (ErrBusy).
// WithProgress counts the snapshot's rows that point at files: an asset
// (its original, sidecar and variants) or a version each.
func Backup(ctx context.Context, dataDir, dir string, now time.Time, opts ...Option) (*Stats, error) {
	o := options(opts)
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return nil, fmt.Errorf("create backup directory: %w", err)
	}
	unlock, err := lockDir(dir, true)
	if err != nil {
		return nil, err
	}
	defer unlock()
	interrupted, finished, err := markRunning(dir)
	if err != nil {
		return nil, err
	}
	for i := range attempts {
		var st *Stats
		// An attempt given up on may have left copies, as a killed run may.
		st, err = backupOnce(ctx, dataDir, dir, now, o, interrupted || i > 0)
		if !errors.Is(err, errVanished) {
			if err == nil {
				err = finished()
			}
			return st, err
		}
	}
	return nil, fmt.Errorf("back up: %w %d times in a row", err, attempts)
}

// backupOnce makes one attempt at a backup. strays says that files no
// manifest names may be in dir (copies of assets deleted since, which a
// run that did not finish left): the attempt then looks for them; others
// prune only what the last manifest named.
func backupOnce(ctx context.Context, dataDir, dir string, now time.Time, o settings, strays bool) (*Stats, error) {
	prev, prevVersion, err := previous(dir)
	if err != nil {
		return nil, err
	}
	defer prev.Close()
	name := "photoctl-" + now.UTC().Format("20060102T150405.000000000Z") + ".db"
	tmpDB := filepath.Join(dir, ".tmp-"+name)
	os.Remove(tmpDB)
	if err := sqlite.Snapshot(ctx, filepath.Join(dataDir, dbFile), tmpDB); err != nil {
		return nil, err
	}
	defer os.Remove(tmpDB)
	sum, size, err := hashFile(tmpDB)
	if err != nil {
		return nil, err
	}
	var done, total int64
	if o.progress != nil {
		if total, err = sqlite.SnapshotFileCount(ctx, tmpDB); err != nil {
			return nil, err
		}
		o.progress(0, total)
	}
	// Every file the directory holds is checked against the new manifest
	// when strays may be there, or when the last backup kept its files
	// elsewhere (format 1, flat): keep indexes the new manifest's files.
	var keep *keyindex.Index
	if strays || prevVersion == 1 {
		if keep, err = keyindex.Open(filepath.Join(dir, keepIndex)); err != nil {
			return nil, err
		}
		defer keep.Close()
	}
	mw, err := createManifest(dir, Manifest{Version: manifestVersion, CreatedAt: now.UTC(),
		Database: File{Key: name, SHA256: sum, Size: size}})
	if err != nil {
		return nil, err
	}
	defer mw.abort()
	st := &Stats{Database: name}
	add := func(f File) error {
		if keep != nil {
			if err := keep.Put(f.Key, nil); err != nil {
				return err
			}
		}
		st.Files++
		return mw.add(f)
	}
	err = sqlite.SnapshotFiles(ctx, tmpDB, func(r sqlite.FileRef) error {
		if err := ctx.Err(); err != nil {
			return err
		}
		f, err := st.copyChecked(dataDir, dir, r, prev)
		if err != nil {
			return err
		}
		if err := add(f); err != nil {
			return err
		}
		if strings.HasPrefix(r.Key, "originals/") {
			if err := st.copyExtras(dataDir, dir, strings.TrimPrefix(r.Key, "originals/"), prev, add); err != nil {
				return err
			}
		}
		if o.progress != nil {
			done++
			o.progress(done, total)
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	if err := os.Rename(tmpDB, filepath.Join(dir, name)); err != nil {
		return nil, fmt.Errorf("rename snapshot: %w", err)
	}
	// Every copy and the snapshot on disk before the manifest names them.
	if err := syncTree(dir); err != nil {
		return nil, err
	}
	if err := mw.commit(); err != nil {
		return nil, err
	}
	if keep != nil {
		st.Pruned, err = pruneAll(dir, keep)
	} else {
		st.Pruned, err = prunePrevious(dir, prev)
	}
	if err != nil {
		return st, err
	}
	n, err := pruneTop(dir, name)
	st.Pruned += n
	return st, err
}

// copyChecked copies a blob whose row records its checksum, unless the
// backup already holds it with that checksum. A blob that is not there
// any more was deleted after the snapshot: errVanished.
func (st *Stats) copyChecked(dataDir, dir string, r sqlite.FileRef, prev *keyindex.Index) (File, error) {
	want := hex.EncodeToString(r.SHA256)
	old, err := take(prev, r.Key)
	if err != nil {
		return File{}, err
	}
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
// modification time) is reused. Each file of the backup goes to add.
func (st *Stats) copyExtras(dataDir, dir, assetID string, prev *keyindex.Index, add func(File) error) error {
	keys := []string{"sidecars/" + assetID + ".xmp"}
	variants, err := blob.Path(dataDir, "variants/"+assetID)
	if err != nil {
		return err
	}
	entries, err := os.ReadDir(variants)
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		return fmt.Errorf("list variants: %w", err)
	}
	for _, e := range entries {
		if e.Type().IsRegular() && !strings.HasPrefix(e.Name(), ".") {
			keys = append(keys, "variants/"+assetID+"/"+e.Name())
		}
	}
	for _, key := range keys {
		src, err := blob.Path(dataDir, key)
		if err != nil {
			return err
		}
		fi, err := os.Stat(src)
		if errors.Is(err, fs.ErrNotExist) {
			continue
		}
		if err != nil {
			return fmt.Errorf("stat %s: %w", key, err)
		}
		dst, err := blob.Path(dir, key)
		if err != nil {
			return err
		}
		old, err := take(prev, key)
		if err != nil {
			return err
		}
		if old.Key == key && old.Size == fi.Size() && old.ModTime.Equal(fi.ModTime()) {
			if dfi, err := os.Stat(dst); err == nil && dfi.Size() == old.Size {
				st.Reused++
				if err := add(old); err != nil {
					return err
				}
				continue
			}
		}
		sum, size, err := copyFile(src, dst, syncAtCommit)
		if errors.Is(err, fs.ErrNotExist) {
			// Gone since the stat: the backup's old copy, if any, goes
			// back to what the run leaves to prune.
			if err := untake(prev, old); err != nil {
				return err
			}
			continue
		}
		if err != nil {
			return err
		}
		st.Copied++
		st.CopiedBytes += size
		if err := add(File{Key: key, SHA256: sum, Size: size, ModTime: fi.ModTime()}); err != nil {
			return err
		}
	}
	return nil
}
