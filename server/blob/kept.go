package blob

import (
	"crypto/rand"
	"encoding/hex"
	"errors"
	"io/fs"
	"path"
	"path/filepath"
	"strings"
	"sync"
	"time"
)

// With the blobs in a bucket, the ingest tools read each new original by
// path twice (metadata, then renderings) within moments of its upload.
// A Store keeps the staging file of each blob it uploaded, and the copy
// of each it downloaded for a tool, for a while, so that OpenLocal in the
// same process hard-links it instead of downloading the object (again). What is kept lives in root/tmp like any temp file:
// Remove and RemoveAll drop it with the object, it expires after keepFor
// (within CleanTemp's margin for other processes' temp files, and a
// deletion made on another host leaves a copy here no longer than that),
// and the oldest go first past keepBytes.
const (
	keepFor   = 5 * time.Minute
	keepBytes = 512 << 20
)

// kept is a Store's set of kept staging files, by key.
type kept struct {
	mu    sync.Mutex
	files map[string]keptFile
	bytes int64
	limit int64 // keepBytes; smaller in tests
	now   func() time.Time
}

type keptFile struct {
	rel  string // relative to the store's root
	size int64
	at   time.Time
}

func newKept() *kept { return &kept{files: map[string]keptFile{}, limit: keepBytes, now: time.Now} }

// keep takes over the staging file at rel, now uploaded as key; s removes
// the files it lets go.
func (k *kept) keep(s *Store, key, rel string, size int64) {
	k.mu.Lock()
	defer k.mu.Unlock()
	k.dropLocked(s, key)
	if size > k.limit {
		_ = s.root.Remove(rel)
		return
	}
	k.files[key] = keptFile{rel: rel, size: size, at: k.now()}
	k.bytes += size
	k.trimLocked(s)
}

// link hard-links the kept file of key to a new temp name and returns it
// ("" when nothing usable is kept).
func (k *kept) link(s *Store, key string) string {
	k.mu.Lock()
	defer k.mu.Unlock()
	k.trimLocked(s)
	f, ok := k.files[key]
	if !ok {
		return ""
	}
	rel := k.linkNew(s, f.rel)
	if rel == "" {
		// Gone (another process's CleanTemp, a full directory): forget it.
		k.dropLocked(s, key)
	}
	return rel
}

// linkNew hard-links the temp file at rel to a new temp name and returns
// it, or "" when it cannot.
func (k *kept) linkNew(s *Store, rel string) string {
	var b [12]byte
	if _, err := rand.Read(b[:]); err != nil {
		return ""
	}
	link := path.Join(tmpDir, "kept-"+hex.EncodeToString(b[:]))
	if err := s.root.Link(rel, link); err != nil {
		return ""
	}
	return link
}

// drop lets go of what is kept at or under prefix.
func (k *kept) drop(s *Store, prefix string) {
	k.mu.Lock()
	defer k.mu.Unlock()
	for key := range k.files {
		if prefix == "" || key == prefix || strings.HasPrefix(key, prefix+"/") {
			k.dropLocked(s, key)
		}
	}
}

// dropAll lets go of everything (Close).
func (k *kept) dropAll(s *Store) { k.drop(s, "") }

func (k *kept) dropLocked(s *Store, key string) {
	if f, ok := k.files[key]; ok {
		_ = s.root.Remove(f.rel)
		k.bytes -= f.size
		delete(k.files, key)
	}
}

// trimLocked lets go of the expired files, then the oldest while more
// than keepBytes are kept.
func (k *kept) trimLocked(s *Store) {
	cutoff := k.now().Add(-keepFor)
	for key, f := range k.files {
		if f.at.Before(cutoff) {
			k.dropLocked(s, key)
		}
	}
	for k.bytes > k.limit && len(k.files) > 0 {
		oldest := ""
		for key, f := range k.files {
			if oldest == "" || f.at.Before(k.files[oldest].at) {
				oldest = key
			}
		}
		k.dropLocked(s, oldest)
	}
}

// openKept opens the kept copy of key as a Local, or returns nil.
func (s *Store) openKept(key string) *Local {
	rel := s.kept.link(s, key)
	if rel == "" {
		return nil
	}
	f, err := s.root.Open(rel)
	if err != nil {
		if !errors.Is(err, fs.ErrNotExist) {
			_ = s.root.Remove(rel)
		}
		return nil
	}
	return &Local{Path: filepath.Join(s.dir, filepath.FromSlash(rel)), f: f, store: s, tmp: rel}
}
