package blob

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"path"
	"strings"
)

// renameAttempts bounds how often Commit recreates a parent directory that a
// concurrent Remove pruned before the Rename.
const renameAttempts = 5

// Commit makes the blob visible at key, replacing any blob there: fsync the
// temp file, close it, create the parent directories, rename it into place
// and fsync the directories whose entries changed. It is atomic: a reader
// sees either nothing (or the previous blob) or the whole new one, also
// after a crash. Commit finishes the Writer whether it succeeds or not; on
// failure the temp file is removed.
func (w *Writer) Commit(key string) error {
	if w.done {
		return errors.New("commit blob: writer is finished")
	}
	err := w.commit(key)
	if err != nil {
		_ = w.Abort()
	}
	w.done = true
	return err
}

func (w *Writer) commit(key string) error {
	dst, err := resolve(key)
	if err != nil {
		return err
	}
	if w.store.bucket != nil {
		return w.upload(key)
	}
	if err := w.Sync(); err != nil {
		return err
	}
	err = w.f.Close()
	w.f = nil
	if err != nil {
		return diskError("close blob", err)
	}
	parent := path.Dir(dst)
	var dirty []string // directories (relative to the root) whose entries changed
	for attempt := 1; ; attempt++ {
		// A concurrent Remove may prune an empty ancestor between two of
		// mkdirs' levels, or between mkdirs and Rename: both fail with
		// "not exist", and the next attempt makes the path again.
		made, err := w.store.mkdirs(parent)
		dirty = append(dirty, made...)
		if err == nil {
			if err = w.store.root.Rename(w.rel, dst); err != nil {
				err = diskError("rename blob into place", err)
			}
		}
		if err == nil {
			break
		}
		if !errors.Is(err, fs.ErrNotExist) || attempt == renameAttempts {
			return err
		}
	}
	dirty = append(dirty, path.Dir(dst))
	return w.store.syncDirs(dirty)
}

// Sync flushes the blob's bytes to disk now, so that a later Commit only
// renames it: callers that must commit inside a short critical section
// (the single database writer) pay for the flush before entering it.
// Writes after a Sync are flushed by Commit.
//
// With the blobs in a bucket, the temp file is only a staging copy that
// Commit uploads (the upload is what makes it durable), so Sync has
// nothing to flush.
func (w *Writer) Sync() error {
	switch {
	case w.err != nil:
		return w.err
	case w.done:
		return errors.New("sync blob: writer is finished")
	case w.synced == w.size, w.store.bucket != nil:
		return nil
	}
	if err := w.f.Sync(); err != nil {
		return diskError("sync blob", err)
	}
	w.synced = w.size
	return nil
}

// upload sends the temp file to the bucket at key, then hands it to the
// store's kept files.
func (w *Writer) upload(key string) error {
	if w.err != nil {
		return w.err
	}
	if _, err := w.f.Seek(0, io.SeekStart); err != nil {
		return diskError("read blob", err)
	}
	if err := w.store.bucket.put(key, w.f, w.size); err != nil {
		return err
	}
	_ = w.f.Close()
	w.f = nil
	w.store.kept.keep(key, w.rel, w.size) // for the ingest tools, a while (kept.go)
	return nil
}

// Abort closes and removes the temp file. It is a no-op after Commit and
// when called again.
func (w *Writer) Abort() error {
	if w.done {
		return nil
	}
	w.done = true
	if w.f != nil {
		_ = w.f.Close()
		w.f = nil
	}
	if err := w.store.root.Remove(w.rel); err != nil && !errors.Is(err, fs.ErrNotExist) {
		return fmt.Errorf("remove temp file: %w", err)
	}
	return nil
}

// mkdirs creates dir (relative to the root, at or below blobs/) and its
// missing ancestors below blobs/ (0700) one level at a time, and returns the
// parents of the directories it created: those are the directories whose
// new entries must be fsynced.
func (s *Store) mkdirs(dir string) ([]string, error) {
	sub, ok := strings.CutPrefix(dir, blobsDir+"/")
	if !ok { // blobs/ itself, which Open made
		return nil, nil
	}
	var made []string
	p := blobsDir
	for seg := range strings.SplitSeq(sub, "/") {
		parent := p
		p = path.Join(p, seg)
		err := s.root.Mkdir(p, 0o700)
		switch {
		case err == nil:
			made = append(made, parent)
		case errors.Is(err, fs.ErrExist):
		default:
			return made, diskError("create blob directory", err)
		}
	}
	return made, nil
}

// syncDirs fsyncs each directory once, deepest first.
func (s *Store) syncDirs(dirs []string) error {
	seen := make(map[string]bool, len(dirs))
	for i := len(dirs) - 1; i >= 0; i-- {
		d := dirs[i]
		if seen[d] {
			continue
		}
		seen[d] = true
		f, err := s.root.Open(d)
		if err != nil {
			return fmt.Errorf("open blob directory: %w", err)
		}
		err = f.Sync()
		_ = f.Close()
		if err != nil {
			return diskError("sync blob directory", err)
		}
	}
	return nil
}
