package app

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"syscall"
)

// dataLock is an advisory lock on the data directory. Every serve process
// holds it shared while it runs; a process that gets it exclusively at start
// knows no other process is writing there, so files a crash left behind can
// be removed whatever their age.
//
// A marker file records that a process is running. Finding it when starting
// alone means the last run ended without a clean shutdown: only then is the
// full orphan sweep worth its cost (one lookup per stored original).
type dataLock struct {
	f      *os.File
	marker string
}

// lockDataDir takes the lock. alone reports that no other process holds
// it; unclean that the previous run did not shut down cleanly.
func lockDataDir(dir string) (l *dataLock, alone, unclean bool, err error) {
	f, err := os.OpenFile(filepath.Join(dir, "photoctl.lock"), os.O_CREATE|os.O_RDWR, 0o600)
	if err != nil {
		return nil, false, false, fmt.Errorf("open data directory lock: %w", err)
	}
	l = &dataLock{f: f, marker: filepath.Join(dir, "photoctl.running")}
	alone = syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB) == nil
	if alone {
		_, err := os.Stat(l.marker)
		unclean = err == nil
		if err != nil && !errors.Is(err, fs.ErrNotExist) {
			f.Close()
			return nil, false, false, fmt.Errorf("check run marker: %w", err)
		}
		if err := os.WriteFile(l.marker, nil, 0o600); err != nil {
			f.Close()
			return nil, false, false, fmt.Errorf("write run marker: %w", err)
		}
	}
	// Downgrade (or take) the shared lock: others may start beside us.
	if err := syscall.Flock(int(f.Fd()), syscall.LOCK_SH); err != nil {
		f.Close()
		return nil, false, false, fmt.Errorf("lock data directory: %w", err)
	}
	return l, alone, unclean, nil
}

// Close ends a clean run: the last process out removes the marker, then
// the lock is released.
func (l *dataLock) Close() error {
	if syscall.Flock(int(l.f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB) == nil {
		if err := os.Remove(l.marker); err != nil && !errors.Is(err, fs.ErrNotExist) {
			l.f.Close()
			return fmt.Errorf("remove run marker: %w", err)
		}
	}
	return l.f.Close()
}
