//go:build !linux

package telnet

import (
	"errors"
	"fmt"
	"os"
	"runtime"
)

// Raw mode is implemented with the Linux ioctls only (term_linux.go);
// elsewhere Session says so instead of running a session half-working.

var (
	stopSignals   = []os.Signal{os.Interrupt}
	resizeSignals []os.Signal
)

func makeRaw(in, out *os.File) (func() error, error) {
	return nil, fmt.Errorf("telnet: interactive session on %s: %w", runtime.GOOS, errors.ErrUnsupported)
}

func windowSize(f *os.File) (int, int, error) {
	return 0, 0, fmt.Errorf("telnet: window size on %s: %w", runtime.GOOS, errors.ErrUnsupported)
}

type input struct{ f *os.File }

func newInput(f *os.File) (*input, error)    { return &input{f}, nil }
func (in *input) Read(p []byte) (int, error) { return in.f.Read(p) }
func (in *input) stop()                      {}
func (in *input) close()                     {}
