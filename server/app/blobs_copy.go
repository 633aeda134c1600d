package app

import (
	"context"
	"errors"
	"fmt"
	"sync"

	"golang.org/x/sync/errgroup"

	"github.com/photoctl/photoctl/server/blob"
	"github.com/photoctl/photoctl/server/catalog"
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
	type item struct {
		key  string
		size int64
	}
	var items []item
	if err := local.Walk("", func(key string, size int64) error {
		items = append(items, item{key, size})
		st.Blobs++
		st.Bytes += size
		return nil
	}); err != nil {
		return st, err
	}
	if progress != nil {
		progress(st, "", 0)
	}
	var mu sync.Mutex // st and progress
	g, ctx := errgroup.WithContext(ctx)
	g.SetLimit(parallel)
	for _, it := range items {
		g.Go(func() error {
			if err := ctx.Err(); err != nil {
				return err
			}
			n, copied, err := copyBlob(local, bucket, it.key, it.size)
			if err != nil {
				return err
			}
			mu.Lock()
			defer mu.Unlock()
			if copied {
				st.Copied++
				st.CopiedBytes += n
			} else {
				st.Present++
			}
			if progress != nil {
				progress(st, it.key, it.size)
			}
			return nil
		})
	}
	err = g.Wait()
	return st, err
}

// copyBlob sends the blob at key from local to the bucket unless the
// bucket holds it with its size, and reports whether it sent it and how
// many bytes.
func copyBlob(local, bucket *blob.Store, key string, size int64) (int64, bool, error) {
	fi, err := bucket.Stat(key)
	switch {
	case err == nil && fi.Size() == size:
		return 0, false, nil
	case err != nil && !errors.Is(err, catalog.ErrNotFound):
		return 0, false, err
	}
	n, err := bucket.CopyFrom(local, key)
	if err != nil {
		return 0, false, err
	}
	got, err := bucket.Stat(key)
	if err != nil {
		return 0, false, fmt.Errorf("check the copy of blob %s: %w", key, err)
	}
	if got.Size() != n {
		return 0, false, fmt.Errorf("copy blob %s: the bucket holds %d bytes of %d", key, got.Size(), n)
	}
	return n, true, nil
}
