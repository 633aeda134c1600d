package video_test

import (
	"context"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/photoctl/photoctl/ingest/video"
)

var may1 = time.Date(2024, 5, 1, 8, 0, 0, 0, time.UTC)

// TestProbeFilesMadeByFFmpeg probes real files in each container with the
// metadata cameras write.
func TestProbeFilesMadeByFFmpeg(t *testing.T) {
	t.Parallel()
	created := []string{"-metadata", "creation_time=2024-05-01T08:00:00Z"}
	x264 := []string{"-c:v", "libx264", "-pix_fmt", "yuv420p"}
	t.Run("an MP4 with sound, a creation time and GPS", func(t *testing.T) {
		t.Parallel()
		path := makeVideo(t, "clip.mp4", concat(testsrc("320x240", "30", "2"), sine("2"), x264, []string{"-c:a", "aac"}, created,
			[]string{"-metadata", "location=+48.8584+002.2945/", "-movflags", "use_metadata_tags"})...)
		info, err := video.Probe(t.Context(), path)
		require.NoError(t, err)
		require.InDelta(t, 2.0, info.Duration, 0.1)
		require.Equal(t, 320, info.Width)
		require.Equal(t, 240, info.Height)
		require.Equal(t, 0, info.Rotation)
		require.Equal(t, 30.0, info.FPS)
		require.Equal(t, "h264", info.VideoCodec)
		require.Equal(t, "aac", info.AudioCodec)
		require.Equal(t, "mp4", info.Container)
		require.NotNil(t, info.CreationTime)
		require.True(t, info.CreationTime.Equal(may1), "%v", info.CreationTime)
		require.InDelta(t, 48.8584, *info.Latitude, 1e-9)
		require.InDelta(t, 2.2945, *info.Longitude, 1e-9)
		require.Nil(t, info.Altitude)
		require.Nil(t, info.Make)
		require.Nil(t, info.LivePhotoCID)
	})
	t.Run("a MOV with an iPhone's QuickTime keys", func(t *testing.T) {
		t.Parallel()
		path := makeVideo(t, "IMG_0001.MOV", concat(testsrc("320x240", "25", "1"), x264, created, []string{
			"-movflags", "use_metadata_tags",
			"-metadata", "com.apple.quicktime.make=Apple",
			"-metadata", "com.apple.quicktime.model=iPhone 15 Pro",
			"-metadata", "com.apple.quicktime.content.identifier=1F4C9A2E-7B1D-4C8E-9F00-5D2A1B3C4D5E",
			"-metadata", "com.apple.quicktime.location.ISO6709=+35.0116+135.7681+042.500/",
			"-metadata", "com.apple.quicktime.creationdate=2024-05-01T17:00:00+0900",
		})...)
		info, err := video.Probe(t.Context(), path)
		require.NoError(t, err)
		require.Equal(t, "mov", info.Container)
		require.Equal(t, 25.0, info.FPS)
		require.Empty(t, info.AudioCodec)
		require.Equal(t, "Apple", *info.Make)
		require.Equal(t, "iPhone 15 Pro", *info.Model)
		require.Equal(t, "1F4C9A2E-7B1D-4C8E-9F00-5D2A1B3C4D5E", *info.LivePhotoCID)
		require.InDelta(t, 35.0116, *info.Latitude, 1e-9)
		require.InDelta(t, 135.7681, *info.Longitude, 1e-9)
		require.InDelta(t, 42.5, *info.Altitude, 1e-9)
		require.True(t, info.CreationTime.Equal(may1), "%v", info.CreationTime)
		_, offset := info.CreationTime.Zone()
		require.Equal(t, 9*3600, offset, "Apple's creation date keeps the camera's offset")
	})
	t.Run("a WebM with VP9 and Opus", func(t *testing.T) {
		t.Parallel()
		path := makeVideo(t, "clip.webm", concat(testsrc("160x120", "24", "1"), sine("1"),
			[]string{"-c:v", "libvpx-vp9", "-deadline", "realtime", "-c:a", "libopus"}, created)...)
		info, err := video.Probe(t.Context(), path)
		require.NoError(t, err)
		require.Equal(t, "webm", info.Container)
		require.Equal(t, "vp9", info.VideoCodec)
		require.Equal(t, "opus", info.AudioCodec)
		require.Equal(t, 160, info.Width)
		require.Equal(t, 24.0, info.FPS)
		require.InDelta(t, 1.0, info.Duration, 0.1)
		require.True(t, info.CreationTime.Equal(may1), "%v", info.CreationTime)
	})
	t.Run("an MKV with H.264 and MP3", func(t *testing.T) {
		t.Parallel()
		path := makeVideo(t, "clip.mkv", concat(testsrc("160x120", "30000/1001", "1"), sine("1"), x264, []string{"-c:a", "libmp3lame"}, created)...)
		info, err := video.Probe(t.Context(), path)
		require.NoError(t, err)
		require.Equal(t, "matroska", info.Container)
		require.Equal(t, "h264", info.VideoCodec)
		require.Equal(t, "mp3", info.AudioCodec)
		require.InDelta(t, 29.97, info.FPS, 0.01)
		require.True(t, info.CreationTime.Equal(may1), "%v", info.CreationTime)
	})
}

