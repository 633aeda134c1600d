package main

import (
	"fmt"
	"os"
	"strconv"
	"strings"
)

// rssMeter reports the server's peak resident set size phase by phase: it
// reads VmHWM from /proc/PID/status and resets it to the current RSS
// (Linux 4.0 and later) for the next phase. Without a PID it does nothing.
type rssMeter struct{ pid int }

// peak prints the peak RSS since the previous call, with a verdict when
// limit is positive, and starts a new phase.
func (m *rssMeter) peak(label string, limit int64) {
	if m.pid <= 0 {
		return
	}
	hwm, err := procStatus(m.pid, "VmHWM")
	if err != nil {
		fmt.Printf("%s: %v\n", label, err)
		return
	}
	verdict := ""
	if limit > 0 {
		verdict = fmt.Sprintf(" (target < %s) ok", mb(limit))
		if hwm >= limit {
			verdict = fmt.Sprintf(" (target < %s) MISSED", mb(limit))
		}
	}
	fmt.Printf("%s (VmHWM): %s%s\n", label, mb(hwm), verdict)
	if err := os.WriteFile(fmt.Sprintf("/proc/%d/clear_refs", m.pid), []byte("5"), 0); err != nil {
		fmt.Printf("could not reset the peak RSS (%v): later figures are peaks since the start\n", err)
	}
}

// procStatus reads a kB field (VmRSS, VmHWM) of /proc/PID/status in bytes.
func procStatus(pid int, field string) (int64, error) {
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/status", pid))
	if err != nil {
		return 0, err
	}
	for _, line := range strings.Split(string(b), "\n") {
		if v, ok := strings.CutPrefix(line, field+":"); ok {
			kb, err := strconv.ParseInt(strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(v), "kB")), 10, 64)
			return kb << 10, err
		}
	}
	return 0, fmt.Errorf("no %s in /proc/%d/status", field, pid)
}
