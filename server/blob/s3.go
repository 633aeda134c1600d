package blob

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"net"
	"net/http"
	"path"
	"strings"
	"time"

	"github.com/minio/minio-go/v7"
	"github.com/minio/minio-go/v7/pkg/credentials"

	"github.com/photoctl/photoctl/server/catalog"
)

// S3Config names an S3-compatible bucket (AWS S3, MinIO, Garage, Ceph…)
// that keeps the blobs in place of root/blobs, so that serve and workers on
// other hosts share the originals and renderings. Uploads in progress and
// copies made for the tools that read by path stay under the local root.
type S3Config struct {
	// Endpoint is the service's host and optional port, without scheme:
	// "s3.eu-west-1.amazonaws.com", "minio.lan:9000".
	Endpoint string
	// Bucket must exist; Prefix (optional) is prepended to every key, so
	// several libraries can share a bucket: "photoctl/" stores an
	// original at photoctl/originals/<id>.
	Bucket, Prefix string
	// Region is the bucket's region; empty lets the client ask.
	Region string
	// AccessKeyID and SecretAccessKey sign the requests (Signature V4);
	// without them, AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY do.
	AccessKeyID, SecretAccessKey string
	// Insecure speaks plain HTTP instead of HTTPS: for a service on the
	// same host or a trusted network only.
	Insecure bool
}

// s3Timeout bounds one request to the bucket that is not a transfer: a
// stat, a delete, a page of a listing, the headers of a transfer.
const s3Timeout = 30 * time.Second

// bucket is the S3 side of a Store.
type bucket struct {
	c            *minio.Client
	name, prefix string
	desc         string // s3://bucket/prefix, for errors
}

// OpenS3 opens a store whose blobs live in the bucket cfg names; root is
// the local folder for temp files, as for Open. It checks that the bucket
// exists and the credentials reach it.
func OpenS3(root string, cfg S3Config) (_ *Store, err error) {
	if err := cfg.Validate(); err != nil {
		return nil, fmt.Errorf("open S3 storage: %w", err)
	}
	s, err := Open(root)
	if err != nil {
		return nil, err
	}
	defer func() {
		if err != nil {
			_ = s.Close()
		}
	}()
	transport := &http.Transport{
		Proxy:                 http.ProxyFromEnvironment,
		DialContext:           (&net.Dialer{Timeout: 10 * time.Second, KeepAlive: 30 * time.Second}).DialContext,
		MaxIdleConnsPerHost:   32,
		IdleConnTimeout:       90 * time.Second,
		TLSHandshakeTimeout:   10 * time.Second,
		ResponseHeaderTimeout: s3Timeout,
		ExpectContinueTimeout: time.Second,
	}
	creds := credentials.NewStaticV4(cfg.AccessKeyID, cfg.SecretAccessKey, "")
	if cfg.AccessKeyID == "" {
		creds = credentials.NewEnvAWS()
	}
	c, err := minio.New(cfg.Endpoint, &minio.Options{
		Creds:     creds,
		Secure:    !cfg.Insecure,
		Region:    cfg.Region,
		Transport: transport,
		// Three tries (about a second of backoff) rather than the
		// client's ten: a request waits on them, then gets a 503.
		MaxRetries: 3,
	})
	if err != nil {
		return nil, fmt.Errorf("open S3 storage at %s: %w", cfg.Endpoint, err)
	}
	b := &bucket{c: c, name: cfg.Bucket, prefix: cfg.Prefix, desc: "s3://" + cfg.Bucket + "/" + cfg.Prefix}
	ctx, cancel := context.WithTimeout(context.Background(), s3Timeout)
	defer cancel()
	ok, err := c.BucketExists(ctx, cfg.Bucket)
	if err != nil {
		return nil, fmt.Errorf("open S3 storage %s at %s: %w", b.desc, cfg.Endpoint, err)
	}
	if !ok {
		return nil, fmt.Errorf("open S3 storage: bucket %q does not exist at %s", cfg.Bucket, cfg.Endpoint)
	}
	s.bucket, s.kept = b, newKept(s.root)
	return s, nil
}

// Validate checks the settings without reaching the service: an endpoint
// as host[:port] (no scheme, no path) and a bucket are required; a prefix
// ends with a slash and does not start with one.
func (c S3Config) Validate() error {
	var errs []error
	if c.Endpoint == "" || c.Bucket == "" {
		errs = append(errs, errors.New("an endpoint and a bucket are required"))
	}
	if strings.Contains(c.Endpoint, "://") || strings.Contains(c.Endpoint, "/") {
		errs = append(errs, fmt.Errorf("endpoint %q: want host[:port] without scheme or path "+
			"(Insecure, storage.s3.insecure, selects plain HTTP)", c.Endpoint))
	}
	if c.Prefix != "" && (!strings.HasSuffix(c.Prefix, "/") || strings.HasPrefix(c.Prefix, "/")) {
		errs = append(errs, fmt.Errorf("prefix %q must end with a slash and not start with one", c.Prefix))
	}
	return errors.Join(errs...)
}

// Remote reports whether the blobs live in a bucket rather than on the
// local disk.
func (s *Store) Remote() bool { return s.bucket != nil }

func (b *bucket) object(key string) string { return b.prefix + key }

