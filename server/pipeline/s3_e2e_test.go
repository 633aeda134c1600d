package pipeline_test

import (
	"bytes"
	"context"
	"image"
	"log/slog"
	"net/http"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/photoctl/photoctl/server/api"
	"github.com/photoctl/photoctl/server/assets"
	"github.com/photoctl/photoctl/server/blob"
	"github.com/photoctl/photoctl/server/blob/s3test"
	"github.com/photoctl/photoctl/server/catalog"
	"github.com/photoctl/photoctl/server/libraries"
	"github.com/photoctl/photoctl/server/servertest"
)

// TestIngestWithBlobsInABucket runs the real server with storage.s3 set:
// the upload lands in the bucket (nothing under the data directory's
// blobs), the pipeline reads the original from there and writes its
// renderings there, downloads (whole and ranged) and renderings come back
// from the bucket, and a deletion empties it.
func TestIngestWithBlobsInABucket(t *testing.T) {
	needTools(t, "exiftool", "ffmpeg", "ffprobe")
	svc := s3test.Start(t, "photos")
	s := servertest.Start(t, servertest.WithPipeline, servertest.WithBucket(svc, "photos", "library/"))
	_, session := s.Session()
	objects, err := blob.OpenS3(t.TempDir(), svc.Config("photos", "library/"))
	require.NoError(t, err)
	keys := func() []string {
		out := []string{}
		require.NoError(t, objects.Walk("", func(key string, _ int64) error { out = append(out, key); return nil }))
		return out
	}

	path := halves(t, 640, 480)
	tag(t, path, "-Orientation#=6")
	data := readFile(t, path)
	a := s.UploadAsset(session, "IMG_0001.JPG", data, nil)
	require.Equal(t, []string{"originals/" + a.ID}, keys())
	local, _ := os.ReadDir(filepath.Join(s.Config.DataDir, "blobs"))
	require.Empty(t, local, "nothing is stored on the local disk")

	for _, task := range s.WaitForTasks(session, a.ID, chainTimeout) {
		if task.Kind == "metadata" || task.Kind == "variants" || task.Kind == "geocode" {
			require.Equal(t, "succeeded", task.State, "%s: %v", task.Kind, task.Error)
		}
	}
	require.Equal(t, []string{"originals/" + a.ID, "variants/" + a.ID + "/preview.webp",
		"variants/" + a.ID + "/thumbnail.webp"}, keys())
	require.Zero(t, svc.Reads("originals/"+a.ID), "the tools read the upload's kept staging file")
	tmp, _ := os.ReadDir(filepath.Join(s.Config.DataDir, "tmp"))
	require.Len(t, tmp, 1, "the tools' links are removed; the staging file is kept a while")

	r := s.Do("GET", "/api/assets/"+a.ID, session, nil)
	require.Equal(t, http.StatusOK, r.Status, "%s", r.Body)
	var got api.Asset
	r.JSON(t, &got)
	require.Equal(t, [2]int{480, 640}, [2]int{deref(got.Width), deref(got.Height)}, "read from the bucket's original")
	r = s.Do("GET", *got.AssetURLs.Thumbnail, session, nil)
	require.Equal(t, http.StatusOK, r.Status, "%s", r.Body)
	require.Equal(t, "image/webp", r.Header.Get("Content-Type"))
	require.NotEmpty(t, r.Header.Get("ETag"))
	img, _, err := image.Decode(bytes.NewReader(r.Body))
	require.NoError(t, err)
	require.Equal(t, [2]int{188, 250}, size(img))
	thumbnailReads := svc.Reads("thumbnail")
	r = s.Get(*got.AssetURLs.Thumbnail, session, map[string]string{"If-None-Match": r.Header.Get("ETag")})
	require.Equal(t, http.StatusNotModified, r.Status)
	require.Equal(t, thumbnailReads, svc.Reads("thumbnail"), "a rendering the client has costs no GET")

	get := func(headers map[string]string) *servertest.Response {
		return s.Get("/api/assets/"+a.ID+"/original", session, headers)
	}
	r = get(nil)
	require.Equal(t, http.StatusOK, r.Status)
	require.Equal(t, data, r.Body)
	require.Equal(t, "image/jpeg", r.Header.Get("Content-Type"))
	require.Contains(t, r.Header.Get("Content-Disposition"), "attachment")
	r = get(map[string]string{"Range": "bytes=100-199"})
	require.Equal(t, http.StatusPartialContent, r.Status)
	require.Equal(t, data[100:200], r.Body)
	require.Equal(t, "bytes 100-199/"+strconv.Itoa(len(data)), r.Header.Get("Content-Range"))
	r = get(map[string]string{"Range": "bytes=-10"})
	require.Equal(t, http.StatusPartialContent, r.Status)
	require.Equal(t, data[len(data)-10:], r.Body)
	r = get(map[string]string{"Range": "bytes=0-1,5-6"})
	require.Equal(t, http.StatusOK, r.Status, "several ranges: the whole file")
	require.Equal(t, data, r.Body)
	r = get(map[string]string{"Range": "bytes=999999999-"})
	require.Equal(t, http.StatusRequestedRangeNotSatisfiable, r.Status)
	originalRequests := svc.Requests("originals/" + a.ID)
	r = get(map[string]string{"If-None-Match": r.Header.Get("ETag")})
	require.Equal(t, http.StatusNotModified, r.Status)
	require.Equal(t, originalRequests, svc.Requests("originals/"+a.ID), "an original the client has costs the bucket nothing")

	r = s.Do("DELETE", "/api/assets", session, map[string]any{"ids": []string{a.ID}})
	require.Equal(t, http.StatusOK, r.Status, "%s", r.Body)
	require.Empty(t, keys(), "the deletion empties the bucket")
}

// TestStartUpKeepsYoungObjectsInASharedBucket: after an unclean stop a
// process alone in its data directory sweeps orphans of any age from the
// local disk, but not from a bucket, which other hosts' uploads in flight
// share: there only objects older than the sweep's margin go.
func TestStartUpKeepsYoungObjectsInASharedBucket(t *testing.T) {
	svc := s3test.Start(t, "photos")
	blobs, err := blob.OpenS3(t.TempDir(), svc.Config("photos", ""))
	require.NoError(t, err)
	st := servertest.NewStore(t)
	svcAssets := assets.NewService(st, blobs, libraries.NewService(st, time.Now), assets.Config{MaxUploadBytes: 1 << 20}, time.Now)
	inFlight := catalog.OriginalKey("asset_01jd0000000000000000000000") // committed to the bucket, row not yet
	require.NoError(t, blobs.Put(inFlight, strings.NewReader("another host's upload")))

	require.NoError(t, svcAssets.Recover(context.Background(), slog.New(slog.DiscardHandler), true, true))
	_, err = blobs.Stat(inFlight)
	require.NoError(t, err, "a young object survives the start-up sweep")

	n, err := svcAssets.SweepOrphans(context.Background(), 0)
	require.NoError(t, err)
	require.Equal(t, 1, n, "an orphan past the margin is removed")
	_, err = blobs.Stat(inFlight)
	require.ErrorIs(t, err, catalog.ErrNotFound)
}
