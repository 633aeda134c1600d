package blob

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path"
	"slices"
	"strings"
	"time"
)

// Walk calls fn for every blob at or under prefix (a key such as "originals"
// or "variants/asset_x"; "" means the whole store) in lexical byte order of
// the keys, the order of SQL's ORDER BY key. In a bucket that is the
// listing's order, read a page at a time; in a directory a kind's keys are
// spread over its shards, so Walk holds a kind's entries (one per asset) in
// memory to sort them: work over a large store uses Scan. A missing prefix
// yields nothing. Entries that are not regular
// files or whose names break the key rules are skipped, as are entries that
// vanish during the walk. An error from fn stops the walk and is returned
// unchanged.
func (s *Store) Walk(prefix string, fn func(key string, size int64) error) error {
	return s.visit(prefix, fn, s.walkDir)
}

// Scan calls fn for every blob at or under prefix, as Walk does but in no
// particular order: it reads each directory a chunk at a time, so its
// memory does not grow with a directory's size (originals/ holds an entry
// per asset). Blobs fn removes do not disturb it; a blob added meanwhile
// may or may not be seen. In a bucket it is Walk (the listing is paged).
func (s *Store) Scan(prefix string, fn func(key string, size int64) error) error {
	return s.visit(prefix, fn, s.scanDir)
}

// visit resolves prefix for Walk and Scan and hands a directory to dir.
func (s *Store) visit(prefix string, fn func(key string, size int64) error,
	dir func(dir string, fn func(key string, size int64) error) error) error {
	if s.bucket != nil {
		if prefix != "" {
			if _, err := resolve(prefix); err != nil {
				return err
			}
		}
		return s.bucket.walk(prefix, fn)
	}
	if prefix == "" {
		return dir("", fn)
	}
	p, err := resolve(prefix)
	if err != nil {
		return err
	}
	fi, err := s.root.Lstat(p)
	switch {
	case missing(err):
		return nil
	case err != nil:
		return fmt.Errorf("walk blobs under %s: %w", prefix, err)
	case fi.Mode().IsRegular():
		return fn(prefix, fi.Size())
	case fi.IsDir():
		return dir(prefix, fn)
	}
	return nil
}

// walkDir visits the tree of the key prefix dir; a kind's entries are
// those of all its shards, merged. Sorting a directory's entries by name,
// with "/" appended to directory names, makes a depth-first walk yield keys
// in byte order: "a-b" < "a.c" < "a/x" < "a0" because '-' < '.' < '/' < '0'.
func (s *Store) walkDir(dir string, fn func(key string, size int64) error) error {
	f, err := s.openDir(dirPath(dir))
	if f == nil {
		return err
	}
	entries, err := f.ReadDir(-1)
	_ = f.Close()
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		return fmt.Errorf("walk blobs: %w", err)
	}
	sortName := func(e fs.DirEntry) string {
		if e.IsDir() {
			return e.Name() + "/"
		}
		return e.Name()
	}
	if isKind(dir) { // the entries are shards: theirs, merged, are the kind's
		var all []fs.DirEntry
		for _, sh := range shards(entries) {
			f, err := s.openDir(path.Join(blobsDir, dir, sh))
			if f == nil {
				if err != nil {
					return err
				}
				continue
			}
			in, err := f.ReadDir(-1)
			_ = f.Close()
			if err != nil && !errors.Is(err, fs.ErrNotExist) {
				return fmt.Errorf("walk blobs: %w", err)
			}
			all = append(all, in...)
		}
		entries = all
	}
	slices.SortFunc(entries, func(a, b fs.DirEntry) int { return strings.Compare(sortName(a), sortName(b)) })
	return s.visitEntries(dir, entries, fn, s.walkDir)
}

// isKind tells whether dir, a key prefix, is a kind: a directory of shards
// (keys.go, local).
func isKind(dir string) bool { return dir != "" && !strings.Contains(dir, "/") }

// shards returns the names of the shard directories among a kind's
// entries; anything else there is no blob's (reshard moves what an older
// layout left).
func shards(entries []fs.DirEntry) []string {
	var names []string
	for _, e := range entries {
		if e.IsDir() && isShard(e.Name()) {
			names = append(names, e.Name())
		}
	}
	return names
}

