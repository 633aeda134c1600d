//go:build linux

package exif

import (
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
)

// guard returns the path of an executable that runs exiftool (binary, an
// absolute path) such that the kernel kills it when the process that
// started it dies. exiftool -stay_open ignores the end of its input, so
// after a crash or kill -9 of photoctl its processes would poll a dead
// pipe a hundred times a second for ever, and every restart would add a
// pool's worth. The executable is a shell script in a new private
// temporary directory that execs util-linux's setpriv --pdeathsig KILL,
// which then execs exiftool in the same process; cleanup removes it.
// Without setpriv, guard returns binary itself and a no-op cleanup. The
// directory's name carries this process's pid, so that the directories
// of processes that were killed before their cleanup are removed by the
// next guard on the host (removeOrphanedGuards).
func guard(binary string) (path string, cleanup func(), err error) {
	setpriv, err := exec.LookPath("setpriv")
	if err != nil {
		return binary, func() {}, nil
	}
	removeOrphanedGuards()
	dir, err := os.MkdirTemp("", guardPrefix+strconv.Itoa(os.Getpid())+"-")
	if err != nil {
		return "", nil, fmt.Errorf("guard exiftool: %w", err)
	}
	cleanup = func() { _ = os.RemoveAll(dir) }
	path = filepath.Join(dir, "exiftool")
	script := "#!/bin/sh\n# photoctl: exiftool, killed when the photoctl process that started it dies\nexec " +
		shellQuote(setpriv) + " --pdeathsig KILL -- " + shellQuote(binary) + " \"$@\"\n"
	if err := os.WriteFile(path, []byte(script), 0o700); err != nil {
		cleanup()
		return "", nil, fmt.Errorf("guard exiftool: %w", err)
	}
	return path, cleanup, nil
}

// guardPrefix starts the name of a guard's directory, followed by the pid
// of the process it belongs to and a dash.
const guardPrefix = "photoctl-exiftool-"

// removeOrphanedGuards removes the guard directories in the temporary
// directory whose process no longer exists. A directory whose pid a new
// process has taken stays until that one ends too; one whose name has no
// pid (made by an older photoctl) is left alone.
func removeOrphanedGuards() {
	dirs, _ := filepath.Glob(filepath.Join(os.TempDir(), guardPrefix+"*-*"))
	for _, dir := range dirs {
		pid, err := strconv.Atoi(strings.SplitN(strings.TrimPrefix(filepath.Base(dir), guardPrefix), "-", 2)[0])
		if err != nil || pid <= 0 || pid == os.Getpid() {
			continue
		}
		if errors.Is(syscall.Kill(pid, 0), syscall.ESRCH) {
			_ = os.RemoveAll(dir)
		}
	}
}

// shellQuote quotes s for a POSIX shell.
func shellQuote(s string) string {
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}
