package testenv

import (
	"syscall"
	"time"
	"unsafe"
)

// ThreadCPU returns the CPU time the calling thread has used
// (clock_gettime(CLOCK_THREAD_CPUTIME_ID)): unlike the wall clock, it does
// not count the time the thread waits for a core on a busy machine. A
// benchmark that compares two loops by it locks its goroutine to the
// thread (runtime.LockOSThread).
func ThreadCPU() time.Duration {
	const clockThreadCPUTimeID = 3
	var ts syscall.Timespec
	syscall.Syscall(syscall.SYS_CLOCK_GETTIME, clockThreadCPUTimeID, uintptr(unsafe.Pointer(&ts)), 0)
	return time.Duration(ts.Nano())
}
