// Package testserver starts real loopback daemons and scripted fakes for
// the project's tests.
//
// Every server listens on 127.0.0.1 only. A test that needs a daemon or a
// file that is not on the machine is skipped with a message saying what is
// missing, except when the environment variable CI is "true": there the
// missing piece is a failure, because CI installs everything.
package testserver

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/rfc1738/rfc1738/internal/testenv"
)

// InCI reports whether the tests run under CI, where nothing may be skipped
// for want of a daemon or a shared file.
func InCI() bool { return testenv.InCI() }

// Unavailable skips the test with the reason, or fails it under CI.
func Unavailable(t testing.TB, format string, args ...any) {
	t.Helper()
	testenv.Unavailable(t, format, args...)
}

// Need looks each program up (a bare name on PATH or an absolute path) and
// returns their paths in order; a missing one makes the test Unavailable.
func Need(t testing.TB, programs ...string) []string {
	t.Helper()
	paths := make([]string, len(programs))
	for i, p := range programs {
		path, err := exec.LookPath(p)
		if err != nil {
			Unavailable(t, "%s is not installed (.ci/run installs it with apt-get)", p)
			return nil
		}
		paths[i] = path
	}
	return paths
}

// NeedRoot makes the test Unavailable unless it runs as root; several
// daemons (vsftpd, telnetd, innd) only start as root.
func NeedRoot(t testing.TB) {
	t.Helper()
	if os.Geteuid() != 0 {
		Unavailable(t, "this test starts a daemon that must run as root")
	}
}

// ModuleRoot returns the folder that holds go.mod.
func ModuleRoot() string { return testenv.ModuleRoot() }

// SharedDir returns the shared/ folder beside the checkout (or the one named
// by RFC1738_SHARED).
func SharedDir() string { return testenv.SharedDir() }

// SharedFile returns the path of shared/rel, making the test Unavailable
// when it is not there.
func SharedFile(t testing.TB, rel string) string {
	t.Helper()
	return testenv.SharedFile(t, rel)
}

// ThreadCPU returns the CPU time the calling thread has used (see
// testenv.ThreadCPU).
func ThreadCPU() time.Duration { return testenv.ThreadCPU() }

// FreePort returns a TCP port on 127.0.0.1 that was free a moment ago.
func FreePort(t testing.TB) int {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatalf("free port: %v", err)
	}
	defer l.Close()
	return l.Addr().(*net.TCPAddr).Port
}

// WaitPort waits until addr accepts a TCP connection or the timeout passes.
func WaitPort(addr string, timeout time.Duration) error {
	deadline := time.Now().Add(timeout)
	for {
		c, err := net.DialTimeout("tcp", addr, 200*time.Millisecond)
		if err == nil {
			c.Close()
			return nil
		}
		if time.Now().After(deadline) {
			return fmt.Errorf("%s did not open within %v: %w", addr, timeout, err)
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// Daemon is a started server process.
type Daemon struct {
	Addr string    // host:port on 127.0.0.1
	Cmd  *exec.Cmd // the process; stopped by the test's cleanup
	Log  string    // file that collects the process's stdout and stderr
}

// Start runs cmd, waits for addr to accept connections and registers a
// cleanup that kills the process and waits for it. If the port does not
// open, the test fails with the tail of the process's output.
func Start(t testing.TB, name string, cmd *exec.Cmd, addr string) *Daemon {
	t.Helper()
	logPath := filepath.Join(t.TempDir(), name+".log")
	logf, err := os.Create(logPath)
	if err != nil {
		t.Fatal(err)
	}
	cmd.Stdout, cmd.Stderr = logf, logf
	if err := cmd.Start(); err != nil {
		logf.Close()
		t.Fatalf("start %s: %v", name, err)
	}
	exited := make(chan error, 1)
	go func() { exited <- cmd.Wait() }()
	t.Cleanup(func() {
		_ = cmd.Process.Kill()
		select {
		case <-exited:
		case <-time.After(5 * time.Second):
		}
		logf.Close()
	})
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	for {
		if c, err := net.DialTimeout("tcp", addr, 200*time.Millisecond); err == nil {
			c.Close()
			return &Daemon{Addr: addr, Cmd: cmd, Log: logPath}
		}
		select {
		case err := <-exited:
			exited <- err
			t.Fatalf("%s exited before %s opened (%v): %s", name, addr, err, tail(logPath))
		case <-ctx.Done():
			t.Fatalf("%s: %s did not open within 10s: %s", name, addr, tail(logPath))
		case <-time.After(50 * time.Millisecond):
		}
	}
}

func tail(path string) string {
	b, err := os.ReadFile(path)
	if err != nil {
		return err.Error()
	}
	s := strings.TrimSpace(string(b))
	if len(s) > 2000 {
		s = "…" + s[len(s)-2000:]
	}
	if s == "" {
		return "(no output)"
	}
	return s
}

// Elide keeps the first head and the last tail of lines and says how many
// it left out, so that a test's log of a long exchange (a big group's
// listing, say) stays readable.
func Elide(lines []string, head, tail int) []string {
	if len(lines) <= head+tail+1 {
		return lines
	}
	out := slices.Clip(lines[:head])
	out = append(out, fmt.Sprintf("  … %d lines …", len(lines)-head-tail))
	return append(out, lines[len(lines)-tail:]...)
}

// ErrDiskFull is the error of a FailAfter writer.
var ErrDiskFull = errors.New("disk full")

// FailAfter is a writer that fails as a full disk would: it takes N bytes
// through ReadFrom (an io.ReaderFrom, so a body can hand it its
// connection) and then returns ErrDiskFull; Write always fails.
type FailAfter struct{ N int64 }

func (w *FailAfter) Write(p []byte) (int, error) { return 0, ErrDiskFull }

// ReadFrom takes what is left of N from r, then fails.
func (w *FailAfter) ReadFrom(r io.Reader) (int64, error) {
	n, err := io.Copy(io.Discard, io.LimitReader(r, w.N))
	w.N -= n
	if err == nil && w.N == 0 {
		err = ErrDiskFull
	}
	return n, err
}

// CPUThroughput reports a benchmark's bytes per second of CPU (see
// testenv.CPUThroughput).
func CPUThroughput(b *testing.B, bytesPerOp int64) (stop func()) {
	return testenv.CPUThroughput(b, bytesPerOp)
}
