package client_test

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/base64"
	"io"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/photoctl/photoctl/client"
	"github.com/photoctl/photoctl/server/api"
	"github.com/photoctl/photoctl/server/servertest"
)

// writeJPEG writes a distinct real JPEG into dir and returns its path.
func writeJPEG(t *testing.T, dir, name string, seed int) string {
	t.Helper()
	path := filepath.Join(dir, name)
	require.NoError(t, os.WriteFile(path, servertest.JPEG(t, 64, 48, seed), 0o644))
	return path
}

func checksumOf(t *testing.T, path string) string {
	t.Helper()
	data, err := os.ReadFile(path)
	require.NoError(t, err)
	sum := sha256.Sum256(data)
	return base64.StdEncoding.EncodeToString(sum[:])
}

func upload(t *testing.T, c *client.Client, path string) *client.UploadResult {
	t.Helper()
	part, err := client.PathPart(path, filepath.Base(path))
	require.NoError(t, err)
	res, err := c.UploadAsset(context.Background(), client.Upload{File: part, DeviceID: "test",
		DeviceAssetID: filepath.Base(path), FileCreatedAt: time.Date(2024, 5, 1, 12, 0, 0, 0, time.UTC)})
	require.NoError(t, err)
	return res
}

func TestUploadCreatesThenReportsTheDuplicate(t *testing.T) {
	s := servertest.Start(t)
	c, _, _ := sessionClient(t, s)
	path := writeJPEG(t, t.TempDir(), "a.jpg", 1)

	var sent int64
	part, err := client.PathPart(path, "a.jpg")
	require.NoError(t, err)
	res, err := c.UploadAsset(context.Background(), client.Upload{File: part, Progress: func(n int64) { sent += n }})
	require.NoError(t, err)
	require.False(t, res.Duplicate)
	require.NotNil(t, res.Asset)
	require.Equal(t, "a.jpg", res.Asset.OriginalFileName)
	require.Equal(t, checksumOf(t, path), res.Asset.Checksum)
	require.Equal(t, part.Size, sent)

	again := upload(t, c, path)
	require.True(t, again.Duplicate)
	require.Equal(t, res.ID, again.ID)
	require.Nil(t, again.Asset)

	other := sha256.Sum256([]byte("not uploaded"))
	held, err := c.CheckChecksums(context.Background(), "", []string{checksumOf(t, path), base64.StdEncoding.EncodeToString(other[:])})
	require.NoError(t, err)
	require.Equal(t, map[string]string{checksumOf(t, path): res.ID}, held)
}

func TestUploadSendsTheSidecarAndDates(t *testing.T) {
	s := servertest.Start(t)
	c, _, _ := sessionClient(t, s)
	dir := t.TempDir()
	path := writeJPEG(t, dir, "b.jpg", 2)
	xmp := filepath.Join(dir, "b.jpg.xmp")
	require.NoError(t, os.WriteFile(xmp, []byte(`<x:xmpmeta xmlns:x="adobe:ns:meta/"/>`), 0o644))
	part, _ := client.PathPart(path, "b.jpg")
	side, _ := client.PathPart(xmp, "b.jpg.xmp")
	created := time.Date(2021, 3, 4, 5, 6, 7, 0, time.UTC)
	res, err := c.UploadAsset(context.Background(), client.Upload{File: part, Sidecar: &side,
		DeviceID: "dev", DeviceAssetID: "b.jpg-1", FileCreatedAt: created, FileModifiedAt: created})
	require.NoError(t, err)
	require.Equal(t, "dev", res.Asset.DeviceID)
	require.Equal(t, "b.jpg-1", res.Asset.DeviceAssetID)
	require.True(t, created.Equal(res.Asset.FileCreatedAt))
}

func TestUploadOfAFileThatChangesSizeFails(t *testing.T) {
	s := servertest.Start(t)
	c, _, _ := sessionClient(t, s)
	data := servertest.JPEG(t, 64, 48, 3)
	part := client.FilePart{Name: "c.jpg", Size: int64(len(data)) + 10,
		Open: func() (io.ReadCloser, error) { return io.NopCloser(bytes.NewReader(data)), nil }}
	_, err := c.UploadAsset(context.Background(), client.Upload{File: part})
	require.ErrorContains(t, err, "shrank")

	part.Size = int64(len(data)) - 10
	_, err = c.UploadAsset(context.Background(), client.Upload{File: part})
	require.ErrorContains(t, err, "grew")

	// Nothing was stored.
	all, err := client.Collect(c.Assets(context.Background(), client.AssetQuery{State: "all"}, 0))
	require.NoError(t, err)
	require.Empty(t, all)
}

