package blob

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"log/slog"
	"maps"
	"os"
	"path"
	"slices"
	"strings"
	"syscall"
	"time"
)

// Files of the layout. Their names start with a dot, so no key names them
// and walks pass them by.
const (
	// layoutMark, in the store's root, says that blobs/ is in the shard
	// layout (keys.go, local): each kind's directory holds shards only.
	layoutMark = ".blob-layout"
	// reshardLock, in the store's root, is flocked by the process moving a
	// flat layout, so that processes opening the data directory at once
	// wait for one move; removed once the layout is marked.
	reshardLock = ".blob-layout.lock"
	// kindDone marks a kind's new directory as complete (all its blobs moved
	// in) before it takes the kind's name; removed once the layout is marked.
	kindDone = ".sharded"
	// newKind prefixes the name of a kind's new directory while its blobs
	// move in: blobs/.new.originals.
	newKind = ".new."
)

// reshardReport is how many entries of a kind the move logs its progress
// after: a library of millions takes minutes.
const reshardReport = 100_000

const layoutText = "photoctl blobs: each kind's directory holds 256 shard directories (docs/architecture.md)\n"

// reshard brings blobs/ into the shard layout, once: a data directory of
// photoctl before the shard directories holds an entry per asset in each
// kind's directory (blobs/originals/<id>, blobs/variants/<id>/...). Each of
// those entries is renamed into a new directory for the kind
// (blobs/.new.<kind>/<shard>/<id>), which then replaces the old one, now
// empty: an ext4 directory never shrinks, and one that held millions of
// entries would make every later listing read all its blocks. When every
// kind is done, the mark (.blob-layout in the root) says so and later Opens
// only look for it.
//
// Every step is a rename, or makes or removes an empty directory, so a
// crash leaves each blob at exactly one of its two places and the next Open
// goes on from there. Processes opening the data directory at once take
// turns (flock): the first moves, the others find the mark.
func (s *Store) reshard() error {
	if _, err := s.root.Lstat(layoutMark); err == nil {
		return nil
	}
	lock, err := s.root.OpenFile(reshardLock, os.O_CREATE|os.O_RDWR, 0o600)
	if err != nil {
		return fmt.Errorf("open the blob layout lock: %w", err)
	}
	defer lock.Close() // and so unlocked
	if err := syscall.Flock(int(lock.Fd()), syscall.LOCK_EX); err != nil {
		return fmt.Errorf("lock the blob layout: %w", err)
	}
	if _, err := s.root.Lstat(layoutMark); err == nil { // another process did it meanwhile
		_ = s.root.Remove(reshardLock) // made anew if that one had removed it already
		return nil
	}
	kinds, err := s.kindsToMove()
	if err != nil {
		return err
	}
	start, moved := time.Now(), 0
	for _, kind := range kinds {
		n, err := s.reshardKind(kind)
		moved += n
		if err != nil {
			return err
		}
	}
	if moved > 0 {
		slog.Info("blobs moved into shard directories", "entries", moved, "took", time.Since(start).Round(time.Millisecond))
	}
	if err := s.writeMark(); err != nil {
		return err
	}
	for _, kind := range kinds { // their new directories are in place for good
		_ = s.root.Remove(path.Join(blobsDir, kind, kindDone))
	}
	// A process still waiting for the lock finds the mark once it has it.
	_ = s.root.Remove(reshardLock)
	return nil
}

// kindsToMove lists the kinds in blobs/: their directories, and the new
// directories of kinds whose move a crash interrupted.
func (s *Store) kindsToMove() ([]string, error) {
	f, err := s.root.Open(blobsDir)
	if err != nil {
		return nil, fmt.Errorf("read blob directory: %w", err)
	}
	entries, err := f.ReadDir(-1)
	_ = f.Close()
	if err != nil {
		return nil, fmt.Errorf("read blob directory: %w", err)
	}
	var kinds []string
	for _, e := range entries {
		name := strings.TrimPrefix(e.Name(), newKind)
		if e.IsDir() && checkKey(name) == nil && !slices.Contains(kinds, name) {
			kinds = append(kinds, name)
		}
	}
	return kinds, nil
}

// reshardKind moves the kind's entries into blobs/.new.<kind>/<shard>/,
// marks that complete, and puts it in place of blobs/<kind>; it returns how
// many entries it moved. A kind whose directory is marked complete is done.
func (s *Store) reshardKind(kind string) (int, error) {
	old, next := path.Join(blobsDir, kind), path.Join(blobsDir, newKind+kind)
	if _, err := s.root.Lstat(path.Join(old, kindDone)); err == nil {
		return 0, nil // put in place before a crash
	}
	moved := 0
	if _, err := s.root.Lstat(old); err == nil {
		if err := s.root.Mkdir(next, 0o700); err != nil && !errors.Is(err, fs.ErrExist) {
			return 0, diskError("create blob directory", err)
		}
		slog.Info("moving blobs into shard directories (once, after an upgrade)", "kind", kind)
		// Renaming entries out of a directory while reading it may hide
		// others from that read: read again until nothing is left.
		for {
			n, err := s.moveEntries(kind)
			moved += n
			if err != nil {
				return moved, err
			}
			if n == 0 {
				break
			}
		}
		if err := s.root.Remove(old); err != nil && !missing(err) {
			return moved, fmt.Errorf("remove the old directory of %s blobs: %w", kind, err)
		}
	} else if !missing(err) {
		return 0, fmt.Errorf("look at %s blobs: %w", kind, err)
	}
	done, err := s.root.OpenFile(path.Join(next, kindDone), os.O_CREATE|os.O_WRONLY, 0o600)
	if err != nil {
		return moved, diskError("mark blob directory", err)
	}
	_ = done.Close()
	if err := s.syncDirs([]string{blobsDir, next}); err != nil {
		return moved, err
	}
	if err := s.root.Rename(next, old); err != nil {
		return moved, diskError("put the new directory of "+kind+" blobs in place", err)
	}
	return moved, s.syncDirs([]string{blobsDir})
}

