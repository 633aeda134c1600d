//go:build !unix

package cmdutil

// lockFile is a no-op where flock does not exist: concurrent photoctl
// processes may then race on the credentials file.
func lockFile(string) (func(), error) { return func() {}, nil }
