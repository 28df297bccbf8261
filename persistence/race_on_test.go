//go:build race

package persistence

// raceOn: the race detector changes what allocates.
const raceOn = true
