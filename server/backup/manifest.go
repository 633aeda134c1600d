// Package backup copies a photoctl data directory to a backup directory
// while the server runs, and restores a backup onto an empty data
// directory.
//
// A backup directory holds a snapshot of the database (SQLite's online
// backup API), the blobs its rows point at (originals, versions, and the
// sidecars and variants of its assets) under blobs/, and manifest.json,
// which names the snapshot and lists every blob with its SHA-256. The
// manifest is written last, through a temporary file and a rename: it is
// the commit point, so a backup interrupted at any moment leaves the
// previous one whole. Backups are incremental: a blob already in the
// directory with the checksum the new manifest wants is not copied again.
package backup

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"strings"
	"time"

	"github.com/photoctl/photoctl/server/blob"
)

// ManifestName is the manifest's file name in a backup directory.
const ManifestName = "manifest.json"

// manifestVersion is the format of Manifest a backup writes: 2 keeps the
// blobs in the data directory's shard layout (blob.Path); 1 (photoctl
// before the shard directories, still restored) kept each at blobs/<key>.
// Restore refuses others.
const manifestVersion = 2

// Manifest describes one complete backup.
type Manifest struct {
	Version   int       `json:"version"`
	CreatedAt time.Time `json:"created_at"`
	// Database is the snapshot's file name in the backup directory.
	Database File   `json:"database"`
	Files    []File `json:"files"`
}

// File is one file of a backup. Key is the blob key (the path under
// blobs/), or the snapshot's file name for Database.
type File struct {
	Key    string `json:"key"`
	SHA256 string `json:"sha256"`
	Size   int64  `json:"size"`
	// ModTime is the source file's modification time, for blobs whose
	// rows record no checksum (sidecars, variants): a blob of the same key,
	// size and time is taken as unchanged.
	ModTime time.Time `json:"mod_time,omitzero"`
}

// ReadManifest reads the manifest of the backup in dir. A directory
// without one holds no backup: fs.ErrNotExist.
func ReadManifest(dir string) (*Manifest, error) {
	data, err := os.ReadFile(filepath.Join(dir, ManifestName))
	if err != nil {
		return nil, fmt.Errorf("read manifest: %w", err)
	}
	var m Manifest
	if err := json.Unmarshal(data, &m); err != nil {
		return nil, fmt.Errorf("read manifest: %w", err)
	}
	if m.Version != manifestVersion && m.Version != 1 {
		return nil, fmt.Errorf("read manifest: format %d is not 1 or %d", m.Version, manifestVersion)
	}
	if err := checkName(m.Database.Key); err != nil || strings.Contains(m.Database.Key, "/") {
		return nil, fmt.Errorf("read manifest: bad database name %q", m.Database.Key)
	}
	for _, f := range m.Files {
		if err := checkName(f.Key); err != nil {
			return nil, fmt.Errorf("read manifest: %w", err)
		}
	}
	return &m, nil
}

// checkName refuses keys that would leave the directory they are joined
// to: a manifest is read from disk and may have been tampered with.
func checkName(key string) error {
	if key == "" || !filepath.IsLocal(filepath.FromSlash(key)) || path.Clean(key) != key || strings.Contains(key, `\`) {
		return fmt.Errorf("bad file key %q", key)
	}
	return nil
}

// blobPath is where the blob at key is in the backup directory dir of m.
func (m *Manifest) blobPath(dir, key string) (string, error) {
	if m.Version == 1 {
		return filepath.Join(dir, "blobs", filepath.FromSlash(key)), nil
	}
	return blob.Path(dir, key)
}

// writeManifest commits m in dir: temp file, fsync, rename, fsync dir.
func writeManifest(dir string, m *Manifest) error {
	data, err := json.MarshalIndent(m, "", "  ")
	if err != nil {
		return fmt.Errorf("write manifest: %w", err)
	}
	tmp, err := os.CreateTemp(dir, ".manifest-*")
	if err != nil {
		return fmt.Errorf("write manifest: %w", err)
	}
	_, werr := tmp.Write(data)
	if err := errors.Join(werr, tmp.Sync(), tmp.Close()); err != nil {
		os.Remove(tmp.Name())
		return fmt.Errorf("write manifest: %w", err)
	}
	if err := os.Rename(tmp.Name(), filepath.Join(dir, ManifestName)); err != nil {
		os.Remove(tmp.Name())
		return fmt.Errorf("write manifest: %w", err)
	}
	return syncDir(dir)
}

// previous returns the files of the backup already in dir by key, or an
// empty map when there is none.
func previous(dir string) (map[string]File, error) {
	m, err := ReadManifest(dir)
	if errors.Is(err, fs.ErrNotExist) {
		return map[string]File{}, nil
	}
	if err != nil {
		return nil, err
	}
	byKey := make(map[string]File, len(m.Files))
	for _, f := range m.Files {
		byKey[f.Key] = f
	}
	return byKey, nil
}
