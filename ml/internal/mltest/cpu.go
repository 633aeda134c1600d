package mltest

import (
	"syscall"
	"time"
)

// CPUTime is the CPU time (user + system) the process has used so far,
// on all its threads. Benchmarks divide work by it to report throughput
// per core, which holds on a machine busy with other work, where wall time
// does not.
func CPUTime() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
