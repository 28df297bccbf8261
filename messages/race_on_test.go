//go:build race

package messages

// raceOn: the race detector changes what allocates.
const raceOn = true
