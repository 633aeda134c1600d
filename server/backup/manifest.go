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
	"bufio"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"strings"
	"time"

	"github.com/photoctl/photoctl/server/backup/keyindex"
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

// ReadManifest reads the manifest of the backup in dir, every file of it
// in memory (for a look at a backup; backing up and restoring read it
// file by file). A directory without one holds no backup: fs.ErrNotExist.
func ReadManifest(dir string) (*Manifest, error) {
	var files []File
	m, err := readManifest(dir, func(_ *Manifest, f File) error {
		files = append(files, f)
		return nil
	}, nil)
	if err != nil {
		return nil, err
	}
	m.Files = files
	return m, nil
}

// readManifest reads the manifest of the backup in dir as a stream, calling
// each with every file in the manifest's order (the files' own fields
// checked, the header's format known by then), and returns the header
// (Files nil): a manifest of millions of files costs one file of memory.
// progress, unless nil, is called after each file with how many bytes of
// the manifest are read and its size.
func readManifest(dir string, each func(*Manifest, File) error, progress func(read, size int64)) (*Manifest, error) {
	fh, err := os.Open(filepath.Join(dir, ManifestName))
	if err != nil {
		return nil, fmt.Errorf("read manifest: %w", err)
	}
	defer fh.Close()
	var size int64
	if fi, err := fh.Stat(); err == nil {
		size = fi.Size()
	}
	m := &Manifest{}
	dec := json.NewDecoder(bufio.NewReaderSize(fh, 1<<16))
	err = readObject(dec, func(field string) error {
		switch field {
		case "version":
			if err := dec.Decode(&m.Version); err != nil {
				return err
			}
			if m.Version != manifestVersion && m.Version != 1 {
				return fmt.Errorf("format %d is not 1 or %d", m.Version, manifestVersion)
			}
			return nil
		case "created_at":
			return dec.Decode(&m.CreatedAt)
		case "database":
			return dec.Decode(&m.Database)
		case "files":
			if m.Version == 0 {
				return errors.New("the files come before the format")
			}
			return readArray(dec, func() error {
				var f File
				if err := dec.Decode(&f); err != nil {
					return err
				}
				if err := checkName(f.Key); err != nil {
					return err
				}
				if err := each(m, f); err != nil {
					return eachError{err}
				}
				if progress != nil {
					progress(dec.InputOffset(), size)
				}
				return nil
			})
		default:
			var skip json.RawMessage
			return dec.Decode(&skip)
		}
	})
	if ee, ok := errors.AsType[eachError](err); ok {
		return nil, ee.err // the caller's own, as it is
	}
	if err == nil && m.Version == 0 {
		err = errors.New("no format")
	}
	if err == nil && (checkName(m.Database.Key) != nil || strings.Contains(m.Database.Key, "/")) {
		err = fmt.Errorf("bad database name %q", m.Database.Key)
	}
	if err != nil {
		return nil, fmt.Errorf("read manifest: %w", err)
	}
	return m, nil
}

// eachError carries an error of readManifest's each through the decoding.
type eachError struct{ err error }

func (e eachError) Error() string { return e.err.Error() }

// readObject reads a JSON object from dec, calling field with each key
// for it to read the value.
func readObject(dec *json.Decoder, field func(string) error) error {
	if err := expectDelim(dec, '{'); err != nil {
		return err
	}
	for dec.More() {
		tok, err := dec.Token()
		if err != nil {
			return err
		}
		if err := field(tok.(string)); err != nil {
			return err
		}
	}
	return expectDelim(dec, '}')
}

// readArray reads a JSON array from dec, calling elem to read each value.
func readArray(dec *json.Decoder, elem func() error) error {
	if err := expectDelim(dec, '['); err != nil {
		return err
	}
	for dec.More() {
		if err := elem(); err != nil {
			return err
		}
	}
	return expectDelim(dec, ']')
}

