//go:build unix

package video

import (
	"errors"
	"os"
	"os/exec"
	"syscall"
)

// killProcessGroup starts the command in a process group of its own and,
// on cancellation, kills the whole group rather than the one process.
func killProcessGroup(cmd *exec.Cmd) {
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	cmd.Cancel = func() error {
		err := syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
		if errors.Is(err, syscall.ESRCH) {
			return os.ErrProcessDone
		}
		return err
	}
}
