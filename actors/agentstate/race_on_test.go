//go:build race

package agentstate

// raceOn: the race detector changes what allocates.
const raceOn = true
