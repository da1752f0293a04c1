//go:build linux

package telnet

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"net"
	"os"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"
	"unsafe"

	"github.com/rfc1738/rfc1738/internal/testserver"
)

// openPTY opens a pseudo-terminal pair with the stdlib alone:
// posix_openpt is open("/dev/ptmx"), unlockpt is TIOCSPTLCK 0, ptsname is
// TIOCGPTN (pts(4)). O_NOCTTY keeps it from becoming our controlling tty.
func openPTY(t *testing.T) (master, slave *os.File) {
	t.Helper()
	m, err := os.OpenFile("/dev/ptmx", os.O_RDWR|syscall.O_NOCTTY, 0)
	if err != nil {
		testserver.Unavailable(t, "no pseudo-terminals: %v", err)
		return nil, nil
	}
	var unlock int32
	if err := ioctl(m, syscall.TIOCSPTLCK, unsafe.Pointer(&unlock)); err != nil {
		m.Close()
		t.Fatalf("unlockpt: %v", err)
	}
	var n uint32
	if err := ioctl(m, syscall.TIOCGPTN, unsafe.Pointer(&n)); err != nil {
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
	return m, s
}

func termios(t *testing.T, f *os.File) syscall.Termios {
	t.Helper()
	var tio syscall.Termios
	if err := ioctl(f, syscall.TCGETS, unsafe.Pointer(&tio)); err != nil {
		t.Fatalf("TCGETS: %v", err)
	}
	return tio
}

func setSize(t *testing.T, f *os.File, cols, rows uint16) {
	t.Helper()
	ws := struct{ Row, Col, X, Y uint16 }{Row: rows, Col: cols}
	if err := ioctl(f, syscall.TIOCSWINSZ, unsafe.Pointer(&ws)); err != nil {
		t.Fatalf("TIOCSWINSZ: %v", err)
	}
}

// screen collects what Session writes to the terminal, read on the master
// side as a terminal emulator would.
type screen struct {
	mu   sync.Mutex
	buf  bytes.Buffer
	more chan struct{}
}

func watchScreen(master *os.File) *screen {
	sc := &screen{more: make(chan struct{}, 1)}
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

func (sc *screen) String() string {
	sc.mu.Lock()
	defer sc.mu.Unlock()
	return sc.buf.String()
}

func (sc *screen) waitFor(t *testing.T, want string) {
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
	for termios(t, f).Lflag&syscall.ICANON != 0 {
		if time.Now().After(deadline) {
			t.Fatal("the terminal never went raw")
		}
		time.Sleep(5 * time.Millisecond)
	}
}

type sessionRun struct {
	master, slave *os.File
	screen        *screen
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
	master, slave := openPTY(t)
	setSize(t, slave, 100, 30)
	r := &sessionRun{master: master, slave: slave, tr: &transcript{}, done: make(chan error, 1)}
	r.before = termios(t, slave)
	r.screen = watchScreen(master)
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
	if after := termios(t, r.slave); after != r.before {
		t.Errorf("terminal attributes not restored:\nbefore %+v\nafter  %+v", r.before, after)
	}
}

// TestSessionPTY drives Session through a pseudo-terminal against the real
// telnetd: raw mode while it runs, the window size from TIOCGWINSZ and
// again after SIGWINCH (RFC 1073), keys to the server, output to the
// screen, a clean end when the server closes, the attributes restored.
func TestSessionPTY(t *testing.T) {
	r := startSession(t, sessionScript)
	r.screen.waitFor(t, "say something: ")
	waitRaw(t, r.slave)
	raw := termios(t, r.slave)
	if raw.Lflag&(syscall.ECHO|syscall.ICANON|syscall.ISIG) != 0 || raw.Iflag&syscall.ICRNL != 0 || raw.Oflag&syscall.OPOST != 0 {
		t.Errorf("terminal not raw during the session: %+v", raw)
	}

	// A resize: the kernel would signal the terminal's foreground process;
	// the test is not in that session, so it signals itself.
	setSize(t, r.slave, 120, 40)
	if err := syscall.Kill(os.Getpid(), syscall.SIGWINCH); err != nil {
		t.Fatal(err)
	}
	waitTrace(t, r.tr, "> SB NAWS 120 40")

	// Enter in raw mode is a bare CR; it goes out as CR NUL.
	if _, err := r.master.Write([]byte("ping\r")); err != nil {
		t.Fatal(err)
	}
	r.screen.waitFor(t, "SIZE=40 120")
	if err := r.wait(t); err != nil {
		t.Errorf("Session = %v, want nil when the server closes", err)
	}
	r.checkRestored(t)
	t.Logf("negotiation:\n%s\nscreen:\n%s", r.tr, r.screen)
	for _, want := range []string{
		"HELLO FROM TELNETD args=[]\r\n",
		"TERM=xterm SIZE=30 100\r\n",
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
	r.screen.waitFor(t, "ready")
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
	r.screen.waitFor(t, "ready")
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
	_, slave := openPTY(t)
	for _, tt := range []struct {
		name          string
		stdin, stdout *os.File
	}{
		{"pipe in", pr, slave},
		{"pipe out", slave, pw},
	} {
		c1, c2 := net.Pipe()
		before := termios(t, slave)
		err := Session(context.Background(), newConn(c1, Config{}), tt.stdin, tt.stdout)
		if !errors.Is(err, ErrNotTerminal) {
			t.Errorf("%s: Session = %v, want ErrNotTerminal", tt.name, err)
		}
		if _, werr := c2.Write([]byte("x")); werr == nil {
			t.Errorf("%s: Session left the connection open", tt.name)
		}
		if after := termios(t, slave); after != before {
			t.Errorf("%s: terminal changed", tt.name)
		}
		c2.Close()
	}
}
