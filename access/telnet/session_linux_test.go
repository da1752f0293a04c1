//go:build linux

package telnet

import (
	"context"
	"errors"
	"net"
	"os"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/rfc1738/rfc1738/internal/testserver"
)

// waitTrace waits until the transcript has line.
func waitTrace(t *testing.T, tr *transcript, line string) {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for !tr.has(line) {
		if time.Now().After(deadline) {
			t.Fatalf("trace never had %q:\n%s", line, tr)
		}
		time.Sleep(10 * time.Millisecond)
	}
}

func waitRaw(t *testing.T, f *os.File) {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for testserver.Termios(t, f).Lflag&syscall.ICANON != 0 {
		if time.Now().After(deadline) {
			t.Fatal("the terminal never went raw")
		}
		time.Sleep(5 * time.Millisecond)
	}
}

type sessionRun struct {
	master, slave *os.File
	screen        *testserver.Screen
	tr            *transcript
	before        syscall.Termios
	cancel        context.CancelFunc
	done          chan error
}

// startSession runs Session against a real telnetd with script, on a fresh
// pseudo-terminal of 100x30.
func startSession(t *testing.T, script string) *sessionRun {
	t.Helper()
	d := testserver.Telnetd(t, script)
	master, slave := testserver.OpenPTY(t, 80, 24)
	testserver.SetWinsize(t, slave, 100, 30)
	r := &sessionRun{master: master, slave: slave, tr: &transcript{}, done: make(chan error, 1)}
	r.before = testserver.Termios(t, slave)
	r.screen = testserver.WatchScreen(master)
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	r.cancel = cancel
	t.Cleanup(cancel)
	conn, err := Dial(ctx, d.Addr, Config{Trace: r.tr.trace, TerminalType: "xterm"})
	if err != nil {
		t.Fatal(err)
	}
	go func() { r.done <- Session(ctx, conn, slave, slave) }()
	return r
}

func (r *sessionRun) wait(t *testing.T) error {
	t.Helper()
	select {
	case err := <-r.done:
		return err
	case <-time.After(15 * time.Second):
		t.Fatalf("Session did not return; screen %q", r.screen)
		return nil
	}
}

func (r *sessionRun) checkRestored(t *testing.T) {
	t.Helper()
	if after := testserver.Termios(t, r.slave); after != r.before {
		t.Errorf("terminal attributes not restored:\nbefore %+v\nafter  %+v", r.before, after)
	}
}

// TestSessionPTY drives Session through a pseudo-terminal against the real
// telnetd: raw mode while it runs, the window size from TIOCGWINSZ and
// again after SIGWINCH (RFC 1073), keys to the server, output to the
// screen, a clean end when the server closes, the attributes restored.
func TestSessionPTY(t *testing.T) {
	r := startSession(t, sessionScript)
	r.screen.WaitFor(t, "say something: ")
	waitRaw(t, r.slave)
	raw := testserver.Termios(t, r.slave)
	if raw.Lflag&(syscall.ECHO|syscall.ICANON|syscall.ISIG) != 0 || raw.Iflag&syscall.ICRNL != 0 || raw.Oflag&syscall.OPOST != 0 {
		t.Errorf("terminal not raw during the session: %+v", raw)
	}

	// A resize: the kernel would signal the terminal's foreground process;
	// the test is not in that session, so it signals itself.
	testserver.SetWinsize(t, r.slave, 120, 40)
	if err := syscall.Kill(os.Getpid(), syscall.SIGWINCH); err != nil {
		t.Fatal(err)
	}
	waitTrace(t, r.tr, "> SB NAWS 120 40")

	// Enter in raw mode is a bare CR; it goes out as CR NUL.
	if _, err := r.master.Write([]byte("ping\r")); err != nil {
		t.Fatal(err)
	}
	r.screen.WaitFor(t, "SIZE=40 120")
	if err := r.wait(t); err != nil {
		t.Errorf("Session = %v, want nil when the server closes", err)
	}
	r.checkRestored(t)
	t.Logf("negotiation:\n%s\nscreen:\n%s", r.tr, r.screen)
	for _, want := range []string{
		"HELLO FROM TELNETD args=[]\r\n",
		"TERM=xterm\r\n",
		"say something: ping\r\n", // echoed by the server, not by us
		"you said: ping\r\n",
		"SIZE=40 120\r\n",
	} {
		if !strings.Contains(r.screen.String(), want) {
			t.Errorf("screen lacks %q: %q", want, r.screen)
		}
	}
}

const waitScript = `echo ready
read line
`

// TestSessionCancel: ctx ends the session; the terminal is restored.
func TestSessionCancel(t *testing.T) {
	r := startSession(t, waitScript)
	r.screen.WaitFor(t, "ready")
	waitRaw(t, r.slave)
	r.cancel()
	if err := r.wait(t); !errors.Is(err, context.Canceled) {
		t.Errorf("Session = %v, want context.Canceled", err)
	}
	r.checkRestored(t)
}

// TestSessionSignal: SIGTERM while in raw mode ends the session instead of
// the process, and the terminal is restored.
func TestSessionSignal(t *testing.T) {
	r := startSession(t, waitScript)
	r.screen.WaitFor(t, "ready")
	waitRaw(t, r.slave) // Session catches the signals before it goes raw
	if err := syscall.Kill(os.Getpid(), syscall.SIGTERM); err != nil {
		t.Fatal(err)
	}
	err := r.wait(t)
	if err == nil || !strings.Contains(err.Error(), "terminated") {
		t.Errorf("Session = %v, want an error naming the signal", err)
	}
	r.checkRestored(t)
}

// TestSessionNotTerminal: without a terminal Session refuses to start.
func TestSessionNotTerminal(t *testing.T) {
	pr, pw, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	defer pr.Close()
	defer pw.Close()
	_, slave := testserver.OpenPTY(t, 80, 24)
	for _, tt := range []struct {
		name          string
		stdin, stdout *os.File
	}{
		{"pipe in", pr, slave},
		{"pipe out", slave, pw},
	} {
		c1, c2 := net.Pipe()
		before := testserver.Termios(t, slave)
		err := Session(context.Background(), newConn(c1, Config{}), tt.stdin, tt.stdout)
		if !errors.Is(err, ErrNotTerminal) {
			t.Errorf("%s: Session = %v, want ErrNotTerminal", tt.name, err)
		}
		if _, werr := c2.Write([]byte("x")); werr == nil {
			t.Errorf("%s: Session left the connection open", tt.name)
		}
		if after := testserver.Termios(t, slave); after != before {
			t.Errorf("%s: terminal changed", tt.name)
		}
		c2.Close()
	}
}
