//go:build !race

package mailbox

const raceOn = false
