//go:build race

package messages_test

// raceOn: the race detector changes what allocates.
const raceOn = true
