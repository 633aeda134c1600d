package exif

import (
	"os"
	"testing"
)

// skipPureUnderRace skips, under -race, a test whose subject is a
// computation (no goroutines of its own; what concurrent code it calls
// runs under -race in other tests) when PHOTOCTL_PURE_WITHOUT_RACE is set:
// `make test` sets it for its -race run after running these tests without
// -race (its PURE_RUN), as it runs COMPUTE_PKGS. The race detector has
// nothing to find in them and multiplies their time by 5 to 20; without
// the variable (a plain go test -race) they run.
func skipPureUnderRace(t *testing.T) {
	t.Helper()
	if raceDetector && os.Getenv("PHOTOCTL_PURE_WITHOUT_RACE") != "" {
		t.Skip("pure computation: make test ran it without -race (PURE_RUN)")
	}
}
