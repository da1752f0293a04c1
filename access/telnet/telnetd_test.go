//go:build linux

package telnet

import (
	"bytes"
	"context"
	"io"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/rfc1738/rfc1738/internal/testserver"
)

// sessionScript is the deterministic session of loopback-servers.md §5,
// run by telnetd -E on its pseudo-terminal instead of /bin/login.
// The size is printed after the read: telnetd may start the program
// before it has applied the client's NAWS, but not before TTYPE.
const sessionScript = `echo "HELLO FROM TELNETD args=[$*]"
echo "TERM=$TERM"
printf 'say something: '
read line
echo "you said: $line"
echo "SIZE=$(stty size)"
`

// transcript collects the Trace lines and the data of one connection, for
// the test log: the exchange with the real daemon, in order.
type transcript struct {
	mu    sync.Mutex
	lines []string
	data  bytes.Buffer
}

func (tr *transcript) trace(dir byte, line string) {
	tr.mu.Lock()
	defer tr.mu.Unlock()
	tr.lines = append(tr.lines, string(dir)+" "+line)
}

func (tr *transcript) note(dir byte, data []byte) {
	tr.mu.Lock()
	defer tr.mu.Unlock()
	for _, l := range strings.SplitAfter(string(data), "\n") {
		if l != "" {
			tr.lines = append(tr.lines, string(dir)+" data "+strconvQuote(l))
		}
	}
}

func (tr *transcript) String() string {
	tr.mu.Lock()
	defer tr.mu.Unlock()
	return strings.Join(tr.lines, "\n")
}

func (tr *transcript) has(line string) bool {
	tr.mu.Lock()
	defer tr.mu.Unlock()
	for _, l := range tr.lines {
		if l == line {
			return true
		}
	}
	return false
}

// expect reads from c until the data read so far contains want, and
// returns all of it.
func expect(t *testing.T, c *Conn, tr *transcript, got *bytes.Buffer, want string) string {
	t.Helper()
	buf := make([]byte, 512)
	for !strings.Contains(got.String(), want) {
		n, err := c.Read(buf)
		got.Write(buf[:n])
		tr.note('<', buf[:n])
		if err != nil {
			t.Fatalf("waiting for %q: %v; got %q\ntranscript:\n%s", want, err, got.String(), tr)
		}
	}
	return got.String()
}

func send(t *testing.T, c *Conn, tr *transcript, s string) {
	t.Helper()
	tr.note('>', []byte(s))
	if _, err := c.Write([]byte(s)); err != nil {
		t.Fatal(err)
	}
}

// TestTelnetdScript talks to the real inetutils telnetd (loopback-servers.md
// §5): the negotiation must complete for telnetd to start the session, the
// greeting must arrive, the prompt be answered and the answer echoed back.
func TestTelnetdScript(t *testing.T) {
	d := testserver.Telnetd(t, sessionScript)
	tr := &transcript{}
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	c, err := Dial(ctx, d.Addr, Config{Trace: tr.trace, TerminalType: "xterm"})
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	c.SetDeadline(time.Now().Add(10 * time.Second))
	if err := c.SetWindowSize(100, 30); err != nil {
		t.Fatal(err)
	}
	var got bytes.Buffer
	expect(t, c, tr, &got, "say something: ")
	send(t, c, tr, "ping\r\n")
	expect(t, c, tr, &got, "SIZE=")
	// The session ends with the script: telnetd closes the connection.
	rest, err := io.ReadAll(c)
	got.Write(rest)
	tr.note('<', rest)
	if err != nil {
		t.Fatalf("after the script: %v", err)
	}
	t.Logf("transcript:\n%s", tr)

	out := got.String()
	for _, want := range []string{
		"HELLO FROM TELNETD args=[]\r\n",
		"TERM=xterm\r\n",          // RFC 1091 reached the pty
		"SIZE=30 100\r\n",         // and so did RFC 1073
		"say something: ping\r\n", // the server echoes (we said DO ECHO)
		"you said: ping\r\n",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("session output lacks %q:\n%q", want, out)
		}
	}
	// The exact opening of inetutils telnetd and our answers.
	for _, want := range []string{
		"< WILL AUTHENTICATION", "> DONT AUTHENTICATION",
		"< WILL ENCRYPT", "> DONT ENCRYPT",
		"< DO TTYPE", "> WILL TTYPE",
		"< DO TSPEED", "> WONT TSPEED",
		"< DO XDISPLOC", "> WONT XDISPLOC",
		"< DO NEW-ENVIRON", "> WONT NEW-ENVIRON",
		"< DO OLD-ENVIRON", "> WONT OLD-ENVIRON",
		"< SB TTYPE SEND", "> SB TTYPE IS xterm",
		"< WILL ECHO", "> DO ECHO",
		"< WILL SGA", "> DO SGA",
		"> SB NAWS 100 30",
	} {
		if !tr.has(want) {
			t.Errorf("trace lacks %q", want)
		}
	}
}

func strconvQuote(s string) string { return strconv.Quote(s) }
