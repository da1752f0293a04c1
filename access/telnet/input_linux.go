//go:build linux

package telnet

import (
	"os"
	"sync"
	"syscall"
	"unsafe"
)

// nfdbits is the number of descriptors per word of syscall.FdSet, whose
// word size differs between architectures.
const nfdbits = 8 * int(unsafe.Sizeof(syscall.FdSet{}.Bits[0]))

// input reads the keyboard so that Session can stop the read when the
// session ends: it waits in select(2) on the terminal and on a pipe that
// stop closes. A plain read of a blocking stdin could not be interrupted
// and would swallow the first key typed after the session.
type input struct {
	f            *os.File
	fd           int
	wakeR, wakeW int
	stopOnce     sync.Once
}

func newInput(f *os.File) (*input, error) {
	var p [2]int
	if err := syscall.Pipe2(p[:], syscall.O_CLOEXEC); err != nil {
		return nil, os.NewSyscallError("pipe2", err)
	}
	in := &input{f: f, fd: -1, wakeR: p[0], wakeW: p[1]}
	if rc, err := f.SyscallConn(); err == nil {
		_ = rc.Control(func(fd uintptr) { in.fd = int(fd) })
	}
	return in, nil
}

func (in *input) Read(p []byte) (int, error) {
	if in.fd >= 0 && in.fd < syscall.FD_SETSIZE && in.wakeR < syscall.FD_SETSIZE {
		for {
			var set syscall.FdSet
			fdSet(&set, in.fd)
			fdSet(&set, in.wakeR)
			_, err := syscall.Select(max(in.fd, in.wakeR)+1, &set, nil, nil, nil)
			if err == syscall.EINTR { // SIGWINCH and friends
				continue
			}
			if err != nil {
				return 0, os.NewSyscallError("select", err)
			}
			if fdIsSet(&set, in.wakeR) {
				return 0, errStopped
			}
			if fdIsSet(&set, in.fd) {
				break
			}
		}
	}
	return in.f.Read(p)
}

// stop makes a pending or later Read return errStopped.
func (in *input) stop() {
	in.stopOnce.Do(func() { syscall.Close(in.wakeW) })
}

// close releases the pipe; the reader must have returned.
func (in *input) close() {
	in.stop()
	syscall.Close(in.wakeR)
}

func fdSet(s *syscall.FdSet, fd int) {
	s.Bits[fd/nfdbits] |= 1 << (uint(fd) % uint(nfdbits))
}

func fdIsSet(s *syscall.FdSet, fd int) bool {
	return s.Bits[fd/nfdbits]&(1<<(uint(fd)%uint(nfdbits))) != 0
}
