//go:build !race

package messages

const raceOn = false
