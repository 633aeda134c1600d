package app

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"iter"
	"sync"

	"golang.org/x/sync/errgroup"

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
// then each blob done, one call at a time.
//
// No list of the blobs is kept: the data directory is walked to copy (and, for
// progress, once before to count), each walk holding one directory's entries at
// a time (originals/ has one per asset, so that is the bound), and what the
// bucket holds is learnt from its listing, read beside the walk (both come in
// key order), so a blob already there costs no request of its own: a run that
// finds a million blobs in place makes a thousand listing requests, not a
// million HEADs.
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
	if progress != nil { // the total first: a walk that only counts
		if err := local.Walk("", func(_ string, size int64) error {
			st.Blobs++
			st.Bytes += size
			return nil
		}); err != nil {
			return st, err
		}
		progress(st, "", 0)
	}
	var blobs int // what the copying walk finds: files may come and go after the count
	var bytes int64
	inBucket, stop := iter.Pull2(walkSeq(bucket))
	defer stop()
	there, thereSize, more := inBucket()
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
	walkErr := local.Walk("", func(key string, size int64) error {
		if err := gctx.Err(); err != nil {
			return err
		}
		for more && there.err == nil && there.key < key {
			there, thereSize, more = inBucket()
		}
		if more && there.err != nil {
			return there.err
		}
		blobs++
		bytes += size
		if more && there.key == key && thereSize == size {
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
	copyErr := g.Wait() // a failed copy stops the walk: its error is the one to tell
	st.Blobs, st.Bytes = blobs, bytes
	return st, cmp.Or(copyErr, walkErr)
}

// listing is one entry of a store's listing: a key, or the error that
// ended the listing.
type listing struct {
	key string
	err error
}

// walkSeq is s.Walk of the whole store as an iterator of (entry, size);
// a failed listing yields a last entry carrying its error.
func walkSeq(s *blob.Store) iter.Seq2[listing, int64] {
	return func(yield func(listing, int64) bool) {
		errStop := errors.New("stopped")
		err := s.Walk("", func(key string, size int64) error {
			if !yield(listing{key: key}, size) {
				return errStop
			}
			return nil
		})
		if err != nil && !errors.Is(err, errStop) {
			yield(listing{err: err}, 0)
		}
	}
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
