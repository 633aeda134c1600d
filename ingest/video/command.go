package video

import (
	"context"
	"os/exec"
	"strings"
	"time"
)

// waitDelay bounds how long a cancelled command may keep its output pipes
// open. Killing ffprobe is not always enough: a wrapper script's children
// inherit the pipes, and without a bound Wait blocks until they exit.
const waitDelay = 2 * time.Second

// maxAlloc is ffmpeg's and ffprobe's -max_alloc: the largest single
// allocation either may make (1 GiB), so a crafted header claiming a huge
// frame fails instead of exhausting memory. It is no total cap (ffmpeg has
// none); task time is bounded by the runner (ingest.task_timeout).
const maxAlloc = "1073741824"

// command builds (does not start) an exec.Cmd for a tool that is killed —
// with every process it started — when ctx is done.
func command(ctx context.Context, tool string, args ...string) *exec.Cmd {
	cmd := exec.CommandContext(ctx, tool, args...)
	cmd.WaitDelay = waitDelay
	killProcessGroup(cmd)
	return cmd
}

// input names a file for ffmpeg and ffprobe so that neither reads it as an
// option ("-x.mp4") or a protocol ("http:…", "concat:…").
func input(path string) string {
	return "file:" + path
}

// toolMessage returns the last lines of a tool's stderr, which is where
// ffmpeg and ffprobe at -v error say what went wrong ("[mov,mp4,…] moov
// atom not found; file:x.mp4: Invalid data found when processing input"),
// joined and cut to a size fit for an error message.
func toolMessage(stderr string) string {
	var lines []string
	for _, l := range strings.Split(stderr, "\n") {
		if l = strings.TrimSpace(l); l != "" {
			lines = append(lines, l)
		}
	}
	msg := strings.Join(lines[max(0, len(lines)-3):], "; ")
	if len(msg) > 400 {
		msg = "…" + strings.ToValidUTF8(msg[len(msg)-400:], "")
	}
	return msg
}
