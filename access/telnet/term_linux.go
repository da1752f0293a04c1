//go:build linux

package telnet

import (
	"errors"
	"fmt"
	"os"
	"syscall"

	"golang.org/x/term"
)

// The terminal part of Session: raw mode and the window size through
// golang.org/x/term (termios(3), tty_ioctl(4)), resizes through SIGWINCH.

var (
	stopSignals   = []os.Signal{syscall.SIGINT, syscall.SIGTERM, syscall.SIGHUP, syscall.SIGQUIT}
	resizeSignals = []os.Signal{syscall.SIGWINCH}
)

// withFd runs fn on f's descriptor without f.Fd(), which would switch the
// file to blocking mode behind the runtime poller's back.
func withFd(f *os.File, fn func(fd int) error) error {
	rc, err := f.SyscallConn()
	if err != nil {
		return err
	}
	var ferr error
	if err := rc.Control(func(fd uintptr) { ferr = fn(int(fd)) }); err != nil {
		return err
	}
	return ferr
}

// makeRaw checks that in and out are terminals, puts in into raw mode (as
// cfmakeraw(3) does, through golang.org/x/term) and returns the function
// that restores it.
func makeRaw(in, out *os.File) (restore func() error, err error) {
	isTerm := func(fd int) error {
		if !term.IsTerminal(fd) {
			return errors.New("not a terminal")
		}
		return nil
	}
	if err := withFd(in, isTerm); err != nil {
		return nil, fmt.Errorf("telnet: session: input %s: %w: %w", in.Name(), ErrNotTerminal, err)
	}
	if err := withFd(out, isTerm); err != nil {
		return nil, fmt.Errorf("telnet: session: output %s: %w: %w", out.Name(), ErrNotTerminal, err)
	}
	var old *term.State
	if err := withFd(in, func(fd int) (err error) { old, err = term.MakeRaw(fd); return err }); err != nil {
		return nil, fmt.Errorf("telnet: session: raw mode on %s: %w", in.Name(), err)
	}
	return func() error {
		if err := withFd(in, func(fd int) error { return term.Restore(fd, old) }); err != nil {
			return fmt.Errorf("telnet: session: restore terminal %s: %w", in.Name(), err)
		}
		return nil
	}, nil
}

// windowSize returns the terminal's columns and rows (TIOCGWINSZ).
func windowSize(f *os.File) (width, height int, err error) {
	err = withFd(f, func(fd int) (err error) { width, height, err = term.GetSize(fd); return err })
	return width, height, err
}
