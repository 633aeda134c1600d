//go:build !linux

package backup

// treeSync says syncTree flushes a whole tree at once; without syncfs(2)
// it does not, and copyFile fsyncs every copy instead.
const treeSync = false

// syncTree has nothing left to do: every copy was fsynced as it was made.
func syncTree(string) error { return nil }
