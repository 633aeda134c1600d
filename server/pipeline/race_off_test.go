//go:build !race

package pipeline_test

// raceDetector reports whether the test binary runs under -race.
const raceDetector = false
