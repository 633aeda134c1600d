package blob_test

import (
	"bytes"
	"io"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/photoctl/photoctl/server/blob"
	"github.com/photoctl/photoctl/server/blob/s3test"
	"github.com/photoctl/photoctl/server/catalog"
)

// newS3Store opens a store on a fresh bucket (under prefix) of a service
// on a loopback port, and returns it with its local root.
func newS3Store(t *testing.T, svc *s3test.Service, bucket, prefix string) (*blob.Store, string) {
	t.Helper()
	root := t.TempDir()
	s, err := blob.OpenS3(root, svc.Config(bucket, prefix))
	require.NoError(t, err)
	require.True(t, s.Remote())
	return s, root
}

func walked(t *testing.T, s *blob.Store, prefix string) []string {
	t.Helper()
	keys := []string{}
	require.NoError(t, s.Walk(prefix, func(key string, _ int64) error { keys = append(keys, key); return nil }))
	return keys
}

func TestS3StoreKeepsBlobsInTheBucket(t *testing.T) {
	svc := s3test.Start(t, "photos")
	s, root := newS3Store(t, svc, "photos", "lib/")

	// A streamed upload: hashed while written, sent on Commit, the
	// staging copy gone afterwards.
	w, err := s.Create(0)
	require.NoError(t, err)
	_, err = io.Copy(w, strings.NewReader("original bytes"))
	require.NoError(t, err)
	require.NoError(t, w.Sync())
	require.NoError(t, w.Commit("originals/asset_a"))
	require.Len(t, entries(t, root+"/tmp"), 1, "the staging copy is kept a while for the ingest tools")
	require.Empty(t, entries(t, root+"/blobs"), "nothing is stored on the local disk")
	require.Equal(t, "original bytes", read(t, s, "originals/asset_a"))

	put(t, s, "variants/asset_a/thumbnail.webp", "thumb")
	require.NoError(t, s.Put("variants/asset_a/preview.webp", bytes.NewReader([]byte("preview")))) // sized: one PUT
	put(t, s, "variants/asset_b/thumbnail.webp", "other")
	put(t, s, "originals/asset_b", "b")

	fi, err := s.Stat("variants/asset_a/preview.webp")
	require.NoError(t, err)
	require.Equal(t, int64(len("preview")), fi.Size())
	require.False(t, fi.IsDir())
	require.False(t, fi.ModTime().IsZero())

	// Random access and a ranged read, as downloads use them.
	f, err := s.Open("originals/asset_a")
	require.NoError(t, err)
	buf := make([]byte, 5)
	n, err := f.ReadAt(buf, 9)
	if err != io.EOF { // allowed with a full read that ends the object
		require.NoError(t, err)
	}
	require.Equal(t, 5, n)
	require.Equal(t, "bytes", string(buf))
	_, err = f.Seek(9, io.SeekStart)
	require.NoError(t, err)
	rest, err := io.ReadAll(f)
	require.NoError(t, err)
	require.Equal(t, "bytes", string(rest))
	require.NoError(t, f.Close())

	// Walk in byte order, at or under a prefix, never past it.
	require.Equal(t, []string{"originals/asset_a", "originals/asset_b", "variants/asset_a/preview.webp",
		"variants/asset_a/thumbnail.webp", "variants/asset_b/thumbnail.webp"}, walked(t, s, ""))
	require.Equal(t, []string{"variants/asset_a/preview.webp", "variants/asset_a/thumbnail.webp"},
		walked(t, s, "variants/asset_a"))
	require.Equal(t, []string{"originals/asset_a"}, walked(t, s, "originals/asset_a"))
	require.Empty(t, walked(t, s, "originals/asset"), "a prefix names whole segments")

	// Removal: idempotent, a tree at once, the rest untouched.
	require.NoError(t, s.Remove("originals/asset_b"))
	require.NoError(t, s.Remove("originals/asset_b"))
	require.NoError(t, s.RemoveAll("variants/asset_a"))
	require.Equal(t, []string{"originals/asset_a", "variants/asset_b/thumbnail.webp"}, walked(t, s, ""))

	// Missing blobs are not found, for every read.
	_, err = s.Open("originals/asset_b")
	require.ErrorIs(t, err, catalog.ErrNotFound)
	_, err = s.Stat("originals/asset_b")
	require.ErrorIs(t, err, catalog.ErrNotFound)
	_, err = s.OpenLocal("originals/asset_b")
	require.ErrorIs(t, err, catalog.ErrNotFound)

	// Bad keys never reach the bucket.
	for _, key := range []string{"../x", "/originals/a", "originals/.hidden", "Originals/A"} {
		require.ErrorIs(t, s.Put(key, strings.NewReader("x")), blob.ErrBadKey, key)
		_, err := s.Open(key)
		require.ErrorIs(t, err, blob.ErrBadKey, key)
	}
}