// dirPath is the directory, relative to the root, of dir: a checked key
// prefix, "" for blobs/ itself.
func dirPath(dir string) string {
	if dir == "" || isKind(dir) {
		return path.Join(blobsDir, dir)
	}
	p, _ := rel(dir)
	return p
}

// openDir opens the directory at p (relative to the root) to read it; nil
// and no error when it is missing.
func (s *Store) openDir(p string) (*os.File, error) {
	f, err := s.root.Open(p)
	switch {
	case missing(err):
		return nil, nil
	case err != nil:
		return nil, fmt.Errorf("walk blobs: %w", err)
	}
	return f, nil
}

// scanChunk is how many entries Scan reads of a directory at a time.
const scanChunk = 1024

// scanDir visits the tree at dir in directory order, a chunk of entries at
// a time; a kind's, shard after shard.
func (s *Store) scanDir(dir string, fn func(key string, size int64) error) error {
	if !isKind(dir) {
		return s.scanEntries(dir, dirPath(dir), fn)
	}
	f, err := s.openDir(dirPath(dir))
	if f == nil {
		return err
	}
	entries, err := f.ReadDir(-1) // the shards: 256 at most
	_ = f.Close()
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		return fmt.Errorf("scan blobs: %w", err)
	}
	for _, sh := range shards(entries) {
		if err := s.scanEntries(dir, path.Join(blobsDir, dir, sh), fn); err != nil {
			return err
		}
	}
	return nil
}

// scanEntries reads the directory at p (relative to the root: dir's own, or
// a shard of the kind dir) a chunk at a time and visits its entries as
// those of dir.
func (s *Store) scanEntries(dir, p string, fn func(key string, size int64) error) error {
	f, err := s.openDir(p)
	if f == nil {
		return err
	}
	defer f.Close()
	for {
		entries, err := f.ReadDir(scanChunk)
		if err := s.visitEntries(dir, entries, fn, s.scanDir); err != nil {
			return err
		}
		switch {
		case errors.Is(err, io.EOF) || errors.Is(err, fs.ErrNotExist):
			return nil
		case err != nil:
			return fmt.Errorf("scan blobs: %w", err)
		}
	}
}

// visitEntries calls fn for the regular files among entries of blobs/<dir>
// and descends into its subdirectories with sub; names that break the key
// rules, other kinds of entries and entries gone meanwhile are skipped.
func (s *Store) visitEntries(dir string, entries []fs.DirEntry, fn func(key string, size int64) error,
	sub func(dir string, fn func(key string, size int64) error) error) error {
	for _, e := range entries {
		key := path.Join(dir, e.Name())
		if checkKey(key) != nil {
			continue
		}
		if e.IsDir() {
			if err := sub(key, fn); err != nil {
				return err
			}
			continue
		}
		if !e.Type().IsRegular() {
			continue
		}
		fi, err := e.Info()
		if errors.Is(err, fs.ErrNotExist) {
			continue
		}
		if err != nil {
			return fmt.Errorf("walk blobs: %w", err)
		}
		if err := fn(key, fi.Size()); err != nil {
			return err
		}
	}
	return nil
}

// CleanTemp removes temp files last modified more than olderThan ago: those
// a crash or a killed upload left behind. It returns how many it removed.
// Temp files of uploads still running are younger than any sensible
// olderThan; CleanTemp(0) is only safe before the first Create.
func (s *Store) CleanTemp(olderThan time.Duration) (int, error) {
	f, err := s.root.Open(tmpDir)
	if err != nil {
		return 0, fmt.Errorf("open temp directory: %w", err)
	}
	entries, err := f.ReadDir(-1)
	_ = f.Close()
	if err != nil {
		return 0, fmt.Errorf("list temp directory: %w", err)
	}
	cutoff := time.Now().Add(-olderThan)
	removed := 0
	var errs []error
	for _, e := range entries {
		if !e.Type().IsRegular() {
			continue
		}
		fi, err := e.Info()
		if err != nil || fi.ModTime().After(cutoff) {
			continue
		}
		err = s.root.Remove(path.Join(tmpDir, e.Name()))
		switch {
		case err == nil:
			removed++
		case !errors.Is(err, fs.ErrNotExist):
			errs = append(errs, err)
		}
	}
	if len(errs) > 0 {
		return removed, fmt.Errorf("remove temp files: %w", errors.Join(errs...))
	}
	return removed, nil
}
