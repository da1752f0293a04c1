//go:build linux

package main

import (
	"bytes"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/rfc1738/rfc1738/internal/testserver"
)

// lockedBuffer is a bytes.Buffer for a command's stderr, read while the
// command runs.
type lockedBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (l *lockedBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

func (l *lockedBuffer) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}

// TestGetTelnetTerminal: rfc1738 get -v telnet://… with a pseudo-terminal
// as stdin and stdout, against the real telnetd: the advice on the
// terminal, then the session; the negotiation on stderr.
func TestGetTelnetTerminal(t *testing.T) {
	d := testserver.Telnetd(t, `echo "HELLO FROM TELNETD"
printf 'your name: '
read line
echo "hello, $line"
`)
	master, slave := testserver.OpenPTY(t, 80, 24)
	screen := testserver.WatchScreen(master)
	var stderr lockedBuffer
	done := make(chan int, 1)
	go func() {
		done <- run([]string{"get", "-v", "telnet://guest@" + d.Addr + "/"},
			&env{stdin: slave, stdout: slave, stderr: &stderr, getenv: func(string) string { return "" }})
	}()
	screen.WaitFor(t, "your name: ")
	if _, err := master.Write([]byte("ada\r")); err != nil {
		t.Fatal(err)
	}
	select {
	case status := <-done:
		if status != 0 {
			t.Fatalf("status %d: %s", status, stderr.String())
		}
	case <-time.After(15 * time.Second):
		t.Fatalf("get did not end; screen %q", screen)
	}
	screen.WaitFor(t, "hello, ada\r\n")
	t.Logf("screen:\n%s\nstderr:\n%s", screen, stderr.String())
	want := "telnet " + d.Addr + `: log in as user "guest"` + "\r\nHELLO FROM TELNETD\r\nyour name: ada\r\nhello, ada\r\n"
	if screen.String() != want {
		t.Errorf("screen %q, want %q", screen, want)
	}
	if !strings.Contains(stderr.String(), "> DO ECHO") || !strings.Contains(stderr.String(), "> SB NAWS 80 24") {
		t.Errorf("stderr lacks the negotiation: %s", stderr.String())
	}
}

// TestGetTelnetTraceOnTerminal: with -v and stderr on the terminal of the
// session, the negotiation lines end in "\r\n", so that they start at the
// left margin while the session holds the terminal in raw mode.
func TestGetTelnetTraceOnTerminal(t *testing.T) {
	d := testserver.Telnetd(t, `echo "HELLO FROM TELNETD"`)
	master, slave := testserver.OpenPTY(t, 80, 24)
	screen := testserver.WatchScreen(master)
	done := make(chan int, 1)
	go func() {
		done <- run([]string{"get", "-v", "telnet://guest@" + d.Addr + "/"},
			&env{stdin: slave, stdout: slave, stderr: slave, getenv: func(string) string { return "" }})
	}()
	select {
	case status := <-done:
		if status != 0 {
			t.Fatalf("status %d; screen %q", status, screen)
		}
	case <-time.After(15 * time.Second):
		t.Fatalf("get did not end; screen %q", screen)
	}
	screen.WaitFor(t, "HELLO FROM TELNETD\r\n")
	s := screen.String()
	t.Logf("screen:\n%s", s)
	if !strings.Contains(s, "> DO ECHO\r") {
		t.Errorf("the screen lacks the negotiation: %q", s)
	}
	for i := strings.IndexByte(s, '\n'); i >= 0; i = strings.IndexByte(s, '\n') {
		if i == 0 || s[i-1] != '\r' {
			t.Errorf("a line ends in a bare \"\\n\": %q", s[max(0, i-40):i+1])
			break
		}
		s = s[i+1:]
	}
}