func expectDelim(dec *json.Decoder, want json.Delim) error {
	tok, err := dec.Token()
	if err != nil {
		return err
	}
	if d, ok := tok.(json.Delim); !ok || d != want {
		return fmt.Errorf("%v where %v belongs", tok, want)
	}
	return nil
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

// manifestWriter writes a manifest file by file into a temporary file in
// its directory; commit makes it the backup's manifest. The format is the
// one JSON document of Manifest, a file a line.
type manifestWriter struct {
	dir   string
	tmp   *os.File
	w     *bufio.Writer
	files int
}

// createManifest starts the manifest of a backup in dir with the header h
// (its Files are not written).
func createManifest(dir string, h Manifest) (*manifestWriter, error) {
	head, err := json.Marshal(struct {
		Version   int       `json:"version"`
		CreatedAt time.Time `json:"created_at"`
		Database  File      `json:"database"`
	}{h.Version, h.CreatedAt, h.Database})
	if err != nil {
		return nil, fmt.Errorf("write manifest: %w", err)
	}
	tmp, err := os.CreateTemp(dir, ".manifest-*")
	if err != nil {
		return nil, fmt.Errorf("write manifest: %w", err)
	}
	mw := &manifestWriter{dir: dir, tmp: tmp, w: bufio.NewWriterSize(tmp, 1<<16)}
	mw.w.Write(head[:len(head)-1]) // the object stays open for the files
	mw.w.WriteString(`,"files":[` + "\n")
	return mw, nil
}

// add appends f to the manifest's files.
func (mw *manifestWriter) add(f File) error {
	line, err := json.Marshal(f)
	if err != nil {
		return fmt.Errorf("write manifest: %w", err)
	}
	if mw.files > 0 {
		mw.w.WriteString(",\n")
	}
	mw.files++
	if _, err := mw.w.Write(line); err != nil {
		return fmt.Errorf("write manifest: %w", err)
	}
	return nil
}

// commit closes the manifest and puts it in place: fsync, rename, fsync of
// the directory.
func (mw *manifestWriter) commit() error {
	mw.w.WriteString("\n]}\n")
	err := errors.Join(mw.w.Flush(), mw.tmp.Sync(), mw.tmp.Close())
	if err == nil {
		err = os.Rename(mw.tmp.Name(), filepath.Join(mw.dir, ManifestName))
	}
	if err != nil {
		os.Remove(mw.tmp.Name())
		return fmt.Errorf("write manifest: %w", err)
	}
	mw.tmp = nil
	return syncDir(mw.dir)
}

// abort discards a manifest not committed; after commit it does nothing.
func (mw *manifestWriter) abort() {
	if mw.tmp != nil {
		mw.tmp.Close()
		os.Remove(mw.tmp.Name())
	}
}

// previousIndex and keepIndex are the scratch files of a backup run in the
// backup directory: the files of the backup there before, by key, and the
// keys of the files the new manifest names.
const (
	previousIndex = ".tmp-previous.db"
	keepIndex     = ".tmp-keep.db"
)

// previous indexes the files of the backup already in dir by key (each
// value a File in JSON), in a scratch file there, and returns its format;
// empty, format 0, when there is no backup. The caller closes it, which
// deletes the file.
func previous(dir string) (*keyindex.Index, int, error) {
	x, err := keyindex.Open(filepath.Join(dir, previousIndex))
	if err != nil {
		return nil, 0, err
	}
	m, err := readManifest(dir, func(_ *Manifest, f File) error {
		v, err := json.Marshal(f)
		if err != nil {
			return err
		}
		return x.Put(f.Key, v)
	}, nil)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return x, 0, nil
	case err != nil:
		x.Close()
		return nil, 0, err
	}
	return x, m.Version, nil
}

// take returns the file of key in the previous backup's index (the zero
// File when it had none) and removes it there: what the run leaves in the
// index is what the new backup no longer holds.
func take(prev *keyindex.Index, key string) (File, error) {
	v, ok, err := prev.Take(key)
	var f File
	if err == nil && ok {
		err = json.Unmarshal(v, &f)
	}
	return f, err
}

// untake puts back f, a file take returned, unless it is the zero File.
func untake(prev *keyindex.Index, f File) error {
	if f.Key == "" {
		return nil
	}
	v, err := json.Marshal(f)
	if err != nil {
		return err
	}
	return prev.Put(f.Key, v)
}