func TestUploadIsRetriedAfter503ReopeningTheFile(t *testing.T) {
	s := servertest.Start(t)
	proxy, seen := flakyProxy(t, s.URL, "/api/assets", 2, 503, "")
	var waits []time.Duration
	_, store, _ := sessionClient(t, s)
	c := newClient(t, client.Options{Server: proxy.URL, Session: store, Sleep: recordSleeps(s, &waits)})
	path := writeJPEG(t, t.TempDir(), "d.jpg", 4)
	part, _ := client.PathPart(path, "d.jpg")
	var sent int64
	res, err := c.UploadAsset(context.Background(), client.Upload{File: part, Progress: func(n int64) { sent += n }})
	require.NoError(t, err)
	require.False(t, res.Duplicate)
	require.Equal(t, int32(3), seen.Load())
	require.Len(t, waits, 2, "two backoffs")
	require.Equal(t, part.Size, sent, "progress is rewound on retry")
}

func TestRateLimitedRequestsWaitForRetryAfter(t *testing.T) {
	s := servertest.Start(t, func(cfg *appConfig) {
		cfg.RateLimit.Enabled = true
		cfg.RateLimit.Rate = 1
		cfg.RateLimit.Burst = 2
		cfg.RateLimit.MaxWait = 0 // the server refuses at once; the client waits
	})
	var waits []time.Duration
	c, _, _ := sessionClient(t, s, func(o *client.Options) { o.Sleep = recordSleeps(s, &waits) })
	for range 4 {
		_, err := c.Me(context.Background())
		require.NoError(t, err)
	}
	require.NotEmpty(t, waits)
	for _, w := range waits {
		require.GreaterOrEqual(t, w, time.Second, "Retry-After is whole seconds")
	}
}

func TestRateLimitedRequestGivesUpAfterTheRetries(t *testing.T) {
	s := servertest.Start(t)
	proxy, seen := flakyProxy(t, s.URL, "/api/users/me", 100, 429, "1")
	_, store, _ := sessionClient(t, s)
	var waits []time.Duration
	c := newClient(t, client.Options{Server: proxy.URL, Session: store, Sleep: recordSleeps(s, &waits),
		Retry: &client.RetryPolicy{MaxRetries: 2, BaseDelay: time.Millisecond, MaxDelay: time.Second, MaxRetryAfter: time.Minute}})
	_, err := c.Me(context.Background())
	require.ErrorIs(t, err, client.ErrRateLimited)
	var apiErr *client.APIError
	require.ErrorAs(t, err, &apiErr)
	require.Equal(t, time.Second, apiErr.RetryAfter)
	require.Equal(t, "try again later", apiErr.Detail)
	require.Equal(t, int32(3), seen.Load())
	require.Len(t, waits, 2)
	for _, w := range waits {
		require.GreaterOrEqual(t, w, time.Second, "at least what Retry-After says")
		require.Less(t, w, time.Second+time.Second/4+100*time.Millisecond, "plus a jitter of at most a quarter and 100 ms")
	}
}

func TestValidationErrorsCarryTheFieldList(t *testing.T) {
	s := servertest.Start(t)
	c, _, _ := sessionClient(t, s)
	a := upload(t, c, writeJPEG(t, t.TempDir(), "e.jpg", 5))
	five, nine := 5, 9
	err := c.BulkUpdateAssets(context.Background(), []api.AssetUpdate{
		{ID: a.ID, Change: api.AssetChange{Rating: api.Optional[int]{Set: true, Value: &five}}},
		{ID: a.ID, Change: api.AssetChange{Rating: api.Optional[int]{Set: true, Value: &nine}}},
	})
	require.ErrorIs(t, err, client.ErrInvalid)
	var apiErr *client.APIError
	require.ErrorAs(t, err, &apiErr)
	require.Equal(t, 422, apiErr.Status)
	require.NotEmpty(t, apiErr.Fields)
	require.Equal(t, []any{"body", "updates", float64(1), "change", "rating"}, apiErr.Fields[0].Loc)

	got, err := c.Asset(context.Background(), a.ID)
	require.NoError(t, err)
	require.Nil(t, got.Metadata.Rating, "the batch was rejected whole")

	_, err = c.Asset(context.Background(), "asset_nope")
	require.ErrorIs(t, err, client.ErrNotFound)
}

func TestAssetsIteratorWalksEveryPage(t *testing.T) {
	s := servertest.Start(t)
	c, _, _ := sessionClient(t, s)
	dir := t.TempDir()
	want := map[string]bool{}
	for i := range 7 {
		want[upload(t, c, writeJPEG(t, dir, "f"+string(rune('a'+i))+".jpg", 10+i)).ID] = true
	}
	got := map[string]bool{}
	for a, err := range c.Assets(context.Background(), client.AssetQuery{}, 2) {
		require.NoError(t, err)
		require.False(t, got[a.ID], "no asset twice")
		got[a.ID] = true
	}
	require.Equal(t, want, got)

	page, err := c.AssetsPage(context.Background(), client.AssetQuery{Order: "asc"}, "", 3)
	require.NoError(t, err)
	require.Len(t, page.Data, 3)
	require.True(t, page.HasMore)
}

