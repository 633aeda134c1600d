package importer

import (
	"bufio"
	"bytes"
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"errors"
	"fmt"
	"hash/crc32"
	"os"
	"path/filepath"
	"sync"
	"time"
)

// Index remembers the SHA-256 of files by (path, size, modification
// time), so that a second upload of an unchanged folder hashes nothing. It
// is a cache: losing it costs time, never correctness, because the server
// is asked about every checksum anyway.
//
// On disk it is an append-only log of records, each framed with its length
// and a CRC-32C, so that an interrupted run (Ctrl-C, kill -9, power loss)
// leaves every record written before it readable and a torn last record is
// dropped on load. Later records for a path replace earlier ones. Close
// rewrites the log with only the live entries when it has grown with
// superseded ones or with files that are gone.
//
// An Index is safe for concurrent use.
type Index struct {
	path    string
	mu      sync.Mutex
	entries map[string]indexEntry
	seen    map[string]bool // paths looked up or added in this run
	records int             // records in the file, live or superseded
	torn    bool            // the file ended in a damaged record
	f       *os.File
	w       *bufio.Writer
	pending int // records in w not yet written to f
	err     error
}

type indexEntry struct {
	size    int64
	modTime int64 // Unix nanoseconds
	sum     [sha256.Size]byte
}

const (
	indexMagic = "photoctl upload index v1\n"
	// flushEvery bounds how many records an abrupt end can lose.
	flushEvery = 64
	// maxRecord bounds one record on load, against a corrupt length.
	maxRecord = 64 << 10
)

var crcTable = crc32.MakeTable(crc32.Castagnoli)

// IndexPath is where the index of the folder dir lives below cacheDir: one
// file per folder, named after a hash of its absolute path.
func IndexPath(cacheDir, dir string) string {
	sum := sha256.Sum256([]byte(dir))
	return filepath.Join(cacheDir, "upload-index", hex.EncodeToString(sum[:12])+".log")
}

// OpenIndex loads the index at path, creating it (and its folder) if
// missing. A file that is not an index is an error; a damaged tail is not.
func OpenIndex(path string) (*Index, error) {
	x := &Index{path: path, entries: make(map[string]indexEntry), seen: make(map[string]bool)}
	data, err := os.ReadFile(path)
	switch {
	case errors.Is(err, os.ErrNotExist):
		if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
			return nil, fmt.Errorf("create index folder: %w", err)
		}
	case err != nil:
		return nil, fmt.Errorf("read index: %w", err)
	default:
		if err := x.load(data); err != nil {
			return nil, fmt.Errorf("index %s: %w", path, err)
		}
	}
	if x.torn || len(data) == 0 {
		// Start a clean file: appending after a torn record would hide
		// every later one.
		if err := x.rewrite(false); err != nil {
			return nil, err
		}
	}
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_APPEND, 0o600)
	if err != nil {
		return nil, fmt.Errorf("open index: %w", err)
	}
	x.f, x.w = f, bufio.NewWriterSize(f, 64<<10)
	return x, nil
}

func (x *Index) load(data []byte) error {
	if !bytes.HasPrefix(data, []byte(indexMagic)) {
		if len(data) < len(indexMagic) && bytes.HasPrefix([]byte(indexMagic), data) {
			x.torn = true
			return nil
		}
		return errors.New("not a photoctl upload index")
	}
	rest := data[len(indexMagic):]
	for len(rest) > 0 {
		n, k := binary.Uvarint(rest)
		if k <= 0 || n > maxRecord || uint64(len(rest)-k) < n+4 {
			x.torn = true
			return nil
		}
		payload := rest[k : k+int(n)]
		if crc32.Checksum(payload, crcTable) != binary.LittleEndian.Uint32(rest[k+int(n):]) {
			x.torn = true
			return nil
		}
		rel, e, ok := decodeRecord(payload)
		if !ok {
			x.torn = true
			return nil
		}
		x.entries[rel] = e
		x.records++
		rest = rest[k+int(n)+4:]
	}
	return nil
}

// Lookup returns the checksum recorded for the file rel if its size and
// modification time are unchanged.
func (x *Index) Lookup(rel string, size int64, modTime time.Time) ([sha256.Size]byte, bool) {
	x.mu.Lock()
	defer x.mu.Unlock()
	x.seen[rel] = true
	e, ok := x.entries[rel]
	if !ok || e.size != size || e.modTime != modTime.UnixNano() {
		return [sha256.Size]byte{}, false
	}
	return e.sum, true
}

