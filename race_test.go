//go:build race

package rfc1738

// raceEnabled: the race detector makes sync.Pool drop some of what is
// put in it, so a test of pooled storage asks less of it.
const raceEnabled = true
