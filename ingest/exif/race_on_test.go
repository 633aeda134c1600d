//go:build race

package exif

// raceDetector reports whether the test binary runs under -race.
const raceDetector = true
