package backup

import (
	"fmt"
	"os"

	"golang.org/x/sys/unix"
)

// treeSync says syncTree flushes a whole tree at once, so copies made
// syncAtCommit need no fsync of their own.
const treeSync = true

// syncTree makes everything written under dir durable: syncfs(2) flushes
// the file system holding dir, data and metadata, in one call, and reports
// a write-back error of any file on it.
func syncTree(dir string) error {
	d, err := os.Open(dir)
	if err != nil {
		return fmt.Errorf("sync %s: %w", dir, err)
	}
	defer d.Close()
	if err := unix.Syncfs(int(d.Fd())); err != nil {
		return fmt.Errorf("sync %s: %w", dir, err)
	}
	return nil
}
