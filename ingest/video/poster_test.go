package video_test

import (
	"bytes"
	"context"
	"image"
	"image/jpeg"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/photoctl/photoctl/ingest/video"
)

// jpegSize decodes the JPEG at path and returns its size.
func jpegSize(t *testing.T, path string) image.Point {
	t.Helper()
	data, err := os.ReadFile(path)
	require.NoError(t, err)
	require.True(t, bytes.HasPrefix(data, []byte{0xff, 0xd8, 0xff}), "a JPEG starts with SOI")
	img, err := jpeg.Decode(bytes.NewReader(data))
	require.NoError(t, err)
	return img.Bounds().Size()
}

func TestPoster(t *testing.T) {
	t.Parallel()
	x264 := []string{"-c:v", "libx264", "-pix_fmt", "yuv420p", "-preset", "ultrafast"}
	cases := []struct {
		name string
		make func(t *testing.T) string
		at   float64
		want image.Point
	}{
		{"a small video keeps its size", func(t *testing.T) string {
			return makeVideo(t, "small.mp4", concat(testsrc("320x240", "10", "2"), x264)...)
		}, -1, image.Pt(320, 240)},
		{"a video turned 90° gives an upright poster", func(t *testing.T) string { return rotated(t, "90") }, -1, image.Pt(240, 320)},
		{"a 1080p video is scaled to 1440 on the long side", func(t *testing.T) string {
			return makeVideo(t, "hd.mkv", concat(testsrc("1920x1080", "5", "1"), x264)...)
		}, 0.5, image.Pt(1440, 810)},
		{"a turned 4K-wide video is upright and scaled", func(t *testing.T) string {
			path := makeVideo(t, "wide.mp4", concat(testsrc("2880x1620", "2", "1"), x264)...)
			run(t, "exiftool", "-q", "-overwrite_original", "-Rotation=90", path)
			return path
		}, 0, image.Pt(810, 1440)},
		{"a WebM works too", func(t *testing.T) string {
			return makeVideo(t, "clip.webm", concat(testsrc("160x120", "10", "1"), []string{"-c:v", "libvpx-vp9", "-deadline", "realtime"})...)
		}, -1, image.Pt(160, 120)},
		{"a video shorter than a second gives its first frame", func(t *testing.T) string {
			return makeVideo(t, "blink.mp4", concat(testsrc("64x48", "10", "0.3"), x264)...)
		}, -1, image.Pt(64, 48)},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			path := c.make(t)
			out := filepath.Join(t.TempDir(), "poster.jpg")
			require.NoError(t, video.Poster(t.Context(), path, out, c.at))
			require.Equal(t, c.want, jpegSize(t, out))
		})
	}
}

func TestPosterErrors(t *testing.T) {
	t.Parallel()
	t.Run("a time past the end is an error and leaves no file", func(t *testing.T) {
		t.Parallel()
		path := makeVideo(t, "clip.mp4", concat(testsrc("64x48", "10", "1"), []string{"-c:v", "libx264", "-pix_fmt", "yuv420p"})...)
		out := filepath.Join(t.TempDir(), "poster.jpg")
		err := video.Poster(t.Context(), path, out, 100)
		require.ErrorContains(t, err, "no frame at 100.000s")
		require.NoFileExists(t, out)
	})
	t.Run("an unreadable file is ffmpeg's error", func(t *testing.T) {
		t.Parallel()
		path := filepath.Join(t.TempDir(), "notes.mp4")
		require.NoError(t, os.WriteFile(path, []byte("not a video at all\n"), 0o644))
		out := filepath.Join(t.TempDir(), "poster.jpg")
		err := video.Poster(t.Context(), path, out, 0)
		require.ErrorContains(t, err, "Invalid data found when processing input")
		require.ErrorIs(t, err, video.ErrUnreadable)
		require.ErrorContains(t, video.Poster(t.Context(), path, out, -1), "probe "+path)
		require.NoFileExists(t, out)
	})
}

func TestPosterKillsAHangingFFmpeg(t *testing.T) {
	fakeTool(t, "ffmpeg", "sleep 30")
	ctx, cancel := context.WithTimeout(t.Context(), 300*time.Millisecond)
	defer cancel()
	start := time.Now()
	err := video.Poster(ctx, "clip.mp4", filepath.Join(t.TempDir(), "poster.jpg"), 1)
	require.ErrorIs(t, err, context.DeadlineExceeded)
	require.Less(t, time.Since(start), 2*time.Second)
}

func TestPosterCommandIsBuiltNotRun(t *testing.T) {
	cmd := video.PosterCommand(t.Context(), "/photos/clip.mov", "/cache/poster.jpg", 1.25)
	require.Nil(t, cmd.Process)
	require.Equal(t, "ffmpeg", filepath.Base(cmd.Args[0]))
	require.Equal(t, "-ss 1.250 -i file:/photos/clip.mov "+
		`-filter_complex [0]scale=force_original_aspect_ratio=decrease:h=min(1440\,ih):w=min(1440\,iw)[s0] `+
		"-map [s0] -c:v mjpeg -f image2 -frames:v 1 -q:v 3 -update 1 file:/cache/poster.jpg "+
		"-hide_banner -nostdin -v error -max_alloc 1073741824 -y", strings.Join(cmd.Args[1:], " "))
}
