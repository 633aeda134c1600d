package blob

import (
	"os"
	"strings"
	"sync"
	"time"
)

// With the blobs in a bucket, the ingest tools read each new original by
// path twice (metadata, then renderings) within moments of its upload.
// A Store keeps the staging file of each blob it uploaded, and the copy
// of each it downloaded for a tool, for a while, so that OpenLocal in the
// same process hard-links it instead of downloading the object (again).
// What is kept lives in root/tmp like any temp file:
// Remove and RemoveAll drop it with the object, it expires after keepFor
// (within CleanTemp's margin for other processes' temp files, and a
// deletion made on another host leaves a copy here no longer than that),
// and the oldest go first past keepBytes. The newest stays even when it
// alone is larger (a long video): its second reader would download it
// again, and it is on this disk already; the next file kept lets it go.
const (
	keepFor   = 5 * time.Minute
	keepBytes = 512 << 20
)

// kept is a Store's set of kept staging files, by key.
type kept struct {
	root  *os.Root // the store's: the files are under its tmp/
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

func newKept(root *os.Root) *kept {
	return &kept{root: root, files: map[string]keptFile{}, limit: keepBytes, now: time.Now}
}

// keep takes over the temp file at rel, a copy of the blob at key; it
// removes the files it lets go.
func (k *kept) keep(key, rel string, size int64) {
	k.mu.Lock()
	defer k.mu.Unlock()
	k.dropLocked(key)
	k.files[key] = keptFile{rel: rel, size: size, at: k.now()}
	k.bytes += size
	k.trimLocked()
}

// link hard-links the kept file of key to a new temp name and returns it
// ("" when nothing usable is kept).
func (k *kept) link(key string) string {
	k.mu.Lock()
	defer k.mu.Unlock()
	k.trimLocked()
	f, ok := k.files[key]
	if !ok {
		return ""
	}
	rel := k.linkNew(f.rel)
	if rel == "" {
		// Gone (another process's CleanTemp, a full directory): forget it.
		k.dropLocked(key)
	}
	return rel
}

// linkNew hard-links the temp file at rel to a new temp name and returns
// it, or "" when it cannot.
func (k *kept) linkNew(rel string) string {
	link, err := tmpName("kept-")
	if err != nil || k.root.Link(rel, link) != nil {
		return ""
	}
	return link
}

// drop lets go of what is kept at or under prefix.
func (k *kept) drop(prefix string) {
	k.mu.Lock()
	defer k.mu.Unlock()
	for key := range k.files {
		if prefix == "" || key == prefix || strings.HasPrefix(key, prefix+"/") {
			k.dropLocked(key)
		}
	}
}

func (k *kept) dropLocked(key string) {
	if f, ok := k.files[key]; ok {
		_ = k.root.Remove(f.rel)
		k.bytes -= f.size
		delete(k.files, key)
	}
}

// trimLocked lets go of the expired files, then the oldest while more
// than keepBytes are kept, but never the newest.
func (k *kept) trimLocked() {
	cutoff := k.now().Add(-keepFor)
	for key, f := range k.files {
		if f.at.Before(cutoff) {
			k.dropLocked(key)
		}
	}
	for k.bytes > k.limit && len(k.files) > 1 {
		oldest := ""
		for key, f := range k.files {
			if oldest == "" || f.at.Before(k.files[oldest].at) {
				oldest = key
			}
		}
		k.dropLocked(oldest)
	}
}

// openKept opens the kept copy of key as a Local, or returns nil.
func (s *Store) openKept(key string) *Local {
	rel := s.kept.link(key)
	if rel == "" {
		return nil
	}
	f, err := s.root.Open(rel)
	if err != nil {
		_ = s.root.Remove(rel)
		return nil
	}
	return s.tempLocal(rel, f)
}
