package backup

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"syscall"
)

// lockName is the file in a backup directory that a backup holds an
// exclusive flock on while it writes there, and a restore a shared one
// while it reads.
const lockName = ".backup-lock"

// runningMarker is in a backup directory while a backup runs there, and
// after one that did not finish.
const runningMarker = ".backup-running"

// ErrBusy is returned by Backup when another backup is writing into the
// same directory, and by Restore when one is.
var ErrBusy = errors.New("another backup is writing into the directory")

// lockDir takes the flock of the backup directory dir: exclusive to write,
// shared to read. It does not wait: one held the other way is ErrBusy. A
// reader of a directory it cannot create the lock file in (read-only
// media, a backup of an older photoctl) goes on without the lock. The
// returned function releases it.
func lockDir(dir string, exclusive bool) (func(), error) {
	flags, how := os.O_RDONLY, syscall.LOCK_SH
	if exclusive {
		flags, how = os.O_RDWR|os.O_CREATE, syscall.LOCK_EX
	}
	f, err := os.OpenFile(filepath.Join(dir, lockName), flags, 0o600)
	if !exclusive && errors.Is(err, fs.ErrNotExist) {
		return func() {}, nil
	}
	if err != nil {
		return nil, fmt.Errorf("lock %s: %w", dir, err)
	}
	if err := syscall.Flock(int(f.Fd()), how|syscall.LOCK_NB); err != nil {
		f.Close()
		if errors.Is(err, syscall.EWOULDBLOCK) {
			return nil, fmt.Errorf("%s: %w", dir, ErrBusy)
		}
		return nil, fmt.Errorf("lock %s: %w", dir, err)
	}
	return func() { f.Close() }, nil
}

// markRunning marks a backup running in dir (runningMarker, made durable
// before any copy) and reports whether the last one did not finish (its
// marker was still there). finished removes the marker after a run that
// committed and pruned; a run that fails leaves it for the next.
func markRunning(dir string) (interrupted bool, finished func() error, err error) {
	marker := filepath.Join(dir, runningMarker)
	_, err = os.Lstat(marker)
	interrupted = err == nil
	if err := os.WriteFile(marker, nil, 0o600); err != nil {
		return false, nil, fmt.Errorf("mark the backup running: %w", err)
	}
	if err := syncDir(dir); err != nil {
		return false, nil, err
	}
	return interrupted, func() error { return os.Remove(marker) }, nil
}
