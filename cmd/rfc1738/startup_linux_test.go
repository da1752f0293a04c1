package main

import (
	"os/exec"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/rfc1738/rfc1738/internal/testserver"
)

// TestStartupSilentTerminal: on a terminal that answers no query
// (script(1), expect, some CI and editor terminals), a command that draws
// no UI starts at once and writes nothing but its output: no escape
// sequence asking the terminal for its colours, and no wait for the
// answer. Bubble Tea's init used to ask, and waited five seconds.
//
// The binary runs in a session of its own with the pty's slave as its
// controlling terminal, in the foreground, as under script(1); the
// master is read, never answered. The bound of a second guards against
// the hang, it is not a speed figure.
func TestStartupSilentTerminal(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the binary")
	}
	bin := binary(t)
	for _, args := range [][]string{
		{"version"},
		{"parse", "ftp://ftp.example.org/pub/file.txt"},
	} {
		t.Run(args[0], func(t *testing.T) {
			master, slave := testserver.OpenPTY(t, 80, 24)
			screen := testserver.WatchScreen(master)
			cmd := exec.Command(bin, args...)
			cmd.Env = append(cmd.Environ(), "TERM=xterm-256color", "COLORFGBG=")
			cmd.Stdin, cmd.Stdout, cmd.Stderr = slave, slave, slave
			cmd.SysProcAttr = &syscall.SysProcAttr{Setsid: true, Setctty: true, Ctty: 0}
			start := time.Now()
			if err := cmd.Start(); err != nil {
				t.Fatal(err)
			}
			done := make(chan error, 1)
			go func() { done <- cmd.Wait() }()
			var err error
			select {
			case err = <-done:
			case <-time.After(10 * time.Second):
				cmd.Process.Kill()
				<-done
				t.Fatalf("rfc1738 %s still running after 10s on a silent terminal; it shows %q", strings.Join(args, " "), screen.String())
			}
			took := time.Since(start)
			if err != nil {
				t.Fatalf("rfc1738 %s: %v; it shows %q", strings.Join(args, " "), err, screen.String())
			}
			screen.WaitFor(t, "\n")
			if took > time.Second {
				t.Errorf("rfc1738 %s took %v on a silent terminal", strings.Join(args, " "), took)
			}
			if out := screen.String(); strings.Contains(out, "\x1b") {
				t.Errorf("rfc1738 %s wrote an escape sequence to the terminal: %q", strings.Join(args, " "), out)
			}
			t.Logf("rfc1738 %s: %v", strings.Join(args, " "), took)
		})
	}
}
