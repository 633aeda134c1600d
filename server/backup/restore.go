package backup

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"

	"github.com/photoctl/photoctl/server/blob"
)

// ErrNotEmpty is returned by Restore when the data directory holds
// anything: a restore never mixes with, or overwrites, a library.
var ErrNotEmpty = errors.New("the data directory is not empty")

// RestoreStats tells what a restore did.
type RestoreStats struct {
	Files int   `json:"files"`
	Bytes int64 `json:"bytes"`
}

// Restore copies the backup in dir onto dataDir, which must be missing or
// empty, verifying the checksum of the snapshot and of every blob against
// the manifest. WithProgress counts bytes of the manifest read. While a
// backup writes into dir it is ErrBusy. On any failure it removes what it wrote, leaving dataDir
// empty again.
func Restore(ctx context.Context, dir, dataDir string, opts ...Option) (_ *RestoreStats, err error) {
	o := options(opts)
	if _, err := os.Stat(filepath.Join(dir, ManifestName)); err != nil {
		return nil, fmt.Errorf("read manifest: %w", err)
	}
	unlock, err := lockDir(dir, false) // no backup prunes what this reads
	if err != nil {
		return nil, err
	}
	defer unlock()
	entries, err := os.ReadDir(dataDir)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		if err := os.MkdirAll(dataDir, 0o700); err != nil {
			return nil, fmt.Errorf("create data directory: %w", err)
		}
	case err != nil:
		return nil, fmt.Errorf("read data directory: %w", err)
	case len(entries) > 0:
		return nil, fmt.Errorf("restore into %s: %w", dataDir, ErrNotEmpty)
	}
	defer func() {
		if err != nil {
			cleanup(dataDir)
		}
	}()
	st := &RestoreStats{}
	m, err := readManifest(dir, func(m *Manifest, f File) error {
		if err := ctx.Err(); err != nil {
			return err
		}
		src, err := m.blobPath(dir, f.Key)
		if err != nil {
			return err
		}
		dst, err := blob.Path(dataDir, f.Key)
		if err != nil {
			return err
		}
		if err := restoreFile(src, dst, f, syncAtCommit); err != nil {
			return err
		}
		st.Files++
		st.Bytes += f.Size
		return nil
	}, o.progress)
	if err != nil {
		return nil, err
	}
	// The database last, once the files are on disk: a data directory with
	// a database is a library.
	if err := syncTree(dataDir); err != nil {
		return nil, err
	}
	if err := restoreFile(filepath.Join(dir, m.Database.Key), filepath.Join(dataDir, dbFile), m.Database, syncNow); err != nil {
		return nil, err
	}
	st.Bytes += m.Database.Size
	return st, syncDir(dataDir)
}

// restoreFile copies one file and checks it against its manifest entry.
func restoreFile(src, dst string, f File, d durability) error {
	sum, size, err := copyFile(src, dst, d)
	if err != nil {
		return fmt.Errorf("restore %s: %w", f.Key, err)
	}
	if sum != f.SHA256 || size != f.Size {
		return fmt.Errorf("restore %s: checksum %s (%d bytes) is not the manifest's %s (%d bytes): the backup is damaged",
			f.Key, sum, size, f.SHA256, f.Size)
	}
	return nil
}

// cleanup empties dataDir after a failed restore.
func cleanup(dataDir string) {
	entries, _ := os.ReadDir(dataDir)
	for _, e := range entries {
		os.RemoveAll(filepath.Join(dataDir, e.Name()))
	}
}