func TestEditTrashRestoreDelete(t *testing.T) {
	s := servertest.Start(t)
	c, _, _ := sessionClient(t, s)
	ctx := context.Background()
	a := upload(t, c, writeJPEG(t, t.TempDir(), "g.jpg", 20))

	desc, four := "a walk", 4
	got, err := c.UpdateAsset(ctx, a.ID, api.AssetChange{Description: api.Optional[string]{Set: true, Value: &desc},
		Rating: api.Optional[int]{Set: true, Value: &four}})
	require.NoError(t, err)
	require.Equal(t, "a walk", *got.Metadata.Description)
	require.Equal(t, 4.0, *got.Metadata.Rating)

	// An unset field stays; a set nil clears.
	got, err = c.UpdateAsset(ctx, a.ID, api.AssetChange{Rating: api.Optional[int]{Set: true}})
	require.NoError(t, err)
	require.Nil(t, got.Metadata.Rating)
	require.Equal(t, "a walk", *got.Metadata.Description)

	ids, err := c.TrashAssets(ctx, "", []string{a.ID})
	require.NoError(t, err)
	require.Equal(t, []string{a.ID}, ids)
	trashed, err := client.Collect(c.Assets(ctx, client.AssetQuery{State: "trashed"}, 0))
	require.NoError(t, err)
	require.Len(t, trashed, 1)
	_, err = c.RestoreAssets(ctx, "", []string{a.ID})
	require.NoError(t, err)
	deleted, err := c.DeleteAssets(ctx, "", []string{a.ID})
	require.NoError(t, err)
	require.Equal(t, []string{a.ID}, deleted)
	_, err = c.Asset(ctx, a.ID)
	require.ErrorIs(t, err, client.ErrNotFound)
}

func TestDownloadResumesFromAnOffset(t *testing.T) {
	s := servertest.Start(t)
	c, _, _ := sessionClient(t, s)
	ctx := context.Background()
	path := writeJPEG(t, t.TempDir(), "h.jpg", 30)
	data, _ := os.ReadFile(path)
	a := upload(t, c, path)

	d, err := c.DownloadOriginal(ctx, a.ID, 0, "")
	require.NoError(t, err)
	whole, err := io.ReadAll(d.Body)
	require.NoError(t, d.Body.Close())
	require.NoError(t, err)
	require.Equal(t, data, whole)
	require.Equal(t, "h.jpg", d.FileName)
	require.Equal(t, int64(len(data)), d.Size)
	require.NotEmpty(t, d.ETag)

	d, err = c.DownloadOriginal(ctx, a.ID, 100, d.ETag)
	require.NoError(t, err)
	rest, err := io.ReadAll(d.Body)
	d.Body.Close()
	require.NoError(t, err)
	require.Equal(t, int64(100), d.Offset)
	require.Equal(t, int64(len(data)), d.Size)
	require.Equal(t, data[100:], rest)

	// A stale ETag gets the whole file again.
	d, err = c.DownloadOriginal(ctx, a.ID, 100, `"stale"`)
	require.NoError(t, err)
	again, _ := io.ReadAll(d.Body)
	d.Body.Close()
	require.Equal(t, int64(0), d.Offset)
	require.Equal(t, data, again)
}

func TestCountsAndVersions(t *testing.T) {
	s := servertest.Start(t)
	c, _, _ := sessionClient(t, s)
	ctx := context.Background()
	dir := t.TempDir()
	a := upload(t, c, writeJPEG(t, dir, "i.jpg", 40))

	counts, err := c.AssetCounts(ctx, client.AssetQuery{}, "year", "", 0)
	require.NoError(t, err)
	require.Len(t, counts.Data, 1)
	require.Equal(t, int64(1), counts.Data[0].Count)

	edited, _ := client.PathPart(writeJPEG(t, dir, "i-edit.jpg", 41), "i-edit.jpg")
	v, err := c.AppendVersion(ctx, a.ID, edited, nil)
	require.NoError(t, err)
	require.True(t, v.IsCurrent)
	versions, err := client.Collect(c.Versions(ctx, a.ID))
	require.NoError(t, err)
	require.Len(t, versions, 2)
	require.True(t, versions[1].IsOriginal)
	d, err := c.DownloadVersion(ctx, a.ID, v.ID, 0, "")
	require.NoError(t, err)
	d.Body.Close()
	require.Equal(t, edited.Size, d.Size)
	require.NoError(t, c.DeleteVersion(ctx, a.ID, v.ID))
}
