package video_test

import (
	"testing"
	"time"

	"github.com/stretchr/testify/require"
	ffmpeg "github.com/u2takey/ffmpeg-go"
)

// TestFFmpegGoProbeOutlivesItsTimeout shows why Probe does not use
// ffmpeg-go's ProbeWithTimeout (v0.5.0): it takes no context, so a
// cancelled ingest job cannot stop it, and it kills only the one process
// it started and then waits for the output pipe, so a wrapper's child
// keeps it waiting past the timeout. Here the timeout is 200ms and it
// returns after the fake ffprobe's 2 s sleep.
func TestFFmpegGoProbeOutlivesItsTimeout(t *testing.T) {
	fakeTool(t, "ffprobe", "sleep 2")
	start := time.Now()
	_, err := ffmpeg.ProbeWithTimeout("clip.mp4", 200*time.Millisecond, nil)
	took := time.Since(start)
	require.Error(t, err)
	require.Greater(t, took, 1500*time.Millisecond)
	t.Logf("ffmpeg-go ProbeWithTimeout(200ms) returned after %v", took.Round(time.Millisecond))
}
