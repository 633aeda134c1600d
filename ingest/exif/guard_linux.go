//go:build linux

package exif

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
)

// guard returns the path of an executable that runs exiftool (binary, an
// absolute path) such that the kernel kills it when the process that
// started it dies. exiftool -stay_open ignores the end of its input, so
// after a crash or kill -9 of photoctl its processes would poll a dead
// pipe a hundred times a second for ever, and every restart would add a
// pool's worth. The executable is a shell script in a new private
// temporary directory that execs util-linux's setpriv --pdeathsig KILL,
// which then execs exiftool in the same process; cleanup removes it.
// Without setpriv, guard returns binary itself and a no-op cleanup.
func guard(binary string) (path string, cleanup func(), err error) {
	setpriv, err := exec.LookPath("setpriv")
	if err != nil {
		return binary, func() {}, nil
	}
	dir, err := os.MkdirTemp("", "photoctl-exiftool-")
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

// shellQuote quotes s for a POSIX shell.
func shellQuote(s string) string {
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}
