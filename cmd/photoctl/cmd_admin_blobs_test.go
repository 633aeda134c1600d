package main

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/photoctl/photoctl/server/blob"
	"github.com/photoctl/photoctl/server/blob/s3test"
)

// TestBinaryCopyBlobs runs `photoctl admin copy-blobs` with the bucket set
// through the environment: the data directory's files arrive in the
// bucket, a second run finds them there, and without a bucket it exits 1
// saying what is missing.
func TestBinaryCopyBlobs(t *testing.T) {
	photoctlBinary(t)
	env, dataDir := binaryEnv(t), t.TempDir()
	local, err := blob.Open(dataDir)
	require.NoError(t, err)
	require.NoError(t, local.Put("originals/asset_a", strings.NewReader("original")))
	require.NoError(t, local.Put("variants/asset_a/thumbnail.webp", strings.NewReader("thumb")))

	_, stderr, code := runPhotoctl(t, env, "admin", "copy-blobs", "--data-dir", dataDir)
	require.Equal(t, 1, code)
	require.Contains(t, stderr, "storage.s3.bucket is not set")

	svc := s3test.Start(t, "photos")
	b := svc.Config("photos", "lib/")
	env = append(env, "PHOTOCTL_STORAGE_S3_ENDPOINT="+b.Endpoint, "PHOTOCTL_STORAGE_S3_BUCKET="+b.Bucket,
		"PHOTOCTL_STORAGE_S3_PREFIX="+b.Prefix, "PHOTOCTL_STORAGE_S3_INSECURE=true",
		"PHOTOCTL_STORAGE_S3_ACCESS_KEY_ID="+b.AccessKeyID, "PHOTOCTL_STORAGE_S3_SECRET_ACCESS_KEY="+b.SecretAccessKey)
	var st struct{ Blobs, Copied, Present int }
	out, stderr, code := runPhotoctl(t, env, "admin", "copy-blobs", "--data-dir", dataDir, "--json")
	require.Equal(t, 0, code, "stderr: %s", stderr)
	require.NoError(t, json.Unmarshal([]byte(out), &st))
	require.Equal(t, 2, st.Blobs)
	require.Equal(t, 2, st.Copied)
	out, _, code = runPhotoctl(t, env, "admin", "copy-blobs", "--data-dir", dataDir)
	require.Equal(t, 0, code)
	require.Contains(t, out, "0 copied (0 bytes), 2 already in the bucket")

	bucket, err := blob.OpenS3(t.TempDir(), b)
	require.NoError(t, err)
	f, err := bucket.Open("originals/asset_a")
	require.NoError(t, err)
	defer f.Close()
	fi, err := f.Stat()
	require.NoError(t, err)
	require.Equal(t, int64(len("original")), fi.Size())
}
