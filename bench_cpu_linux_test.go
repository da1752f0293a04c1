package rfc1738

import (
	"syscall"
	"time"
	"unsafe"
)

// threadCPU returns the CPU time this thread has used
// (clock_gettime(CLOCK_THREAD_CPUTIME_ID)): unlike the wall clock, it does
// not count the time the thread waits for a core on a busy machine.
func threadCPU() time.Duration {
	const clockThreadCPUTimeID = 3
	var ts syscall.Timespec
	syscall.Syscall(syscall.SYS_CLOCK_GETTIME, clockThreadCPUTimeID, uintptr(unsafe.Pointer(&ts)), 0)
	return time.Duration(ts.Nano())
}
