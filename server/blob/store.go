// Package blob keeps originals, edited versions and variants (thumbnails,
// previews, transcodes) on the local disk — written to a temp file,
// fsynced, renamed into place — or in an S3-compatible bucket (OpenS3,
// through minio-go). It imports only catalog, minio-go and the standard
// library.
package blob

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"strings"
	"syscall"

	"github.com/photoctl/photoctl/server/catalog"
)

// Store keeps immutable blobs under root. Keys are slash-separated relative
// paths made only of [a-z0-9_.-] segments (no empty segment, no segment
// starting with a dot — so no "." or "..", no leading slash, at most
// MaxKeyLen bytes) such as "originals/asset_01h.../original" or
// "variants/asset_01h.../thumbnail.webp". Any other key is rejected with an
// error wrapping ErrBadKey and never reaches the file system.
//
// Blobs live under root/blobs, an asset's in a shard directory of its kind
// (Path: "originals/asset_x" is root/blobs/originals/3f/asset_x); uploads
// in progress in root/tmp. A blob appears whole or not at all
// (Writer.Commit). Every path is opened through an os.Root, so even a
// symbolic link planted inside the tree cannot lead outside it. A Store is
// safe for concurrent use.
//
// With OpenS3 the blobs live in an S3-compatible bucket instead of
// root/blobs, under the same keys; root keeps the temp files.
type Store struct {
	dir    string   // absolute root directory
	root   *os.Root // the root directory; closed by its finalizer
	bucket *bucket  // nil: the blobs are under root/blobs
	kept   *kept    // with a bucket: staging files kept for OpenLocal (kept.go)
}

// File is an opened blob: a file on the local disk (an *os.File) or an
// object in the bucket, read through ranged requests.
type File interface {
	io.ReadSeekCloser
	io.ReaderAt
	Stat() (fs.FileInfo, error)
}

// Open opens the store at root, creating root, root/blobs and root/tmp
// (mode 0700) when missing.
func Open(root string) (*Store, error) {
	dir, err := filepath.Abs(root)
	if err != nil {
		return nil, fmt.Errorf("resolve blob root: %w", err)
	}
	for _, d := range []string{dir, filepath.Join(dir, blobsDir), filepath.Join(dir, tmpDir)} {
		if err := os.MkdirAll(d, 0o700); err != nil {
			return nil, fmt.Errorf("create blob directory: %w", err)
		}
	}
	r, err := os.OpenRoot(dir)
	if err != nil {
		return nil, fmt.Errorf("open blob root: %w", err)
	}
	s := &Store{dir: dir, root: r}
	if err := s.reshard(); err != nil {
		_ = r.Close()
		return nil, err
	}
	return s, nil
}

// Close releases the store's handle on its root directory. The finalizer
// does the same, so only code that unmounts or deletes the root (tests)
// needs it. The Store must not be used afterwards.
func (s *Store) Close() error {
	if s.kept != nil {
		s.kept.drop("") // everything
	}
	if err := s.root.Close(); err != nil {
		return fmt.Errorf("close blob root: %w", err)
	}
	return nil
}

// Open opens the blob at key for reading. A missing blob (or a key naming a
// directory) is an error wrapping catalog.ErrNotFound.
func (s *Store) Open(key string) (File, error) {
	p, err := resolve(key)
	if err != nil {
		return nil, err
	}
	if s.bucket != nil {
		return s.bucket.open(key)
	}
	return s.openFile(key, p)
}

// openFile opens the local file of key at p (its resolved path).
func (s *Store) openFile(key, p string) (*os.File, error) {
	f, err := s.root.Open(p)
	if err != nil {
		return nil, notFound("open", key, err)
	}
	fi, err := f.Stat()
	if err != nil || !fi.Mode().IsRegular() {
		_ = f.Close()
		return nil, notFound("open", key, fs.ErrNotExist)
	}
	return f, nil
}

// Stat describes the blob at key; missing is an error wrapping
// catalog.ErrNotFound.
func (s *Store) Stat(key string) (os.FileInfo, error) {
	p, err := resolve(key)
	if err != nil {
		return nil, err
	}
	if s.bucket != nil {
		return s.bucket.stat(key)
	}
	fi, err := s.root.Lstat(p)
	if err != nil {
		return nil, notFound("stat", key, err)
	}
	if !fi.Mode().IsRegular() {
		return nil, notFound("stat", key, fs.ErrNotExist)
	}
	return fi, nil
}

// Remove deletes the blob at key, then the directories above it that became
// empty, up to blobs/. A missing blob is not an error, so Remove is
// idempotent. A key naming a directory is an error: use RemoveAll.
func (s *Store) Remove(key string) error {
	p, err := resolve(key)
	if err != nil {
		return err
	}
	if s.bucket != nil {
		s.kept.drop(key)
		return s.bucket.remove(key)
	}
	fi, err := s.root.Lstat(p)
	if missing(err) {
		return nil
	}
	if err != nil {
		return fmt.Errorf("remove blob %s: %w", key, err)
	}
	if fi.IsDir() {
		return fmt.Errorf("remove blob %s: is a directory", key)
	}
	if err := s.root.Remove(p); err != nil && !missing(err) {
		return fmt.Errorf("remove blob %s: %w", key, err)
	}
	s.prune(path.Dir(p))
	return nil
}

// RemoveAll deletes the blob or the whole tree at prefix (a key, such as
// "variants/asset_x"), then the directories above it that became empty.
// Missing is not an error.
func (s *Store) RemoveAll(prefix string) error {
	p, err := resolve(prefix)
	if err != nil {
		return err
	}
	if s.bucket != nil {
		s.kept.drop(prefix)
		return s.bucket.removeAll(prefix)
	}
	if err := s.root.RemoveAll(p); err != nil && !missing(err) {
		return fmt.Errorf("remove blobs under %s: %w", prefix, err)
	}
	s.prune(path.Dir(p))
	return nil
}