// TestS3StoreOpenLocalDownloadsACopyForTools: a blob another process
// uploaded is downloaded for the first tool and kept a while for the next.
func TestS3StoreOpenLocalDownloadsACopyForTools(t *testing.T) {
	svc := s3test.Start(t, "photos")
	s, root := newS3Store(t, svc, "photos", "")
	put(t, s, "originals/asset_a", "pixels") // one PUT, not kept: as from another process

	for range 2 { // metadata, then renderings
		readLocal(t, s, "originals/asset_a", "pixels", func() {
			require.Len(t, entries(t, root+"/tmp"), 2, "the tool's link and the kept copy")
		})
	}
	require.Equal(t, 1, svc.Reads("originals/asset_a"), "downloaded once")
	require.NoError(t, s.Remove("originals/asset_a"))
	require.Empty(t, entries(t, root+"/tmp"), "the kept copy goes with the blob")
}

func TestS3StorePrefixesShareABucket(t *testing.T) {
	svc := s3test.Start(t, "shared")
	a, _ := newS3Store(t, svc, "shared", "a/")
	b, _ := newS3Store(t, svc, "shared", "b/")
	put(t, a, "originals/asset_x", "from a")
	put(t, b, "originals/asset_x", "from b")
	require.Equal(t, "from a", read(t, a, "originals/asset_x"))
	require.Equal(t, "from b", read(t, b, "originals/asset_x"))
	require.NoError(t, a.RemoveAll("originals"))
	require.Empty(t, walked(t, a, ""))
	require.Equal(t, []string{"originals/asset_x"}, walked(t, b, ""))
}

func TestOpenS3RefusesAMissingBucketOrBadSettings(t *testing.T) {
	svc := s3test.Start(t, "photos")
	_, err := blob.OpenS3(t.TempDir(), svc.Config("nope", ""))
	require.ErrorContains(t, err, `bucket "nope" does not exist`)
	_, err = blob.OpenS3(t.TempDir(), blob.S3Config{Bucket: "photos"})
	require.ErrorContains(t, err, "an endpoint and a bucket are required")
	_, err = blob.OpenS3(t.TempDir(), blob.S3Config{Endpoint: svc.Endpoint, Bucket: "photos", Prefix: "no-slash"})
	require.ErrorContains(t, err, "must end with a slash")
}

// TestS3StoreLargeBlobsGoInParts: a blob past the client's part size (16
// MiB) is sent as a multipart upload and reads back byte for byte.
func TestS3StoreLargeBlobsGoInParts(t *testing.T) {
	svc := s3test.Start(t, "photos")
	s, _ := newS3Store(t, svc, "photos", "")
	data := randomBytes(t, 17<<20)
	store(t, s, "originals/asset_big", data)
	fi, err := s.Stat("originals/asset_big")
	require.NoError(t, err)
	require.Equal(t, int64(len(data)), fi.Size())
	f, err := s.Open("originals/asset_big")
	require.NoError(t, err)
	defer f.Close()
	got, err := io.ReadAll(f)
	require.NoError(t, err)
	require.True(t, bytes.Equal(data, got), "the object reads back as written")
}

