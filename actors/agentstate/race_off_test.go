//go:build !race

package agentstate

const raceOn = false
