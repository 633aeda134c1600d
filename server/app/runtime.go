package app

import (
	"os"
	"runtime/debug"
)

// RuntimeConfig tunes the Go runtime of a serve or worker process.
type RuntimeConfig struct {
	// GCPercent is the garbage collector's growth target (as GOGC): the
	// heap may grow this many percent over the live heap between
	// collections. A server's live heap is small and its garbage is
	// response-shaped, so collecting at 100% runs the collector every few
	// requests and its assists show in the latency tail; the default, 400,
	// trades a few tens of megabytes for that. -1 turns it off (then set
	// MemoryLimit).
	GCPercent int `koanf:"gc_percent"`
	// MemoryLimit is a soft limit on the runtime's memory in bytes (as
	// GOMEMLIMIT): near it the collector runs as often as it must, whatever
	// GCPercent says. 0 means none.
	MemoryLimit int64 `koanf:"memory_limit"`
}

// DefaultGCPercent is RuntimeConfig.GCPercent's default.
const DefaultGCPercent = 400

// ApplyRuntime sets the collector's target and memory limit of this
// process, each unless its environment variable (GOGC, GOMEMLIMIT) is set,
// which the runtime has already applied and which wins. It is for the
// serve and worker commands, which own their process; a library (a test
// starting a server) leaves the runtime alone.
func ApplyRuntime(c RuntimeConfig) {
	if _, set := os.LookupEnv("GOGC"); !set && c.GCPercent != 0 {
		debug.SetGCPercent(c.GCPercent)
	}
	if _, set := os.LookupEnv("GOMEMLIMIT"); !set && c.MemoryLimit > 0 {
		debug.SetMemoryLimit(c.MemoryLimit)
	}
}
