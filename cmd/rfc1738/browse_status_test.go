package main

import (
	"os/exec"
	"strconv"
	"strings"
	"syscall"
	"testing"

	"github.com/rfc1738/rfc1738/internal/testserver"
)

// TestBrowseExitStatus: browse ends with the status of the table too:
// 143 after SIGTERM (Bubble Tea ends on it as on q), 0 after q.
func TestBrowseExitStatus(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the binary")
	}
	testserver.Need(t, "pgrep")
	bin := binary(t)
	g := testserver.NewGopherFake(t, testserver.GopherReply{Reply: []byte("iA quiet hole\t\terror.host\t1\r\n.\r\n")})
	s := newTmuxScreen(t, bin, browseEnv(t), "gopher://"+g.Addr+"/1")
	s.wait("A quiet hole")
	shell := strings.TrimSpace(s.run("list-panes", "-t", "b", "-F", "#{pane_pid}"))
	out, err := exec.Command("pgrep", "-P", shell).Output()
	if err != nil {
		t.Fatalf("pgrep -P %s: %v", shell, err)
	}
	pid, err := strconv.Atoi(strings.Fields(string(out))[0])
	if err != nil {
		t.Fatal(err)
	}
	if err := syscall.Kill(pid, syscall.SIGTERM); err != nil {
		t.Fatal(err)
	}
	s.wait("EXIT=143")
}
