//go:build linux

package testserver

import (
	"bytes"
	"fmt"
	"os"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"
	"unsafe"
)

// OpenPTY opens a pseudo-terminal pair with the standard library alone
// (pts(4)): posix_openpt is open("/dev/ptmx"), unlockpt is TIOCSPTLCK 0,
// ptsname is TIOCGPTN. O_NOCTTY keeps it from becoming the test's
// controlling terminal. The slave gets a size of cols x rows; both ends
// are closed on cleanup. Without pseudo-terminals the test is Unavailable.
func OpenPTY(t testing.TB, cols, rows uint16) (master, slave *os.File) {
	t.Helper()
	m, err := os.OpenFile("/dev/ptmx", os.O_RDWR|syscall.O_NOCTTY, 0)
	if err != nil {
		Unavailable(t, "no pseudo-terminals: %v", err)
		return nil, nil
	}
	var unlock int32
	if err := ptyIoctl(m, syscall.TIOCSPTLCK, unsafe.Pointer(&unlock)); err != nil {
		m.Close()
		t.Fatalf("unlockpt: %v", err)
	}
	var n uint32
	if err := ptyIoctl(m, syscall.TIOCGPTN, unsafe.Pointer(&n)); err != nil {
		m.Close()
		t.Fatalf("ptsname: %v", err)
	}
	s, err := os.OpenFile(fmt.Sprintf("/dev/pts/%d", n), os.O_RDWR|syscall.O_NOCTTY, 0)
	if err != nil {
		m.Close()
		t.Fatalf("open pts: %v", err)
	}
	t.Cleanup(func() {
		s.Close()
		m.Close()
	})
	SetWinsize(t, s, cols, rows)
	return m, s
}

// SetWinsize sets the window size of the terminal f (TIOCSWINSZ); the
// process in the foreground gets SIGWINCH.
func SetWinsize(t testing.TB, f *os.File, cols, rows uint16) {
	t.Helper()
	ws := struct{ Row, Col, X, Y uint16 }{Row: rows, Col: cols}
	if err := ptyIoctl(f, syscall.TIOCSWINSZ, unsafe.Pointer(&ws)); err != nil {
		t.Fatalf("TIOCSWINSZ: %v", err)
	}
}

// Termios returns the terminal attributes of f (TCGETS).
func Termios(t testing.TB, f *os.File) syscall.Termios {
	t.Helper()
	var tio syscall.Termios
	if err := ptyIoctl(f, syscall.TCGETS, unsafe.Pointer(&tio)); err != nil {
		t.Fatalf("TCGETS: %v", err)
	}
	return tio
}

func ptyIoctl(f *os.File, req uintptr, arg unsafe.Pointer) error {
	rc, err := f.SyscallConn()
	if err != nil {
		return err
	}
	var errno syscall.Errno
	if err := rc.Control(func(fd uintptr) {
		_, _, errno = syscall.Syscall(syscall.SYS_IOCTL, fd, req, uintptr(arg))
	}); err != nil {
		return err
	}
	if errno != 0 {
		return errno
	}
	return nil
}

// Screen collects what is written to a pseudo-terminal, read on the master
// side as a terminal emulator would.
type Screen struct {
	mu   sync.Mutex
	buf  bytes.Buffer
	more chan struct{}
}

// WatchScreen reads master until it fails (it is closed on cleanup).
func WatchScreen(master *os.File) *Screen {
	sc := &Screen{more: make(chan struct{}, 1)}
	go func() {
		b := make([]byte, 1024)
		for {
			n, err := master.Read(b)
			sc.mu.Lock()
			sc.buf.Write(b[:n])
			sc.mu.Unlock()
			select {
			case sc.more <- struct{}{}:
			default:
			}
			if err != nil {
				return
			}
		}
	}()
	return sc
}

// String returns everything the screen has shown so far.
func (sc *Screen) String() string {
	sc.mu.Lock()
	defer sc.mu.Unlock()
	return sc.buf.String()
}

// WaitFor waits up to 10 seconds for the screen to show want.
func (sc *Screen) WaitFor(t testing.TB, want string) {
	t.Helper()
	deadline := time.After(10 * time.Second)
	for !strings.Contains(sc.String(), want) {
		select {
		case <-sc.more:
		case <-deadline:
			t.Fatalf("screen never showed %q; it shows %q", want, sc.String())
		}
	}
}
