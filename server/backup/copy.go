package backup

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
)

// durability says when a copied file must be on disk.
type durability int

const (
	// syncAtCommit leaves a copy in the page cache: the caller makes the whole
	// tree durable at once (syncTree) before it commits to what it copied
	// (the manifest, the restored database). Thousands of files then cost
	// one flush, not two fsyncs each.
	syncAtCommit durability = iota
	// syncNow fsyncs the copy and its directory before copyFile returns.
	syncNow
)

// copyFile copies src to dst through a temporary file beside dst, renamed
// into place, hashing the bytes on the way: a reader of dst sees the old
// file or the whole new one. With d == syncNow, or where the tree cannot be
// flushed at once (syncTree), the copy and its directory are fsynced first.
func copyFile(src, dst string, d durability) (sum string, size int64, err error) {
	in, err := os.Open(src)
	if err != nil {
		return "", 0, err
	}
	defer in.Close()
	if err := os.MkdirAll(filepath.Dir(dst), 0o700); err != nil {
		return "", 0, fmt.Errorf("create directory: %w", err)
	}
	tmp, err := os.CreateTemp(filepath.Dir(dst), ".tmp-*")
	if err != nil {
		return "", 0, fmt.Errorf("create temporary file: %w", err)
	}
	done := false
	defer func() {
		if !done {
			tmp.Close()
			os.Remove(tmp.Name())
		}
	}()
	h := sha256.New()
	size, err = io.Copy(io.MultiWriter(tmp, h), in)
	if err != nil {
		return "", 0, fmt.Errorf("copy %s: %w", src, err)
	}
	sync := d == syncNow || !treeSync
	if sync {
		err = tmp.Sync()
	}
	if err := errors.Join(err, tmp.Close()); err != nil {
		return "", 0, fmt.Errorf("write %s: %w", dst, err)
	}
	if err := os.Rename(tmp.Name(), dst); err != nil {
		return "", 0, fmt.Errorf("rename into place: %w", err)
	}
	done = true
	if sync {
		err = syncDir(filepath.Dir(dst))
	}
	return hex.EncodeToString(h.Sum(nil)), size, err
}

// hashFile returns the SHA-256 and size of the file at p.
func hashFile(p string) (string, int64, error) {
	f, err := os.Open(p)
	if err != nil {
		return "", 0, err
	}
	defer f.Close()
	h := sha256.New()
	n, err := io.Copy(h, f)
	if err != nil {
		return "", 0, fmt.Errorf("read %s: %w", p, err)
	}
	return hex.EncodeToString(h.Sum(nil)), n, nil
}

// syncDir makes the entries of dir durable.
func syncDir(dir string) error {
	d, err := os.Open(dir)
	if err != nil {
		return fmt.Errorf("sync directory: %w", err)
	}
	defer d.Close()
	if err := d.Sync(); err != nil {
		return fmt.Errorf("sync directory: %w", err)
	}
	return nil
}