// fail describes an error of the bucket; a missing object wraps
// catalog.ErrNotFound, a full service or quota catalog.ErrInsufficient
// (a 507, as a full disk), a service that cannot be reached or answers
// that it is busy or broken catalog.ErrUnavailable (a 503: try again).
func (b *bucket) fail(verb, key string, err error) error {
	resp := minio.ToErrorResponse(err)
	var netErr net.Error
	switch {
	case resp.Code == "NoSuchKey" || resp.Code == "NotFound":
		return fmt.Errorf("%s blob %s: %w", verb, key, catalog.ErrNotFound)
	case resp.Code == "XMinioStorageFull" || resp.Code == "QuotaExceeded" || resp.Code == "XMinioAdminBucketQuotaExceeded":
		return fmt.Errorf("%s blob %s in %s: %w: %w", verb, key, b.desc, catalog.ErrInsufficient, err)
	case errors.As(err, &netErr) || resp.StatusCode >= 500 || resp.Code == "SlowDown" || resp.Code == "RequestTimeout":
		return fmt.Errorf("%s blob %s: the blob storage %s is unavailable (%v): %w", verb, key, b.desc, err,
			catalog.ErrUnavailable)
	}
	return fmt.Errorf("%s blob %s in %s: %w", verb, key, b.desc, err)
}

// objectFile is an object opened for reading: the client's Object (a
// ReadSeeker and ReaderAt over ranged GETs) with its size and time.
type objectFile struct {
	*minio.Object
	info objectInfo
}

func (f *objectFile) Stat() (fs.FileInfo, error) { return f.info, nil }

// objectInfo is an object's description as an fs.FileInfo.
type objectInfo struct{ minio.ObjectInfo }

func (i objectInfo) Name() string       { return path.Base(i.Key) }
func (i objectInfo) Size() int64        { return i.ObjectInfo.Size }
func (i objectInfo) Mode() fs.FileMode  { return 0o600 }
func (i objectInfo) ModTime() time.Time { return i.LastModified }
func (i objectInfo) IsDir() bool        { return false }
func (i objectInfo) Sys() any           { return nil }

func (b *bucket) open(key string) (File, error) {
	// The object lives as long as the reader keeps it; each read is a
	// ranged GET bounded by the transport's timeouts.
	o, err := b.c.GetObject(context.Background(), b.name, b.object(key), minio.GetObjectOptions{})
	if err != nil {
		return nil, b.fail("open", key, err)
	}
	info, err := o.Stat()
	if err != nil {
		_ = o.Close()
		return nil, b.fail("open", key, err)
	}
	return &objectFile{Object: o, info: objectInfo{info}}, nil
}

func (b *bucket) stat(key string) (fs.FileInfo, error) {
	ctx, cancel := context.WithTimeout(context.Background(), s3Timeout)
	defer cancel()
	info, err := b.c.StatObject(ctx, b.name, b.object(key), minio.StatObjectOptions{})
	if err != nil {
		return nil, b.fail("stat", key, err)
	}
	return objectInfo{info}, nil
}

// put uploads size bytes of r to key; a PUT is atomic (readers see the
// previous object or the whole new one) and durable once answered.
func (b *bucket) put(key string, r io.Reader, size int64) error {
	_, err := b.c.PutObject(context.Background(), b.name, b.object(key), r, size,
		minio.PutObjectOptions{ContentType: "application/octet-stream"})
	if err != nil {
		return b.fail("store", key, err)
	}
	return nil
}

func (b *bucket) remove(key string) error {
	ctx, cancel := context.WithTimeout(context.Background(), s3Timeout)
	defer cancel()
	// Deleting a missing object succeeds: Remove stays idempotent.
	if err := b.c.RemoveObject(ctx, b.name, b.object(key), minio.RemoveObjectOptions{}); err != nil {
		return b.fail("remove", key, err)
	}
	return nil
}

// removeAll deletes key and every object under key/.
func (b *bucket) removeAll(prefix string) error {
	var keys []string
	if err := b.walk(prefix, func(key string, _ int64) error { keys = append(keys, key); return nil }); err != nil {
		return err
	}
	var errs []error
	for _, k := range keys {
		if err := b.remove(k); err != nil {
			errs = append(errs, err)
		}
	}
	return errors.Join(errs...)
}

// walk lists the objects at or under prefix ("" for all) in byte order of
// their keys, which is the order S3 lists them in; objects whose names
// break the key rules (put there by something else) are skipped.
func (b *bucket) walk(prefix string, fn func(key string, size int64) error) error {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel() // stops the listing when fn stops the walk
	for o := range b.c.ListObjects(ctx, b.name, minio.ListObjectsOptions{Prefix: b.object(prefix), Recursive: true}) {
		if o.Err != nil {
			return fmt.Errorf("walk blobs under %s in %s: %w", prefix, b.desc, o.Err)
		}
		key := strings.TrimPrefix(o.Key, b.prefix)
		if prefix != "" && key != prefix && !strings.HasPrefix(key, prefix+"/") {
			continue // "originals-x" under the prefix "originals"
		}
		if checkKey(key) != nil {
			continue
		}
		if err := fn(key, o.Size); err != nil {
			return err
		}
	}
	return nil
}
