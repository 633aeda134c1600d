package app

import (
	"cmp"
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"os"
	"sync"

	"golang.org/x/sync/errgroup"

	"github.com/photoctl/photoctl/server/backup/keyindex"
	"github.com/photoctl/photoctl/server/blob"
)

// BlobCopy counts what CopyBlobsToBucket did.
type BlobCopy struct {
	// Blobs is how many blobs the data directory holds; Copied of them
	// were sent (CopiedBytes), Present were in the bucket already with
	// their size.
	Blobs       int   `json:"blobs"`
	Bytes       int64 `json:"bytes"`
	Copied      int   `json:"copied"`
	CopiedBytes int64 `json:"copied_bytes"`
	Present     int   `json:"present"`
}

// CopyBlobsToBucket copies every blob of cfg's data directory (originals,
// versions, sidecars, renderings) into the bucket storage.s3 names, under
// the same keys, so that a library can move to the bucket by setting
// storage.s3: run it before, and again after stopping the server to catch
// what arrived meanwhile. A blob already in the bucket with the same size
// is not sent again; each sent one is checked by size afterwards. The
// data directory is left as it is. parallel blobs go at once (a bucket
// across a network answers each request in tens of milliseconds).
// progress, when set, is told the total first (blobs, bytes, key ""),
// once the bucket's listing is read and the files counted, then each blob
// done, one call at a time.
//
// No list of the blobs is held in memory: the data directory is scanned a
// directory chunk at a time to copy (and, for progress, once before to
// count), and what the bucket holds is learnt from its listing, read first
// into a scratch index on disk (the data directory's tmp/, deleted at the
// end), so a blob already there costs no request of its own (a run that
// finds a million blobs in place makes a thousand listing requests, not a
// million HEADs) and memory stays flat at tens of millions of blobs.
func CopyBlobsToBucket(ctx context.Context, cfg Config, parallel int, progress func(total BlobCopy, key string, size int64)) (BlobCopy, error) {
	var st BlobCopy
	if !cfg.Storage.Remote() {
		return st, errors.New("storage.s3.bucket is not set: name the bucket to copy the blobs into")
	}
	if parallel < 1 {
		return st, fmt.Errorf("copy blobs: parallel %d: want at least 1", parallel)
	}
	local, err := blob.Open(cfg.DataDir)
	if err != nil {
		return st, err
	}
	defer local.Close()
	bucket, err := OpenBlobs(cfg)
	if err != nil {
		return st, err
	}
	defer bucket.Close()
	there, err := bucketIndex(ctx, cfg.DataDir, bucket)
	if err != nil {
		return st, err
	}
	defer there.Close()
	if progress != nil { // the total first: a scan that only counts
		if err := local.Scan("", func(_ string, size int64) error {
			st.Blobs++
			st.Bytes += size
			return nil
		}); err != nil {
			return st, err
		}
		progress(st, "", 0)
	}
	var blobs int // what the copying scan finds: files may come and go after the count
	var bytes int64
	var mu sync.Mutex // st and progress
	// done counts a blob: copied (sent bytes) or found in place.
	done := func(key string, size int64, copied bool, sent int64) {
		mu.Lock()
		defer mu.Unlock()
		if copied {
			st.Copied++
			st.CopiedBytes += sent
		} else {
			st.Present++
		}
		if progress != nil {
			progress(st, key, size)
		}
	}
	g, gctx := errgroup.WithContext(ctx)
	g.SetLimit(parallel)
	scanErr := local.Scan("", func(key string, size int64) error {
		if err := gctx.Err(); err != nil {
			return err
		}
		blobs++
		bytes += size
		v, ok, err := there.Get(key)
		if err != nil {
			return err
		}
		if ok && len(v) == 8 && int64(binary.BigEndian.Uint64(v)) == size {
			done(key, size, false, 0)
			return nil
		}
		g.Go(func() error {
			n, err := copyBlob(local, bucket, key)
			if err != nil {
				return err
			}
			done(key, size, true, n)
			return nil
		})
		return nil
	})
	copyErr := g.Wait() // a failed copy stops the scan: its error is the one to tell
	st.Blobs, st.Bytes = blobs, bytes
	return st, cmp.Or(copyErr, scanErr)
}

// bucketIndex reads the bucket's listing into a scratch index of each
// key's size, in a new file in dataDir's tmp/ (where a crash's leftover
// is swept like any temp file): the listing of a large library is more
// than memory should hold.
func bucketIndex(ctx context.Context, dataDir string, bucket *blob.Store) (*keyindex.Index, error) {
	f, err := os.CreateTemp(blob.TempDir(dataDir), "copy-blobs-*.db")
	if err != nil {
		return nil, fmt.Errorf("list the bucket: %w", err)
	}
	_ = f.Close()
	x, err := keyindex.Open(f.Name())
	if err != nil {
		_ = os.Remove(f.Name())
		return nil, fmt.Errorf("list the bucket: %w", err)
	}
	size := make([]byte, 8)
	err = bucket.Walk("", func(key string, n int64) error {
		if err := ctx.Err(); err != nil { // a listing of millions takes minutes
			return err
		}
		binary.BigEndian.PutUint64(size, uint64(n))
		return x.Put(key, size)
	})
	if err != nil {
		_ = x.Close()
		return nil, fmt.Errorf("list the bucket: %w", err)
	}
	return x, nil
}

// copyBlob sends the blob at key from local to the bucket and checks the
// copy's size; it returns how many bytes it sent.
func copyBlob(local, bucket *blob.Store, key string) (int64, error) {
	n, err := bucket.CopyFrom(local, key)
	if err != nil {
		return 0, err
	}
	got, err := bucket.Stat(key)
	if err != nil {
		return 0, fmt.Errorf("check the copy of blob %s: %w", key, err)
	}
	if got.Size() != n {
		return 0, fmt.Errorf("copy blob %s: the bucket holds %d bytes of %d", key, got.Size(), n)
	}
	return n, nil
}
