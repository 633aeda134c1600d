package video

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"os/exec"
	"strconv"

	ffmpeg "github.com/u2takey/ffmpeg-go"
)

// PosterMaxSide is the longest side of a poster frame in pixels. Smaller
// videos are not scaled up.
const PosterMaxSide = 1440

// shortVideo is the duration below which a poster is taken from the first
// frame rather than 10% in.
const shortVideo = 1.0 // seconds

// PosterCommand builds (does not run) the ffmpeg command that writes one
// JPEG frame of the video at path, atSeconds in, to out (overwriting it).
// The frame is turned upright (ffmpeg applies the rotation on decoding)
// and scaled to at most PosterMaxSide pixels on its long side.
//
// ffmpeg-go builds the arguments; the command itself is made here with
// exec.CommandContext because its Stream.Compile logs every command
// through the standard logger unless a package-global flag is cleared, and
// applies package-global options.
func PosterCommand(ctx context.Context, path, out string, atSeconds float64) *exec.Cmd {
	limit := strconv.Itoa(PosterMaxSide)
	args := ffmpeg.Input(input(path), ffmpeg.KwArgs{
		"ss": strconv.FormatFloat(max(atSeconds, 0), 'f', 3, 64),
	}).
		Filter("scale", nil, ffmpeg.KwArgs{
			"w":                           "min(" + limit + ",iw)",
			"h":                           "min(" + limit + ",ih)",
			"force_original_aspect_ratio": "decrease",
		}).
		Output(input(out), ffmpeg.KwArgs{
			"frames:v": 1,
			"f":        "image2",
			"update":   1,
			"c:v":      "mjpeg",
			"q:v":      3,
		}).
		GlobalArgs("-hide_banner", "-nostdin", "-v", "error", "-max_alloc", maxAlloc).
		OverWriteOutput().
		GetArgs()
	return command(ctx, "ffmpeg", args...)
}

// Poster writes one JPEG frame of the video at path to out, as
// PosterCommand describes. With atSeconds < 0 it probes the video and takes
// the frame 10% in, or the first frame of a video shorter than a second. A
// video whose frames end before atSeconds is an error, and out is removed
// on any error. It is killed when ctx is done.
func Poster(ctx context.Context, path, out string, atSeconds float64) error {
	if atSeconds < 0 {
		info, err := Probe(ctx, path)
		if err != nil {
			return fmt.Errorf("make poster: %w", err)
		}
		atSeconds = posterTime(info.Duration)
	}
	cmd := PosterCommand(ctx, path, out, atSeconds)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	err := cmd.Run()
	switch {
	case err != nil && ctx.Err() != nil:
		err = fmt.Errorf("make poster of %s: %w", path, ctx.Err())
	case err != nil:
		err = fmt.Errorf("make poster of %s: ffmpeg: %s (%w)", path, toolMessage(stderr.String()), toolError(err))
	default:
		// ffmpeg succeeds without writing anything when the seek lands
		// past the last frame.
		if fi, statErr := os.Stat(out); statErr != nil || fi.Size() == 0 {
			err = fmt.Errorf("make poster of %s: no frame at %.3fs: %w", path, atSeconds, ErrUnreadable)
		}
	}
	if err != nil {
		_ = os.Remove(out)
	}
	return err
}

// posterTime picks the poster's time for a video of the given duration.
func posterTime(duration float64) float64 {
	if duration < shortVideo {
		return 0
	}
	return duration / 10
}
