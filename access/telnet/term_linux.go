//go:build linux

package telnet

import (
	"fmt"
	"os"
	"syscall"
	"unsafe"
)

// The terminal part of Session, with the Linux ioctls of termios(3) and
// tty_ioctl(4): TCGETS/TCSETS for the attributes, TIOCGWINSZ for the size.

var (
	stopSignals   = []os.Signal{syscall.SIGINT, syscall.SIGTERM, syscall.SIGHUP, syscall.SIGQUIT}
	resizeSignals = []os.Signal{syscall.SIGWINCH}
)

func ioctl(f *os.File, req uintptr, arg unsafe.Pointer) error {
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

// makeRaw checks that in and out are terminals, puts in into raw mode as
// cfmakeraw(3) does, and returns the function that restores it.
func makeRaw(in, out *os.File) (restore func() error, err error) {
	var old, probe syscall.Termios
	if err := ioctl(in, syscall.TCGETS, unsafe.Pointer(&old)); err != nil {
		return nil, fmt.Errorf("telnet: session: input %s: %w: %w", in.Name(), ErrNotTerminal, err)
	}
	if err := ioctl(out, syscall.TCGETS, unsafe.Pointer(&probe)); err != nil {
		return nil, fmt.Errorf("telnet: session: output %s: %w: %w", out.Name(), ErrNotTerminal, err)
	}
	raw := old
	raw.Iflag &^= syscall.IGNBRK | syscall.BRKINT | syscall.PARMRK | syscall.ISTRIP |
		syscall.INLCR | syscall.IGNCR | syscall.ICRNL | syscall.IXON
	raw.Oflag &^= syscall.OPOST
	raw.Lflag &^= syscall.ECHO | syscall.ECHONL | syscall.ICANON | syscall.ISIG | syscall.IEXTEN
	raw.Cflag &^= syscall.CSIZE | syscall.PARENB
	raw.Cflag |= syscall.CS8
	raw.Cc[syscall.VMIN] = 1
	raw.Cc[syscall.VTIME] = 0
	if err := ioctl(in, syscall.TCSETS, unsafe.Pointer(&raw)); err != nil {
		return nil, fmt.Errorf("telnet: session: raw mode on %s: %w", in.Name(), err)
	}
	return func() error {
		if err := ioctl(in, syscall.TCSETS, unsafe.Pointer(&old)); err != nil {
			return fmt.Errorf("telnet: session: restore terminal %s: %w", in.Name(), err)
		}
		return nil
	}, nil
}

// windowSize returns the terminal's columns and rows (TIOCGWINSZ).
func windowSize(f *os.File) (width, height int, err error) {
	var ws struct{ Row, Col, Xpixel, Ypixel uint16 }
	if err := ioctl(f, syscall.TIOCGWINSZ, unsafe.Pointer(&ws)); err != nil {
		return 0, 0, err
	}
	return int(ws.Col), int(ws.Row), nil
}