// rotated writes a 320x240 MP4 whose track matrix exiftool sets to turn it
// clockwise by degrees for display, as a phone held upright does.
func rotated(t *testing.T, degrees string) string {
	t.Helper()
	path := makeVideo(t, "rotated.mp4", concat(testsrc("320x240", "10", "1"), []string{"-c:v", "libx264", "-pix_fmt", "yuv420p"})...)
	run(t, "exiftool", "-q", "-overwrite_original", "-Rotation="+degrees, path)
	return path
}

func TestProbeRotatedVideos(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		degrees       string
		rotation      int
		width, height int
	}{{"90", 90, 240, 320}, {"180", 180, 320, 240}, {"270", 270, 240, 320}} {
		t.Run("turned "+c.degrees, func(t *testing.T) {
			t.Parallel()
			info, err := video.Probe(t.Context(), rotated(t, c.degrees))
			require.NoError(t, err)
			require.Equal(t, c.rotation, info.Rotation)
			require.Equal(t, c.width, info.Width)
			require.Equal(t, c.height, info.Height)
		})
	}
	// ffmpeg 5 turns a rotate tag into a display matrix only when copying
	// the stream, and reads the tag as counter-clockwise (ffmpeg 4 read it
	// clockwise; ffmpeg 6 added -display_rotation instead): whichever way,
	// the size is turned.
	t.Run("ffmpeg's rotate tag turns the size", func(t *testing.T) {
		t.Parallel()
		src := makeVideo(t, "upright.mp4", concat(testsrc("320x240", "10", "1"), []string{"-c:v", "libx264", "-pix_fmt", "yuv420p"})...)
		path := makeVideo(t, "tagged.mp4", "-i", src, "-c", "copy", "-metadata:s:v:0", "rotate=90")
		info, err := video.Probe(t.Context(), path)
		require.NoError(t, err)
		if info.Rotation == 0 {
			t.Skip("this ffmpeg ignores the rotate tag")
		}
		require.Contains(t, []int{90, 270}, info.Rotation)
		require.Equal(t, 240, info.Width)
		require.Equal(t, 320, info.Height)
	})
}

func TestProbeUnreadableFiles(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	t.Run("a truncated MP4 is a clear error", func(t *testing.T) {
		t.Parallel()
		path := makeVideo(t, "whole.mp4", concat(testsrc("320x240", "30", "2"), []string{"-c:v", "libx264", "-pix_fmt", "yuv420p"})...)
		data, err := os.ReadFile(path)
		require.NoError(t, err)
		cut := filepath.Join(dir, "cut.mp4")
		require.NoError(t, os.WriteFile(cut, data[:len(data)/2], 0o644))
		_, err = video.Probe(t.Context(), cut)
		require.ErrorContains(t, err, "probe "+cut+": ffprobe: ")
		require.ErrorContains(t, err, "moov atom not found")
	})
	t.Run("a text file is an error", func(t *testing.T) {
		t.Parallel()
		path := filepath.Join(dir, "notes.mp4")
		require.NoError(t, os.WriteFile(path, []byte("not a video at all\n"), 0o644))
		_, err := video.Probe(t.Context(), path)
		require.ErrorContains(t, err, "Invalid data found when processing input")
		require.ErrorIs(t, err, video.ErrUnreadable, "running ffprobe again cannot help")
	})
	t.Run("a missing file is an error", func(t *testing.T) {
		t.Parallel()
		_, err := video.Probe(t.Context(), filepath.Join(dir, "missing.mp4"))
		require.ErrorContains(t, err, "No such file or directory")
	})
	t.Run("a name like an option or a protocol is read as a file", func(t *testing.T) {
		t.Parallel()
		path := makeVideo(t, "-i http:x.mp4", concat(testsrc("64x64", "10", "1"), []string{"-c:v", "libx264", "-pix_fmt", "yuv420p"})...)
		info, err := video.Probe(t.Context(), path)
		require.NoError(t, err)
		require.Equal(t, 64, info.Width)
	})
	t.Run("audio alone has no video stream", func(t *testing.T) {
		t.Parallel()
		path := makeVideo(t, "voice.m4a", concat(sine("1"), []string{"-c:a", "aac"})...)
		_, err := video.Probe(t.Context(), path)
		require.ErrorIs(t, err, video.ErrNoVideoStream)
	})
}

// TestProbeKillsAHangingFFprobe runs a fake ffprobe that never answers.
func TestProbeKillsAHangingFFprobe(t *testing.T) {
	fakeTool(t, "ffprobe", "sleep 30")
	ctx, cancel := context.WithTimeout(t.Context(), 300*time.Millisecond)
	defer cancel()
	start := time.Now()
	_, err := video.Probe(ctx, "clip.mp4")
	took := time.Since(start)
	require.ErrorIs(t, err, context.DeadlineExceeded)
	require.NotErrorIs(t, err, video.ErrUnreadable, "a killed probe may succeed another time")
	require.Less(t, took, 2*time.Second, "killed at the deadline, with the sleep it started")
	t.Logf("Probe returned %v after the start, the deadline was 300ms", took.Round(time.Millisecond))
}

func TestProbeCommandIsBuiltNotRun(t *testing.T) {
	cmd := video.ProbeCommand(t.Context(), "/photos/clip.mp4")
	require.Nil(t, cmd.Process)
	require.Equal(t, []string{"-max_alloc", "1073741824", "-v", "error", "-print_format", "json", "-show_format", "-show_streams", "file:/photos/clip.mp4"}, cmd.Args[1:])
}