// Add records the checksum of the file rel.
func (x *Index) Add(rel string, size int64, modTime time.Time, sum [sha256.Size]byte) error {
	e := indexEntry{size: size, modTime: modTime.UnixNano(), sum: sum}
	x.mu.Lock()
	defer x.mu.Unlock()
	x.seen[rel] = true
	x.entries[rel] = e
	if x.err != nil {
		return x.err
	}
	if _, err := x.w.Write(frame(rel, e)); err != nil {
		x.err = fmt.Errorf("write index: %w", err)
		return x.err
	}
	x.records++
	if x.pending++; x.pending >= flushEvery {
		x.pending = 0
		if err := x.w.Flush(); err != nil {
			x.err = fmt.Errorf("write index: %w", err)
		}
	}
	return x.err
}

// Close writes what is buffered and closes the file. With complete set (the
// run saw every file under the folder), entries of files not seen are
// dropped, and the log is rewritten when that or superseded records make
// it at least half garbage.
func (x *Index) Close(complete bool) error {
	x.mu.Lock()
	defer x.mu.Unlock()
	err := x.err
	if ferr := x.w.Flush(); err == nil && ferr != nil {
		err = fmt.Errorf("write index: %w", ferr)
	}
	if cerr := x.f.Close(); err == nil && cerr != nil {
		err = fmt.Errorf("close index: %w", cerr)
	}
	if err != nil {
		return err
	}
	live := len(x.entries)
	if complete {
		live = len(x.seen)
	}
	if x.records > 2*live+flushEvery {
		return x.rewrite(complete)
	}
	return nil
}

// rewrite replaces the file by one holding the live entries, atomically
// (temporary file, fsync, rename).
func (x *Index) rewrite(onlySeen bool) error {
	tmp, err := os.CreateTemp(filepath.Dir(x.path), ".upload-index-*")
	if err != nil {
		return fmt.Errorf("rewrite index: %w", err)
	}
	defer os.Remove(tmp.Name()) // after a successful rename there is nothing left to remove
	w := bufio.NewWriterSize(tmp, 256<<10)
	_, _ = w.WriteString(indexMagic)
	n := 0
	for rel, e := range x.entries {
		if onlySeen && !x.seen[rel] {
			continue
		}
		_, _ = w.Write(frame(rel, e))
		n++
	}
	if err := w.Flush(); err != nil {
		tmp.Close()
		return fmt.Errorf("rewrite index: %w", err)
	}
	if err := tmp.Sync(); err != nil {
		tmp.Close()
		return fmt.Errorf("rewrite index: %w", err)
	}
	if err := tmp.Close(); err != nil {
		return fmt.Errorf("rewrite index: %w", err)
	}
	if err := os.Chmod(tmp.Name(), 0o600); err != nil {
		return fmt.Errorf("rewrite index: %w", err)
	}
	if err := os.Rename(tmp.Name(), x.path); err != nil {
		return fmt.Errorf("rewrite index: %w", err)
	}
	x.records, x.torn = n, false
	return nil
}

// frame encodes one record: uvarint length, payload, CRC-32C of payload.
// The payload is uvarint len(rel), rel, varint size, varint mtime, sum.
func frame(rel string, e indexEntry) []byte {
	payload := make([]byte, 0, len(rel)+2*binary.MaxVarintLen64+sha256.Size+binary.MaxVarintLen16)
	payload = binary.AppendUvarint(payload, uint64(len(rel)))
	payload = append(payload, rel...)
	payload = binary.AppendVarint(payload, e.size)
	payload = binary.AppendVarint(payload, e.modTime)
	payload = append(payload, e.sum[:]...)
	out := binary.AppendUvarint(make([]byte, 0, len(payload)+binary.MaxVarintLen32+4), uint64(len(payload)))
	out = append(out, payload...)
	return binary.LittleEndian.AppendUint32(out, crc32.Checksum(payload, crcTable))
}

func decodeRecord(p []byte) (string, indexEntry, bool) {
	var e indexEntry
	n, k := binary.Uvarint(p)
	if k <= 0 || uint64(len(p)-k) < n {
		return "", e, false
	}
	rel := string(p[k : k+int(n)])
	p = p[k+int(n):]
	size, k := binary.Varint(p)
	if k <= 0 {
		return "", e, false
	}
	p = p[k:]
	mt, k := binary.Varint(p)
	if k <= 0 || len(p[k:]) != sha256.Size {
		return "", e, false
	}
	e.size, e.modTime = size, mt
	copy(e.sum[:], p[k:])
	return rel, e, true
}
