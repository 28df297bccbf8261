//go:build race

package telemetry_test

// raceOn: the race detector changes what allocates.
const raceOn = true
