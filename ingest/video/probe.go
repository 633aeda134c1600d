// Package video reads what ingest needs from a video file with ffprobe —
// duration, frame rate, displayed size, rotation, codecs, container,
// creation time, QuickTime GPS position, camera make and model, Live Photo
// pairing id — and extracts a poster frame with ffmpeg for internal use
// (face detection, search).
//
// Every command is built by a *Command function, separately from running
// it, with exec.CommandContext: a hanging ffprobe or ffmpeg is killed, with
// any process it started, when the context is done. The ffmpeg and ffprobe
// found on PATH are used.
//
// github.com/u2takey/ffmpeg-go builds the poster command's arguments.
// Probing does not use its ProbeWithTimeout: that takes a timeout but no
// context, always runs "ffprobe", builds and runs in one call, and after
// killing ffprobe waits for the output pipe for as long as any child of it
// holds the pipe open (ffmpeggo_test.go shows it outliving its timeout).
package video

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"time"

	"github.com/photoctl/photoctl/ingest/sniff"
)

// ErrNoVideoStream is returned for a readable media file that has no video
// stream (audio only, or only a cover picture).
var ErrNoVideoStream = errors.New("no video stream")

// ErrUnreadable is wrapped by the error of a probe or poster when ffprobe
// or ffmpeg ran to its end and refused the file (corrupt, truncated, not
// a video): running it again would fail the same way. A tool killed by a
// signal or by the context is not ErrUnreadable.
var ErrUnreadable = errors.New("ffmpeg cannot read the file")

// toolError wraps the error of a tool that exited on its own with a
// failure status in ErrUnreadable.
func toolError(err error) error {
	var exit *exec.ExitError
	if errors.As(err, &exit) && exit.Exited() {
		return fmt.Errorf("%w: %w", ErrUnreadable, err)
	}
	return err
}

// Info is what ffprobe tells of a video. Pointer fields are nil when the
// file does not say.
type Info struct {
	Duration float64 // seconds
	// Width and Height are the displayed size: after Rotation.
	Width, Height int
	// Rotation is how far the frames are turned clockwise for display: 0,
	// 90, 180 or 270 (a portrait iPhone video is 90).
	Rotation   int
	FPS        float64 // average frame rate; 0 when unknown
	VideoCodec string  // ffprobe's codec name: "h264", "hevc", "vp9", "av1"
	AudioCodec string  // "" without an audio stream: "aac", "opus"
	// Container is "mp4", "mov", "m4v", "3gp", "3g2", "matroska", "webm",
	// or else ffprobe's format name ("avi", "mpegts").
	Container string
	// CreationTime is com.apple.quicktime.creationdate (which keeps the
	// camera's UTC offset) or else the container's creation_time (UTC).
	CreationTime *time.Time
	// Latitude, Longitude (degrees) and Altitude (metres) come from the
	// ISO 6709 string in com.apple.quicktime.location.ISO6709 or location.
	Latitude, Longitude, Altitude *float64
	Make, Model                   *string // com.apple.quicktime.make/model, or QuickTime ©mak/©mod
	// LivePhotoCID is com.apple.quicktime.content.identifier, the id that
	// pairs a Live Photo's video with its still.
	LivePhotoCID *string
}

// ProbeCommand builds (does not run) the ffprobe command that prints the
// format and streams of the file at path as JSON on stdout.
func ProbeCommand(ctx context.Context, path string) *exec.Cmd {
	return command(ctx, "ffprobe", "-max_alloc", maxAlloc, "-v", "error", "-print_format", "json",
		"-show_format", "-show_streams", input(path))
}

// Probe runs ffprobe on the file at path and parses its report. A probe
// still running when ctx is done is killed; the error then wraps ctx's
// error. A file ffprobe cannot read gives an error carrying ffprobe's
// message; one without video, ErrNoVideoStream.
func Probe(ctx context.Context, path string) (*Info, error) {
	cmd := ProbeCommand(ctx, path)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		if ctx.Err() != nil {
			return nil, fmt.Errorf("probe %s: %w", path, ctx.Err())
		}
		if msg := toolMessage(stderr.String()); msg != "" {
			return nil, fmt.Errorf("probe %s: ffprobe: %s (%w)", path, msg, toolError(err))
		}
		return nil, fmt.Errorf("probe %s: ffprobe: %w", path, toolError(err))
	}
	info, err := parseProbe(stdout.Bytes())
	if err != nil {
		return nil, fmt.Errorf("probe %s: %w", path, err)
	}
	if info.Container == "matroska" && isWebM(path) {
		info.Container = "webm"
	}
	return info, nil
}

// isWebM tells WebM from other Matroska files, which ffprobe names alike
// ("matroska,webm"), by the DocType in the file's EBML header.
func isWebM(path string) bool {
	f, err := os.Open(path)
	if err != nil {
		return false
	}
	defer f.Close()
	head := make([]byte, 4096)
	n, _ := io.ReadFull(f, head)
	r, ok := sniff.Detect(head[:n], path)
	return ok && r.MIME == "video/webm"
}
