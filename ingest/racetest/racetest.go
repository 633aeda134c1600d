// Package racetest lets a test of pure computation skip its -race run:
// `make test` runs such tests without -race first (its PURE_RUN), then
// sets PHOTOCTL_PURE_WITHOUT_RACE for its -race run. Only tests import it.
package racetest

import (
	"os"
	"testing"
)

// SkipPure skips, under -race, a test whose subject is a computation (no
// goroutines of its own; what concurrent code it calls runs under -race in
// other tests) when PHOTOCTL_PURE_WITHOUT_RACE is set. The race detector
// has nothing to find in such a test and multiplies its time by 5 to 20;
// without the variable (a plain go test -race) it runs.
func SkipPure(t testing.TB) {
	t.Helper()
	if Enabled && os.Getenv("PHOTOCTL_PURE_WITHOUT_RACE") != "" {
		t.Skip("pure computation: make test ran it without -race (PURE_RUN)")
	}
}
