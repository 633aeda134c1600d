//go:build !linux || !cgo

package variant

// tuneMalloc does nothing outside glibc's Linux.
func tuneMalloc() bool { return false }
