//go:build race

package actors

// raceOn: the race detector changes what allocates.
const raceOn = true
