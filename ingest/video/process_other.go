//go:build !unix

package video

import "os/exec"

// killProcessGroup leaves exec.CommandContext's default, killing the one
// process, where process groups do not exist; waitDelay still bounds Wait.
func killProcessGroup(*exec.Cmd) {}
