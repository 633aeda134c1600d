package app

import (
	"errors"
	"fmt"
	"log/slog"
	"os"
	"path/filepath"
	"strings"

	"github.com/photoctl/photoctl/server/blob"
)

// StorageConfig says where originals, versions and renderings live: the
// data directory (the default), or an S3-compatible bucket that serve and
// workers on several hosts share (storage.s3.bucket set). Uploads in
// progress and the copies the ingest tools read stay in the data
// directory either way.
type StorageConfig struct {
	S3 S3Config `koanf:"s3"`
}

// S3Config names the bucket; see blob.S3Config. Empty access keys fall
// back to AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY.
type S3Config struct {
	Endpoint        string `koanf:"endpoint"`
	Bucket          string `koanf:"bucket"`
	Prefix          string `koanf:"prefix"`
	Region          string `koanf:"region"`
	AccessKeyID     string `koanf:"access_key_id"`
	SecretAccessKey Secret `koanf:"secret_access_key"`
	// Insecure speaks plain HTTP to the endpoint (a service on the same
	// host or a trusted network).
	Insecure bool `koanf:"insecure"`
}

// Remote reports whether the blobs live in a bucket.
func (c StorageConfig) Remote() bool { return c.S3.Bucket != "" }

// Validate checks the bucket settings without reaching the bucket.
func (c StorageConfig) Validate() error {
	s := c.S3
	if !c.Remote() {
		if s.Endpoint != "" || s.Prefix != "" || s.AccessKeyID != "" || s.SecretAccessKey != "" {
			return errors.New("storage.s3: endpoint, prefix or keys are set but storage.s3.bucket is not")
		}
		return nil
	}
	var errs []error
	if s.Endpoint == "" {
		errs = append(errs, errors.New("storage.s3.endpoint must be set with storage.s3.bucket (host[:port], no scheme)"))
	}
	if strings.Contains(s.Endpoint, "://") || strings.Contains(s.Endpoint, "/") {
		errs = append(errs, fmt.Errorf("storage.s3.endpoint %q: want host[:port] without scheme or path "+
			"(storage.s3.insecure selects plain HTTP)", s.Endpoint))
	}
	if s.Prefix != "" && (!strings.HasSuffix(s.Prefix, "/") || strings.HasPrefix(s.Prefix, "/")) {
		errs = append(errs, fmt.Errorf("storage.s3.prefix %q: must end with a slash and not start with one", s.Prefix))
	}
	if (s.AccessKeyID == "") != (s.SecretAccessKey == "") {
		errs = append(errs, errors.New("storage.s3.access_key_id and storage.s3.secret_access_key go together"))
	}
	return errors.Join(errs...)
}

// location says where the blobs live, for the start-up log.
func (c StorageConfig) location(dataDir string) string {
	if !c.Remote() {
		return filepath.Join(dataDir, "blobs")
	}
	return "s3://" + c.S3.Bucket + "/" + c.S3.Prefix + " at " + c.S3.Endpoint
}

// OpenBlobs opens the blob store of cfg: the data directory's, or the
// bucket (checked to exist and answer) with the data directory for temp
// files.
func OpenBlobs(cfg Config) (*blob.Store, error) {
	if !cfg.Storage.Remote() {
		return blob.Open(cfg.DataDir)
	}
	s := cfg.Storage.S3
	return blob.OpenS3(cfg.DataDir, blob.S3Config{Endpoint: s.Endpoint, Bucket: s.Bucket, Prefix: s.Prefix,
		Region: s.Region, AccessKeyID: s.AccessKeyID, SecretAccessKey: string(s.SecretAccessKey), Insecure: s.Insecure})
}

// warnLocalBlobs says so when the blobs are read from a bucket while the
// data directory still holds some: a library moved to the bucket without
// its files (photoctl admin copy-blobs copies them).
func warnLocalBlobs(cfg Config, log *slog.Logger) {
	if !cfg.Storage.Remote() {
		return
	}
	for _, dir := range []string{"originals", "versions", "variants"} {
		if entries, _ := os.ReadDir(filepath.Join(cfg.DataDir, "blobs", dir)); len(entries) > 0 {
			log.Warn("the data directory holds files the server no longer reads: the blobs come from the bucket; "+
				"copy them there with 'photoctl admin copy-blobs', then remove the folder",
				"folder", filepath.Join(cfg.DataDir, "blobs"), "bucket", cfg.Storage.location(cfg.DataDir))
			return
		}
	}
}
