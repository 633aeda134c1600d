package client_test

import (
	"bytes"
	"context"
	"errors"
	"image"
	"image/color"
	"image/draw"
	"image/jpeg"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/photoctl/photoctl/client"
	"github.com/photoctl/photoctl/server/app"
	"github.com/photoctl/photoctl/server/servertest"
)

func TestSearchPagesThroughEveryHit(t *testing.T) {
	s := servertest.Start(t, servertest.WithPipeline, func(c *app.Config) { c.ML.Enabled = false })
	c, _, _ := sessionClient(t, s)
	dir := t.TempDir()
	var ids []string
	for i, name := range []string{"beach-1.jpg", "beach-2.jpg", "beach-3.jpg", "city.jpg"} {
		ids = append(ids, upload(t, c, writeBlocks(t, dir, name, i+1)).ID)
	}
	ctx := context.Background()
	hits, err := client.Collect(c.Search(ctx, client.SearchQuery{Query: "beach", PageSize: 2}))
	require.NoError(t, err)
	require.Len(t, hits, 3)
	for _, h := range hits {
		require.Contains(t, h.OriginalFileName, "beach")
		require.Positive(t, h.Score)
	}

	dated, err := client.Collect(c.Search(ctx, client.SearchQuery{After: "2024-05-01T00:00:00", Before: "2024-05-02T00:00:00"}))
	require.NoError(t, err)
	require.Len(t, dated, 4, "capture time is the file time here: 2024-05-01 12:00")

	_, err = client.Collect(c.Search(ctx, client.SearchQuery{MediaType: "image"}))
	var apiErr *client.APIError
	require.True(t, errors.As(err, &apiErr), "%v", err)
	require.Equal(t, 422, apiErr.Status)

	for _, id := range ids {
		servertestWait(t, s, c, id)
	}
	part, err := client.PathPart(filepath.Join(dir, "city.jpg"), "city.jpg")
	require.NoError(t, err)
	like, err := client.Collect(c.SearchImage(ctx, client.SearchQuery{PageSize: 1}, part))
	require.NoError(t, err)
	require.NotEmpty(t, like)
	require.Equal(t, ids[3], like[0].ID, "the same picture first")
	none, err := client.Collect(c.SearchImage(ctx, client.SearchQuery{Query: "beach", MediaType: "video"}, part))
	require.NoError(t, err)
	require.Empty(t, none)
}

// servertestWait waits for an asset's ingest tasks (its pHash is measured
// by then).
func servertestWait(t *testing.T, s *servertest.Server, c *client.Client, id string) {
	t.Helper()
	deadline := time.Now().Add(3 * time.Minute)
	for {
		a, err := c.Asset(context.Background(), id)
		require.NoError(t, err)
		if _, ok := a.Metrics["phash"]; ok {
			return
		}
		require.True(t, time.Now().Before(deadline), "asset %s was not measured", id)
		time.Sleep(50 * time.Millisecond)
	}
}

// writeBlocks writes a 640×480 JPEG of coloured blocks laid out by seed:
// a picture whose looks survive the server's renderings (tiny or noisy
// pictures do not).
func writeBlocks(t *testing.T, dir, name string, seed int) string {
	t.Helper()
	img := image.NewRGBA(image.Rect(0, 0, 640, 480))
	for by := range 6 {
		for bx := range 8 {
			v := (bx*31 + by*17 + seed*53) * (seed + 3)
			c := color.RGBA{uint8(v * 7), uint8(v * 13), uint8(v * 29), 255}
			draw.Draw(img, image.Rect(bx*80, by*80, bx*80+80, by*80+80), image.NewUniform(c), image.Point{}, draw.Src)
		}
	}
	var buf bytes.Buffer
	require.NoError(t, jpeg.Encode(&buf, img, &jpeg.Options{Quality: 90}))
	path := filepath.Join(dir, name)
	require.NoError(t, os.WriteFile(path, buf.Bytes(), 0o644))
	return path
}
