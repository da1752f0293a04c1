//go:build !linux

package testenv

import "time"

var wallStart = time.Now()

// ThreadCPU falls back to the wall clock where the thread's CPU clock is
// not read.
func ThreadCPU() time.Duration { return time.Since(wallStart) }
