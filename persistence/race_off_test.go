//go:build !race

package persistence

const raceOn = false
