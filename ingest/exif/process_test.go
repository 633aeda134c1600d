package exif

import (
	"os/exec"
	"testing"

	"github.com/stretchr/testify/require"
)

// TestHandlesReachTheProcessOfGoExiftool pins the one assumption about
// go-exiftool's internals (see handles): if an upgrade renames its fields,
// this fails rather than hung processes leaking in production.
func TestHandlesReachTheProcessOfGoExiftool(t *testing.T) {
	bin, err := exec.LookPath("exiftool")
	if err != nil {
		t.Skip("exiftool is not installed")
	}
	in, err := start(bin)
	require.NoError(t, err)
	require.Positive(t, in.cmd.Process.Pid)
	require.Contains(t, in.cmd.Args, "-stay_open")

	in.stop()
	require.NotNil(t, in.cmd.ProcessState, "stop reaps the process")
}
