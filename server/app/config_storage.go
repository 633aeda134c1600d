package app

import (
	"errors"
	"fmt"
	"log/slog"
	"os"
	"path/filepath"

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
	if s.Endpoint == "" { // the one setting a bucket cannot do without, named by its key
		return errors.New("storage.s3.endpoint must be set with storage.s3.bucket (host[:port], no scheme)")
	}
	var errs []error
	if err := s.blob().Validate(); err != nil {
		errs = append(errs, fmt.Errorf("storage.s3: %w", err))
	}
	if (s.AccessKeyID == "") != (s.SecretAccessKey == "") {
		errs = append(errs, errors.New("storage.s3.access_key_id and storage.s3.secret_access_key go together"))
	}
	return errors.Join(errs...)
}

// blob is the blob store's form of the settings.
func (c S3Config) blob() blob.S3Config {
	return blob.S3Config{Endpoint: c.Endpoint, Bucket: c.Bucket, Prefix: c.Prefix, Region: c.Region,
		AccessKeyID: c.AccessKeyID, SecretAccessKey: string(c.SecretAccessKey), Insecure: c.Insecure}
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
	return blob.OpenS3(cfg.DataDir, cfg.Storage.S3.blob())
}

// warnLocalBlobs says so when the blobs are read from a bucket while the
// data directory still holds some: a library moved to the bucket without
// its files (photoctl admin copy-blobs copies them).
func warnLocalBlobs(cfg Config, log *slog.Logger) {
	if !cfg.Storage.Remote() {
		return
	}
	for _, dir := range []string{"originals", "versions", "variants"} {
		if hasEntry(filepath.Join(cfg.DataDir, "blobs", dir)) {
			log.Warn("the data directory holds files the server no longer reads: the blobs come from the bucket; "+
				"copy them there with 'photoctl admin copy-blobs', then remove the folder",
				"folder", filepath.Join(cfg.DataDir, "blobs"), "bucket", cfg.Storage.location(cfg.DataDir))
			return
		}
	}
}

// hasEntry reports whether the folder at dir holds anything, reading one
// entry (a library's folder of originals can hold millions).
func hasEntry(dir string) bool {
	f, err := os.Open(dir)
	if err != nil {
		return false
	}
	defer f.Close()
	names, _ := f.Readdirnames(1)
	return len(names) > 0
}