// moveEntries renames every entry of blobs/<kind> into its shard of
// blobs/.new.<kind>, a chunk of the directory at a time, fsyncs the
// directories it changed, and returns how many it moved. An entry that is
// no blob's (its name breaks the key rules) moves as it is, beside the
// shards, where walks pass it by: nothing that was in the data directory
// is lost.
func (s *Store) moveEntries(kind string) (int, error) {
	m := &mover{s: s, kind: kind, next: path.Join(blobsDir, newKind+kind), dirs: map[string]*os.File{}}
	defer m.close()
	from, err := s.root.Open(path.Join(blobsDir, kind))
	if err != nil {
		return 0, fmt.Errorf("read %s blobs: %w", kind, err)
	}
	defer from.Close()
	for {
		entries, rerr := from.ReadDir(scanChunk)
		for _, e := range entries {
			name := e.Name()
			if e.IsDir() && isShard(name) { // in the shard layout already (a restore)
				if err := m.moveShard(from, name); err != nil {
					return m.moved, err
				}
				continue
			}
			dst := m.next
			if checkKey(kind+"/"+name) == nil {
				dst = path.Join(m.next, shard(name))
			}
			if _, err := m.move(from, name, dst); err != nil {
				return m.moved, err
			}
		}
		if errors.Is(rerr, io.EOF) || errors.Is(rerr, fs.ErrNotExist) {
			break
		}
		if rerr != nil {
			return m.moved, fmt.Errorf("read %s blobs: %w", kind, rerr)
		}
	}
	for _, d := range append(slices.Collect(maps.Values(m.dirs)), from) {
		if err := d.Sync(); err != nil {
			return m.moved, diskError("sync blob directory", err)
		}
	}
	return m.moved, nil
}

// mover renames entries of a kind's old directories into its new one,
// from directory to directory by descriptor (renameat(2)): every directory
// was opened through the root, and an entry's name, as read from its
// directory, is one path component. Through the root's own Rename each call
// would walk both paths again, which made the move twice as slow.
type mover struct {
	s     *Store
	kind  string
	next  string              // blobs/.new.<kind>
	dirs  map[string]*os.File // directories under next, opened, by path
	moved int                 // entries moved
}

// dir returns the directory at p (under next), made and opened once.
func (m *mover) dir(p string) (*os.File, error) {
	if d := m.dirs[p]; d != nil {
		return d, nil
	}
	if err := m.s.root.Mkdir(p, 0o700); err != nil && !errors.Is(err, fs.ErrExist) {
		return nil, diskError("create blob directory", err)
	}
	d, err := m.s.root.Open(p)
	if err != nil {
		return nil, fmt.Errorf("open blob directory: %w", err)
	}
	m.dirs[p] = d
	return d, nil
}

// move renames the entry name of from into the directory at dst and counts
// it; an entry gone meanwhile is not moved (false, no error).
func (m *mover) move(from *os.File, name, dst string) (bool, error) {
	to, err := m.dir(dst)
	if err != nil {
		return false, err
	}
	err = syscall.Renameat(int(from.Fd()), name, int(to.Fd()), name)
	switch {
	case errors.Is(err, syscall.ENOENT):
		return false, nil
	case err != nil:
		return false, diskError("move "+m.kind+"/"+name+" into its shard", err)
	}
	if m.moved++; m.moved%reshardReport == 0 {
		slog.Info("moving blobs into shard directories", "kind", m.kind, "entries", m.moved)
	}
	return true, nil
}

// moveShard moves the shard directory name of the kind's old directory
// (read through from) into next: whole, or, when next has that shard
// already, entry by entry. A kind's directory holds either an entry per
// asset (ids, never two hex digits) or shards, so a two-hex-digit directory
// there is a shard.
func (m *mover) moveShard(from *os.File, name string) error {
	_, err := m.move(from, name, m.next)
	if !errors.Is(err, syscall.EEXIST) && !errors.Is(err, syscall.ENOTEMPTY) {
		return err
	}
	old := path.Join(blobsDir, m.kind, name)
	src, err := m.s.root.Open(old)
	if err != nil {
		return fmt.Errorf("read %s blobs: %w", m.kind, err)
	}
	defer src.Close()
	entries, err := src.ReadDir(-1) // one shard: a 256th of the kind
	if err != nil {
		return fmt.Errorf("read %s blobs: %w", m.kind, err)
	}
	for _, e := range entries {
		if _, err := m.move(src, e.Name(), path.Join(m.next, name)); err != nil {
			return err
		}
	}
	if err := m.s.root.Remove(old); err != nil {
		return fmt.Errorf("remove an emptied shard of %s blobs: %w", m.kind, err)
	}
	return nil
}

// close closes the directories the mover opened.
func (m *mover) close() {
	for _, d := range m.dirs {
		_ = d.Close()
	}
}

// writeMark writes the layout mark and makes its entry durable.
func (s *Store) writeMark() error {
	f, err := s.root.OpenFile(layoutMark, os.O_CREATE|os.O_WRONLY|os.O_TRUNC, 0o600)
	if err != nil {
		return diskError("write the blob layout mark", err)
	}
	_, err = f.WriteString(layoutText)
	if err == nil {
		err = f.Sync()
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return diskError("write the blob layout mark", err)
	}
	return s.syncDirs([]string{"."})
}
