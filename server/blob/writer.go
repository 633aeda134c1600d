package blob

import (
	"bytes"
	"crypto/rand"
	"crypto/sha1" // the Immich checksum, not a security measure
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"hash"
	"io"
	"os"
	"path"
	"path/filepath"
	"sync"
	"syscall"

	"github.com/photoctl/photoctl/server/catalog"
)

// HeadSize is how many leading bytes Writer.Head keeps for content sniffing.
const HeadSize = 8 << 10

// copyBufSize is the buffer ReadFrom reads through.
const copyBufSize = 256 << 10

// copyBufs keeps ReadFrom's buffers between uploads: a fresh 256 KiB costs
// its page faults and zeroing every time (about 1 ms on a virtual machine).
var copyBufs = sync.Pool{New: func() any { return new([copyBufSize]byte) }}

// Writer streams one new blob into a temp file under root/tmp while computing
// its SHA-256 and SHA-1 and counting its bytes. Commit moves it into place;
// Abort throws it away. Call one of them, always (defer w.Abort() is safe
// after Commit). A Writer is not safe for concurrent use.
type Writer struct {
	store *Store
	f     *os.File
	rel   string // temp file path relative to the store root
	max   int64
	size  int64
	// synced is the size at the last Sync (-1: never synced, so an empty
	// blob is flushed too).
	synced int64
	h256   hash.Hash // nil, with h1 and head, for Put's writers: nobody reads them
	h1     hash.Hash
	head   []byte
	err    error // sticky: the first write failure
	done   bool  // committed or aborted
}

// Create starts a new blob in a temp file. A write that would take the blob
// past maxBytes fails with an error wrapping catalog.ErrTooLarge; maxBytes ≤ 0
// means no limit.
func (s *Store) Create(maxBytes int64) (*Writer, error) {
	w, err := s.create(maxBytes)
	if err != nil {
		return nil, err
	}
	w.h256, w.h1, w.head = sha256.New(), sha1.New(), make([]byte, 0, HeadSize)
	return w, nil
}

// create starts a blob that keeps neither sums nor head (Put's).
func (s *Store) create(maxBytes int64) (*Writer, error) {
	rel, err := tmpName("upload-")
	if err != nil {
		return nil, err
	}
	f, err := s.root.OpenFile(rel, os.O_RDWR|os.O_CREATE|os.O_EXCL, 0o600)
	if err != nil {
		return nil, diskError("create temp file", err)
	}
	return &Writer{store: s, f: f, rel: rel, max: maxBytes, synced: -1}, nil
}

// tmpName is a new random name in root/tmp, relative to the root.
func tmpName(prefix string) (string, error) {
	var b [12]byte
	if _, err := rand.Read(b[:]); err != nil {
		return "", fmt.Errorf("name temp file: %w", err)
	}
	return path.Join(tmpDir, prefix+hex.EncodeToString(b[:])), nil
}

// Write appends p to the blob. A write that would pass the size limit writes
// nothing and fails with an error wrapping catalog.ErrTooLarge; a full disk or
// quota (ENOSPC, EDQUOT) with one wrapping catalog.ErrInsufficient. After a
// failure every later Write fails the same way and Commit refuses.
func (w *Writer) Write(p []byte) (int, error) {
	if w.err != nil {
		return 0, w.err
	}
	if w.done {
		return 0, errors.New("write blob: writer is finished")
	}
	if w.max > 0 && int64(len(p)) > w.max-w.size {
		w.err = fmt.Errorf("write blob: more than %d bytes: %w", w.max, catalog.ErrTooLarge)
		return 0, w.err
	}
	n, err := w.f.Write(p)
	// Hash exactly what reached the file, even on a short write; this is
	// io.MultiWriter spelled out so that a partial write stays consistent.
	if w.h256 != nil {
		w.h256.Write(p[:n])
		w.h1.Write(p[:n])
		if room := HeadSize - len(w.head); room > 0 {
			w.head = append(w.head, p[:min(n, room)]...)
		}
	}
	w.size += int64(n)
	if err != nil {
		w.err = diskError("write blob", err)
		return n, w.err
	}
	return n, nil
}

// ReadFrom copies r into the blob through a 256 KiB buffer, with the same
// limits and errors as Write. It returns the bytes written.
func (w *Writer) ReadFrom(r io.Reader) (int64, error) {
	bp := copyBufs.Get().(*[copyBufSize]byte)
	defer copyBufs.Put(bp)
	buf := bp[:]
	var total int64
	for {
		n, rerr := fill(r, buf)
		if n > 0 {
			m, err := w.Write(buf[:n])
			total += int64(m)
			if err != nil {
				return total, err
			}
		}
		switch {
		case rerr == io.EOF:
			return total, nil
		case rerr != nil:
			return total, fmt.Errorf("read blob source: %w", rerr)
		}
	}
}

// fill reads into buf until it is full or r fails, and returns r's own
// error. Unlike io.ReadFull it never turns a short read into
// io.ErrUnexpectedEOF, so a source that reports a truncated stream (a
// multipart part cut off mid-file) is never mistaken for a clean end.
func fill(r io.Reader, buf []byte) (int, error) {
	n := 0
	for n < len(buf) {
		m, err := r.Read(buf[n:])
		n += m
		if err != nil {
			return n, err
		}
	}
	return n, nil
}

// Size reports the bytes written so far.
func (w *Writer) Size() int64 { return w.size }

// SHA256 returns the SHA-256 of the bytes written so far: the blob's digest
// once the last write is done.
func (w *Writer) SHA256() []byte { return w.h256.Sum(nil) }

// SHA1 returns the SHA-1 of the bytes written so far (the checksum Immich
// clients compare).
func (w *Writer) SHA1() []byte { return w.h1.Sum(nil) }

// Head returns a copy of the first HeadSize bytes written (fewer if the blob
// is shorter), for content sniffing.
func (w *Writer) Head() []byte { return bytes.Clone(w.head) }

// TempPath is the absolute path of the temp file, for tools such as exiftool
// or ffprobe that need a path before the blob is committed. Read it only; it
// disappears at Commit or Abort.
func (w *Writer) TempPath() string {
	return filepath.Join(w.store.dir, filepath.FromSlash(w.rel))
}

// diskError wraps err, adding catalog.ErrInsufficient when the disk or the
// quota is full.
func diskError(verb string, err error) error {
	if errors.Is(err, syscall.ENOSPC) || errors.Is(err, syscall.EDQUOT) {
		return fmt.Errorf("%s: %w: %w", verb, catalog.ErrInsufficient, err)
	}
	return fmt.Errorf("%s: %w", verb, err)
}
