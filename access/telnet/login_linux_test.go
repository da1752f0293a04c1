//go:build linux

package telnet

import (
	"bytes"
	"context"
	"io"
	"testing"
	"time"

	"github.com/rfc1738/rfc1738/internal/testserver"
)

// TestTelnetdLogin logs in through telnetd -h and /bin/login as the test
// user (loopback-servers.md §5): RFC 1738 §3.8's user and password are
// typed by the person, here by the test, at the server's prompts.
func TestTelnetdLogin(t *testing.T) {
	d := testserver.TelnetdLogin(t)
	tr := &transcript{}
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	c, err := Dial(ctx, d.Addr, Config{Trace: tr.trace, TerminalType: "dumb"})
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	c.SetDeadline(time.Now().Add(20 * time.Second))
	c.SetWindowSize(80, 24)
	var got bytes.Buffer
	expect(t, c, tr, &got, "login: ")
	send(t, c, tr, testserver.TelnetUser+"\r\n")
	expect(t, c, tr, &got, "Password: ")
	if _, err := c.Write([]byte(testserver.TelnetPassword + "\r\n")); err != nil {
		t.Fatal(err)
	}
	tr.note('>', []byte("<redacted>\r\n"))
	// Keys typed before the shell's prompt are flushed by login; wait for
	// bash's "user@host:~$ " (only the new output is searched).
	got.Reset()
	expect(t, c, tr, &got, "$ ")
	// The marker is split in the command so that the server's echo of the
	// command line cannot match it.
	send(t, c, tr, "echo TELNET_''OK $(id -un) $TERM $(stty size)\r\n")
	expect(t, c, tr, &got, "TELNET_OK "+testserver.TelnetUser+" dumb 24 80")
	send(t, c, tr, "exit\r\n")
	rest, err := io.ReadAll(c)
	tr.note('<', rest)
	if err != nil {
		t.Fatalf("after exit: %v\n%s", err, tr)
	}
	t.Logf("transcript:\n%s", tr)
}
