package app

import (
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/photoctl/photoctl/server/blob/s3test"
)

func TestStorageConfigValidate(t *testing.T) {
	require.NoError(t, StorageConfig{}.Validate(), "the data directory")
	ok := S3Config{Endpoint: "minio.lan:9000", Bucket: "photos", Prefix: "photoctl/", AccessKeyID: "k", SecretAccessKey: "s"}
	require.NoError(t, StorageConfig{S3: ok}.Validate())
	noKeys := ok
	noKeys.AccessKeyID, noKeys.SecretAccessKey = "", ""
	require.NoError(t, StorageConfig{S3: noKeys}.Validate(), "the keys come from AWS_* then")

	tests := []struct {
		name   string
		change func(*S3Config)
		want   string
	}{
		{"settings without a bucket", func(c *S3Config) { c.Bucket = "" }, "storage.s3.bucket is not"},
		{"no endpoint", func(c *S3Config) { c.Endpoint = "" }, "storage.s3.endpoint must be set"},
		{"a scheme in the endpoint", func(c *S3Config) { c.Endpoint = "https://s3.example.com" }, "without scheme"},
		{"a prefix without its slash", func(c *S3Config) { c.Prefix = "photoctl" }, "must end with a slash"},
		{"a prefix from the root", func(c *S3Config) { c.Prefix = "/photoctl/" }, "not start with one"},
		{"half the keys", func(c *S3Config) { c.SecretAccessKey = "" }, "go together"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c := ok
			tt.change(&c)
			cfg := Defaults(t.TempDir())
			cfg.Storage.S3 = c
			require.ErrorContains(t, cfg.Validate(), tt.want)
		})
	}
}

func TestSecretAccessKeyIsMasked(t *testing.T) {
	require.Equal(t, "********", S3Config{SecretAccessKey: "wJalrXUtnFEMI"}.SecretAccessKey.String())
}

func TestBlobsInABucketRefuseBackups(t *testing.T) {
	svc := s3test.Start(t, "photos")
	cfg := Defaults(t.TempDir())
	cfg.Storage.S3 = bucketOf(svc, "photos", "")
	require.ErrorContains(t, RequireDataDirSQLite(cfg, "admin backup"), "not supported with the blobs in a bucket")
	blobs, err := OpenBlobs(cfg)
	require.NoError(t, err)
	require.True(t, blobs.Remote())
	cfg.Storage.S3.Bucket = "missing"
	_, err = OpenBlobs(cfg)
	require.ErrorContains(t, err, `bucket "missing" does not exist`)
}
