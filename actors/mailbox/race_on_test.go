//go:build race

package mailbox

// raceOn: the race detector changes what allocates.
const raceOn = true
