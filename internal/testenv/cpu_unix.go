//go:build unix

package testenv

import (
	"syscall"
	"testing"
	"time"
)

// cpuTime returns the user and system CPU time this process has used.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	if syscall.Getrusage(syscall.RUSAGE_SELF, &ru) != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// CPUThroughput starts measuring the CPU time of a benchmark loop over
// bytesPerOp bytes an operation; the function it returns, called after
// the loop, reports "MB/cpu-s": the bytes scanned per second of CPU the
// process used. On a shared machine this figure is what a wall-clock
// MB/s would be on an idle core (other processes' load inflates the
// wall clock, not the process's own CPU time).
func CPUThroughput(b *testing.B, bytesPerOp int64) (stop func()) {
	start := cpuTime()
	return func() {
		if d := cpuTime() - start; d > 0 && b.N > 0 {
			b.ReportMetric(float64(bytesPerOp)*float64(b.N)/d.Seconds()/1e6, "MB/cpu-s")
		}
	}
}
