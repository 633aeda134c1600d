package app

import (
	"bytes"
	"context"
	"io"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/photoctl/photoctl/server/blob"
	"github.com/photoctl/photoctl/server/blob/s3test"
)

func TestCopyBlobsToBucket(t *testing.T) {
	svc := s3test.Start(t, "photos")
	cfg := Defaults(t.TempDir())
	_, err := CopyBlobsToBucket(context.Background(), cfg, 4, nil)
	require.ErrorContains(t, err, "storage.s3.bucket is not set")

	local, err := blob.Open(cfg.DataDir)
	require.NoError(t, err)
	blobs := map[string]string{"originals/asset_a": "original a", "sidecars/asset_a.xmp": "<x:xmpmeta/>",
		"variants/asset_a/thumbnail.webp": "thumb", "versions/asset_a/v1": "edited"}
	for key, content := range blobs {
		require.NoError(t, local.Put(key, strings.NewReader(content)))
	}
	cfg.Storage.S3 = bucketOf(svc, "photos", "lib/")

	var seen []string
	st, err := CopyBlobsToBucket(context.Background(), cfg, 4, func(total BlobCopy, key string, _ int64) {
		require.Equal(t, 4, total.Blobs)
		if key != "" {
			seen = append(seen, key)
		}
	})
	require.NoError(t, err)
	require.Equal(t, BlobCopy{Blobs: 4, Bytes: 33, Copied: 4, CopiedBytes: 33}, st)
	require.Len(t, seen, 4)
	bucket, err := OpenBlobs(cfg)
	require.NoError(t, err)
	for key, content := range blobs {
		f, err := bucket.Open(key)
		require.NoError(t, err)
		got, err := io.ReadAll(f)
		require.NoError(t, err)
		require.NoError(t, f.Close())
		require.Equal(t, content, string(got), key)
	}

	// Again, with one blob changed in size meanwhile: only that one goes,
	// and the others, found in the bucket's listing, cost no request.
	require.NoError(t, local.Put("variants/asset_a/thumbnail.webp", strings.NewReader("a larger thumb")))
	unchanged := func() int {
		return svc.Requests("/originals/") + svc.Requests("/sidecars/") + svc.Requests("/versions/")
	}
	before := unchanged()
	st, err = CopyBlobsToBucket(context.Background(), cfg, 4, nil)
	require.NoError(t, err)
	require.Equal(t, BlobCopy{Blobs: 4, Bytes: 42, Copied: 1, CopiedBytes: 14, Present: 3}, st)
	require.Equal(t, before, unchanged(), "no request of a blob the bucket holds already")
	_, err = local.Stat("originals/asset_a")
	require.NoError(t, err, "the data directory is left as it is")
	scratch, err := filepath.Glob(filepath.Join(blob.TempDir(cfg.DataDir), "*"))
	require.NoError(t, err)
	require.Empty(t, scratch, "the index of the bucket's listing is deleted")

	// Interrupted (Ctrl-C) while it reads the bucket's listing: it stops,
	// sends nothing, and leaves no scratch file.
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	before = svc.Requests("")
	_, err = CopyBlobsToBucket(ctx, cfg, 4, nil)
	require.ErrorIs(t, err, context.Canceled)
	require.Equal(t, before, svc.Requests(""), "no blob sent or looked up")
	scratch, err = filepath.Glob(filepath.Join(blob.TempDir(cfg.DataDir), "*"))
	require.NoError(t, err)
	require.Empty(t, scratch)
}

func TestServeWarnsOfFilesLeftInTheDataDirectory(t *testing.T) {
	svc := s3test.Start(t, "photos")
	cfg := Defaults(t.TempDir())
	cfg.Storage.S3 = bucketOf(svc, "photos", "")
	var log bytes.Buffer
	warnLocalBlobs(cfg, logTo(&log))
	require.Empty(t, log.String(), "nothing left behind")
	local, err := blob.Open(cfg.DataDir)
	require.NoError(t, err)
	require.NoError(t, local.Put("originals/asset_a", strings.NewReader("x")))
	warnLocalBlobs(cfg, logTo(&log))
	require.Contains(t, log.String(), "photoctl admin copy-blobs")
}

// bucketOf is the storage.s3 setting for bucket (under prefix) of svc.
func bucketOf(svc *s3test.Service, bucket, prefix string) S3Config {
	b := svc.Config(bucket, prefix)
	return S3Config{Endpoint: b.Endpoint, Bucket: b.Bucket, Prefix: b.Prefix, Region: b.Region,
		AccessKeyID: b.AccessKeyID, SecretAccessKey: Secret(b.SecretAccessKey), Insecure: b.Insecure}
}