// prune removes dir (relative to the root) and its ancestors below blobs/
// while they are empty, shard directories included. It stops quietly at the
// first that is not: a failure only leaves an empty directory behind, and
// Commit copes with a directory vanishing under it.
func (s *Store) prune(dir string) {
	for ; strings.HasPrefix(dir, blobsDir+"/"); dir = path.Dir(dir) {
		if err := s.root.Remove(dir); err != nil {
			return
		}
	}
}

// Put stores everything r yields at key, with no size limit: Create, a copy
// and Commit in one call, for variants the server makes itself. Their sums
// are never read, so Put does not compute them, and a reader that writes
// itself out (a bytes.Reader) is copied without a buffer.
func (s *Store) Put(key string, r io.Reader) error {
	if _, err := resolve(key); err != nil {
		return err
	}
	if sized, ok := r.(interface{ Len() int }); ok && s.bucket != nil {
		return s.bucket.put(key, r, int64(sized.Len()))
	}
	w, err := s.create(0)
	if err != nil {
		return err
	}
	if _, err := io.Copy(w, r); err != nil {
		_ = w.Abort()
		return err
	}
	return w.Commit(key)
}

// missing reports whether err says there is nothing at a path, including
// "not a directory" for a path that runs through a file.
func missing(err error) bool {
	return errors.Is(err, fs.ErrNotExist) || errors.Is(err, syscall.ENOTDIR)
}

func notFound(verb, key string, err error) error {
	if missing(err) {
		return fmt.Errorf("%s blob %s: %w", verb, key, catalog.ErrNotFound)
	}
	return fmt.Errorf("%s blob %s: %w", verb, key, err)
}

// Local is a blob as a file on the local disk, for the tools that read by
// path (exiftool, ffprobe, libvips). Close it when the tool is done.
type Local struct {
	// Path is the file's absolute path.
	Path  string
	f     *os.File
	store *Store
	tmp   string // a downloaded copy's path relative to the root, removed on Close
}

// OpenLocal opens the blob at key as a file on the local disk: the blob's
// own file, checked to be the very file opened through the root (a path
// is looked up again by the tool), or, for a blob in a bucket, a copy in
// root/tmp — a link to the staging file this Store uploaded it from when
// it still keeps it (kept.go), else downloaded — removed on Close (and by
// CleanTemp after a crash). A missing blob wraps catalog.ErrNotFound.
func (s *Store) OpenLocal(key string) (*Local, error) {
	p, err := resolve(key)
	if err != nil {
		return nil, err
	}
	if s.bucket != nil {
		if l := s.openKept(key); l != nil {
			return l, nil
		}
		return s.download(key)
	}
	f, err := s.openFile(key, p)
	if err != nil {
		return nil, err
	}
	opened, err1 := f.Stat()
	named, err2 := os.Stat(f.Name())
	if err := errors.Join(err1, err2); err != nil {
		_ = f.Close()
		return nil, fmt.Errorf("open blob %s by path: %w", key, err)
	}
	if !os.SameFile(opened, named) {
		_ = f.Close()
		return nil, fmt.Errorf("open blob %s by path: %s is not the file the blob store opened", key, f.Name())
	}
	return &Local{Path: f.Name(), f: f, store: s}, nil
}

// download copies the object at key into a temp file, which the store
// then keeps like one it uploaded (kept.go): the ingest steps of a new
// original (metadata, then renderings) usually run one after the other in
// the same process, and the second then reads it without a download.
func (s *Store) download(key string) (*Local, error) {
	src, err := s.bucket.open(key)
	if err != nil {
		return nil, err
	}
	defer src.Close()
	w, err := s.create(0)
	if err != nil {
		return nil, err
	}
	n, err := io.Copy(w.f, src)
	if err != nil {
		_ = w.Abort()
		return nil, fmt.Errorf("download blob %s: %w", key, err)
	}
	if rel := s.kept.linkNew(w.rel); rel != "" {
		// The tool reads its own link; the downloaded name is kept.
		s.kept.keep(key, w.rel, n)
		return s.tempLocal(rel, w.f), nil
	}
	return s.tempLocal(w.rel, w.f), nil
}

// tempLocal is the temp file at rel, open as f, for a tool: Close removes it.
func (s *Store) tempLocal(rel string, f *os.File) *Local {
	return &Local{Path: filepath.Join(s.dir, filepath.FromSlash(rel)), f: f, store: s, tmp: rel}
}

// Close closes the file and removes a downloaded copy.
func (l *Local) Close() error {
	err := l.f.Close()
	if l.tmp != "" {
		if rerr := l.store.root.Remove(l.tmp); rerr != nil && !errors.Is(rerr, fs.ErrNotExist) {
			err = errors.Join(err, fmt.Errorf("remove downloaded copy: %w", rerr))
		}
	}
	return err
}

// CopyFrom stores the blob at key of src here, under the same key, whole
// or not at all (a bucket gets it in one upload of its known size), and
// returns its size. A missing blob wraps catalog.ErrNotFound.
func (s *Store) CopyFrom(src *Store, key string) (int64, error) {
	if _, err := resolve(key); err != nil {
		return 0, err
	}
	f, err := src.Open(key)
	if err != nil {
		return 0, err
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil {
		return 0, fmt.Errorf("copy blob %s: %w", key, err)
	}
	if s.bucket != nil {
		return fi.Size(), s.bucket.put(key, f, fi.Size())
	}
	return fi.Size(), s.Put(key, f)
}
