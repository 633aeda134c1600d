//go:build !race

package people

// raceDetector reports whether the test binary runs under -race.
const raceDetector = false
