//go:build !race

package rfc1738

const raceEnabled = false
