package main

import (
	"crypto/sha1"
	"crypto/sha256"
	"fmt"
	"os"
	"strconv"
	"strings"
	"syscall"
	"time"
)

// cpuSample is a reading of the CPU time spent so far: by the whole machine
// (busy and idle, from /proc/stat), by the server (from /proc/PID/stat)
// and by this driver (getrusage). Two samples bracket a phase.
type cpuSample struct {
	busy, idle     float64 // machine-wide seconds
	server, driver float64 // process seconds, user + system
}

// clockTicks is USER_HZ, the unit of /proc/stat and /proc/PID/stat; it is
// 100 on every Linux architecture Go supports.
const clockTicks = 100

func readCPU(pid int) cpuSample {
	var s cpuSample
	if b, err := os.ReadFile("/proc/stat"); err == nil {
		line, _, _ := strings.Cut(string(b), "\n")
		// cpu user nice system idle iowait irq softirq steal ...
		for i, f := range strings.Fields(line)[1:] {
			v, _ := strconv.ParseFloat(f, 64)
			if i == 3 || i == 4 { // idle, iowait
				s.idle += v / clockTicks
			} else if i < 8 { // guest time is already counted in user
				s.busy += v / clockTicks
			}
		}
	}
	if pid > 0 {
		if b, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid)); err == nil {
			// The command name may hold spaces: fields count from its ')'.
			if _, rest, ok := strings.Cut(string(b), ") "); ok {
				f := strings.Fields(rest) // f[11] utime, f[12] stime
				if len(f) > 12 {
					u, _ := strconv.ParseFloat(f[11], 64)
					st, _ := strconv.ParseFloat(f[12], 64)
					s.server = (u + st) / clockTicks
				}
			}
		}
	}
	var ru syscall.Rusage
	if syscall.Getrusage(syscall.RUSAGE_SELF, &ru) == nil {
		s.driver = float64(ru.Utime.Nano()+ru.Stime.Nano()) / 1e9
	}
	return s
}

// cpuUse is what a phase cost: the machine's busy share and the CPU
// seconds the server and the driver spent.
type cpuUse struct {
	busyShare, server, driver float64
}

func (s cpuSample) since(from cpuSample) cpuUse {
	busy, idle := s.busy-from.busy, s.idle-from.idle
	u := cpuUse{server: s.server - from.server, driver: s.driver - from.driver}
	if busy+idle > 0 {
		u.busyShare = busy / (busy + idle)
	}
	return u
}

func (u cpuUse) add(v cpuUse) cpuUse {
	return cpuUse{busyShare: u.busyShare + v.busyShare, server: u.server + v.server, driver: u.driver + v.driver}
}

// hashCost is the CPU milliseconds per MB that SHA-256 and SHA-1 (the
// checksums every upload gets) take on this machine, over data.
func hashCost(data []byte) float64 {
	h256, h1 := sha256.New(), sha1.New()
	const rounds = 20
	start := time.Now()
	for range rounds {
		h256.Write(data)
		h1.Write(data)
	}
	return float64(time.Since(start).Milliseconds()) / (float64(len(data)) * rounds / 1e6)
}
