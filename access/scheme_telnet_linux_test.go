//go:build linux

package access

import (
	"context"
	"fmt"
	"io"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/rfc1738/rfc1738/internal/testserver"
)

// telnetScript is the deterministic session of loopback-servers.md §5,
// run by telnetd -E on its pseudo-terminal instead of /bin/login.
// The size is printed after the read: telnetd may start the program
// before it has applied the client's NAWS.
const telnetScript = `echo "HELLO FROM TELNETD"
echo "TERM=$TERM"
printf 'say something: '
read line
echo "you said: $line"
echo "SIZE=$(stty size)"
`

// TestTelnetSessionPTY runs Get on a telnet URL with a pseudo-terminal as
// Client.Stdin/Stdout against the real telnetd: the advice comes first on
// the terminal, then the session (keys to the server, its output to the
// screen), and the terminal is restored when the server closes.
func TestTelnetSessionPTY(t *testing.T) {
	d := testserver.Telnetd(t, telnetScript)
	master, slave := testserver.OpenPTY(t, 100, 30)
	screen := testserver.WatchScreen(master)
	before := testserver.Termios(t, slave)

	c := NewClient()
	c.RegisterProtocol("telnet", Telnet{TerminalType: "xterm"})
	c.Stdin, c.Stdout = slave, slave
	var mu sync.Mutex
	var trace []string
	c.Trace = func(dir byte, line string) {
		mu.Lock()
		trace = append(trace, fmt.Sprintf("%c %s", dir, line))
		mu.Unlock()
	}
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	u := mustParse(t, "telnet://guest:pw@"+d.Addr+"/")
	done := make(chan error, 1)
	go func() {
		resp, err := c.Get(ctx, u)
		if err == nil {
			b, _ := io.ReadAll(resp.Body)
			if len(b) != 0 {
				err = fmt.Errorf("body %q, want none", b)
			}
			resp.Body.Close()
		}
		done <- err
	}()
	screen.WaitFor(t, "say something: ")
	if _, err := master.Write([]byte("ping\r")); err != nil {
		t.Fatal(err)
	}
	select {
	case err := <-done:
		if err != nil {
			t.Fatalf("Get = %v", err)
		}
	case <-time.After(15 * time.Second):
		t.Fatalf("the session did not end; screen %q", screen)
	}
	screen.WaitFor(t, "SIZE=30 100\r\n")
	if after := testserver.Termios(t, slave); after != before {
		t.Errorf("terminal attributes not restored")
	}
	mu.Lock()
	tr := strings.Join(trace, "\n")
	mu.Unlock()
	t.Logf("negotiation:\n%s\nscreen:\n%s", tr, screen)
	want := `telnet ` + d.Addr + `: log in as user "guest" (the URL suggests a password)` + "\r\n"
	if !strings.HasPrefix(screen.String(), want) {
		t.Errorf("screen starts %q, want the advice %q", screen, want)
	}
	for _, w := range []string{"HELLO FROM TELNETD\r\n", "TERM=xterm\r\n", "say something: ping\r\n", "you said: ping\r\n"} {
		if !strings.Contains(screen.String(), w) {
			t.Errorf("screen lacks %q", w)
		}
	}
	// The plan's policy is what the client answered.
	p, _ := c.Plan(u)
	for _, s := range p.Steps[:7] {
		if s.Verb == "SB" && s.Arg == "NAWS" || s.Line() == "WILL SGA" && !strings.Contains(tr, "< DO SGA") {
			continue // a run-time value; an answer to a question not asked
		}
		if !strings.Contains(tr, "> "+s.Line()) {
			t.Errorf("trace lacks the planned %q", s.Line())
		}
	}
	for _, w := range []string{"> SB NAWS 100 30", "> DONT AUTHENTICATION", "> WONT TSPEED"} {
		if !strings.Contains(tr, w) {
			t.Errorf("trace lacks %q", w)
		}
	}
	if strings.Contains(screen.String(), "pw") {
		t.Errorf("the password reached the screen")
	}
}
