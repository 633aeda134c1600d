//go:build !race

package racetest

// Enabled reports whether the binary runs under -race.
const Enabled = false
