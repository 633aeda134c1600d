package video_test

import (
	"os"
	"os/exec"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/require"
)

// run runs a tool, skipping the test when it is not installed.
func run(t *testing.T, tool string, args ...string) {
	t.Helper()
	if _, err := exec.LookPath(tool); err != nil {
		t.Skipf("%s is not installed", tool)
	}
	out, err := exec.CommandContext(t.Context(), tool, args...).CombinedOutput()
	require.NoError(t, err, "%s %v: %s", tool, args, out)
}

// makeVideo has ffmpeg write name in a fresh directory from args (inputs,
// codecs, metadata) and returns its path.
func makeVideo(t *testing.T, name string, args ...string) string {
	t.Helper()
	out := filepath.Join(t.TempDir(), name)
	run(t, "ffmpeg", append(append([]string{"-v", "error", "-nostdin"}, args...), "-y", out)...)
	return out
}

// testsrc is a lavfi input of the given size, rate and duration.
func testsrc(size, rate, seconds string) []string {
	return []string{"-f", "lavfi", "-i", "testsrc=size=" + size + ":rate=" + rate, "-t", seconds}
}

// sine is a lavfi audio input.
func sine(seconds string) []string {
	return []string{"-f", "lavfi", "-i", "sine=frequency=440:sample_rate=48000", "-t", seconds}
}

// fakeTool puts an executable script named tool first on PATH for the
// rest of the test. The script runs sleep as a child (no exec), so that
// killing the script alone would leave the child holding its output pipes.
func fakeTool(t *testing.T, tool, script string) {
	t.Helper()
	dir := t.TempDir()
	require.NoError(t, os.WriteFile(filepath.Join(dir, tool), []byte("#!/bin/sh\n"+script+"\n"), 0o755))
	t.Setenv("PATH", dir+string(os.PathListSeparator)+os.Getenv("PATH"))
}

func concat(parts ...[]string) []string {
	var all []string
	for _, p := range parts {
		all = append(all, p...)
	}
	return all
}