// TestS3StoreKeepsItsUploadsForTheTools: the tools' copy of a blob this
// store just uploaded is a link to its staging file, not a download; the
// staging file goes with the blob, or after a while (a download then).
func TestS3StoreKeepsItsUploadsForTheTools(t *testing.T) {
	svc := s3test.Start(t, "photos")
	s, root := newS3Store(t, svc, "photos", "")
	now := time.Now()
	blob.SetKeptClock(s, func() time.Time { return now })
	store(t, s, "originals/asset_a", []byte("pixels"))
	store(t, s, "originals/asset_b", []byte("more pixels"))

	for range 2 { // metadata, then renderings
		readLocal(t, s, "originals/asset_a", "pixels", nil)
	}
	require.Zero(t, svc.Reads("originals/asset_a"), "no download")
	require.Len(t, entries(t, root+"/tmp"), 2, "the tools' links are gone, the kept files stay")

	require.NoError(t, s.Remove("originals/asset_a"))
	require.Len(t, entries(t, root+"/tmp"), 1, "a removed blob's kept file goes with it")
	_, err := s.OpenLocal("originals/asset_a")
	require.ErrorIs(t, err, catalog.ErrNotFound)

	now = now.Add(10 * time.Minute)
	l, err := s.OpenLocal("originals/asset_b")
	require.NoError(t, err)
	require.NoError(t, l.Close())
	require.Equal(t, 1, svc.Reads("originals/asset_b"), "expired: downloaded")
	require.Len(t, entries(t, root+"/tmp"), 1, "the download is kept in the expired upload's place")

	store(t, s, "originals/asset_c", []byte("c"))
	require.NoError(t, s.Close())
	require.Empty(t, entries(t, root+"/tmp"), "Close lets go of what is kept")
}

// TestS3StoreKeepsTheNewestUploadsWithinItsBound: past the bound the
// oldest kept files go first; a file larger than the bound is kept alone,
// until the next one kept lets it go.
func TestS3StoreKeepsTheNewestUploadsWithinItsBound(t *testing.T) {
	svc := s3test.Start(t, "photos")
	s, root := newS3Store(t, svc, "photos", "")
	now := time.Now()
	blob.SetKeptClock(s, func() time.Time { now = now.Add(time.Second); return now })
	blob.SetKeptLimit(s, 10)
	open := func(key string, reads int) {
		t.Helper()
		l, err := s.OpenLocal("originals/" + key)
		require.NoError(t, err)
		require.NoError(t, l.Close())
		require.Equal(t, reads, svc.Reads("originals/"+key), key)
	}
	store(t, s, "originals/asset_a", []byte("aaaa"))
	store(t, s, "originals/asset_b", []byte("bbbb"))
	store(t, s, "originals/asset_c", []byte("cccc")) // 12 bytes: a goes
	require.Len(t, entries(t, root+"/tmp"), 2)
	open("asset_b", 0)
	open("asset_c", 0)

	store(t, s, "originals/asset_d", []byte("too large!!")) // alone over the bound: kept alone
	require.Len(t, entries(t, root+"/tmp"), 1)
	open("asset_d", 0)
	open("asset_d", 0)

	open("asset_a", 1) // downloaded and kept: d, the oldest, goes
	require.Len(t, entries(t, root+"/tmp"), 1)
	open("asset_a", 1)
	open("asset_d", 1)
}

// readLocal reads key by path as a tool does, requires want, runs during
// (when set) while the file is open, and requires the tool's path gone
// after Close.
func readLocal(t *testing.T, s *blob.Store, key, want string, during func()) {
	t.Helper()
	l, err := s.OpenLocal(key)
	require.NoError(t, err)
	b, err := os.ReadFile(l.Path)
	require.NoError(t, err)
	require.Equal(t, want, string(b))
	if during != nil {
		during()
	}
	require.NoError(t, l.Close())
	_, err = os.Stat(l.Path)
	require.ErrorIs(t, err, os.ErrNotExist, "the tool's link goes with Close")
}
