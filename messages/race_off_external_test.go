//go:build !race

package messages_test

const raceOn = false
