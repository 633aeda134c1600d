package app

import (
	"context"
	"errors"
	"fmt"

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
// data directory is left as it is. progress, when set, is told the
// total first (blobs, bytes), then each blob done.
func CopyBlobsToBucket(ctx context.Context, cfg Config, progress func(total BlobCopy, key string, size int64)) (BlobCopy, error) {
	var st BlobCopy
	if !cfg.Storage.Remote() {
		return st, errors.New("storage.s3.bucket is not set: name the bucket to copy the blobs into")
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
	for _, it := range items {
		if err := ctx.Err(); err != nil {
			return st, err
		}
		fi, err := bucket.Stat(it.key)
		switch {
		case err == nil && fi.Size() == it.size:
			st.Present++
		case err == nil || errors.Is(err, catalog.ErrNotFound):
			n, err := bucket.CopyFrom(local, it.key)
			if err != nil {
				return st, err
			}
			got, err := bucket.Stat(it.key)
			if err != nil {
				return st, fmt.Errorf("check the copy of blob %s: %w", it.key, err)
			}
			if got.Size() != n {
				return st, fmt.Errorf("copy blob %s: the bucket holds %d bytes of %d", it.key, got.Size(), n)
			}
			st.Copied++
			st.CopiedBytes += n
		default:
			return st, err
		}
		if progress != nil {
			progress(st, it.key, it.size)
		}
	}
	return st, nil
}
