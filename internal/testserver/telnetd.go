//go:build linux

package testserver

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
)

// Telnetd user for real logins through telnetd -h (loopback-servers.md §5).
const (
	TelnetUser     = "ftptest"
	TelnetPassword = "ftppass"
)

// Telnetd starts inetutils telnetd behind socat on a free 127.0.0.1 port
// with -E script, so that a connection runs script (a shell script; a
// "#!/bin/sh" line is added when it has none) on telnetd's pseudo-terminal
// instead of /bin/login: a deterministic session. Each connection forks a
// new telnetd. The daemon and its children are killed on cleanup.
func Telnetd(t testing.TB, script string) *Daemon {
	t.Helper()
	NeedRoot(t)
	telnetd := telnetdPath(t)
	if !strings.HasPrefix(script, "#!") {
		script = "#!/bin/sh\n" + script
	}
	dir := t.TempDir()
	body := filepath.Join(dir, "body.sh")
	if err := os.WriteFile(body, []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	// inetutils telnetd hangs up the moment its program exits and can drop
	// the program's last output (seen under -race: "you said: …" never
	// arrived). The wrapper lingers after the program so telnetd forwards
	// everything before the connection closes.
	wrapper := "#!/bin/sh\n" + body + " \"$@\"\nstatus=$?\nsleep 1\nexit $status\n"
	path := filepath.Join(dir, "session.sh")
	if err := os.WriteFile(path, []byte(wrapper), 0o755); err != nil {
		t.Fatal(err)
	}
	return startTelnetd(t, telnetd+" -h -E "+path)
}

// TelnetdLogin starts telnetd -h behind socat on a free 127.0.0.1 port: a
// real /bin/login session. It makes sure the user TelnetUser exists,
// creating it with password TelnetPassword when it does not.
func TelnetdLogin(t testing.TB) *Daemon {
	t.Helper()
	NeedRoot(t)
	telnetd := telnetdPath(t)
	EnsureTelnetUser(t)
	return startTelnetd(t, telnetd+" -h")
}

// EnsureTelnetUser makes sure the local user TelnetUser exists with
// password TelnetPassword (EnsureLocalUser).
func EnsureTelnetUser(t testing.TB) {
	t.Helper()
	EnsureLocalUser(t, TelnetUser, TelnetPassword)
}

func telnetdPath(t testing.TB) string {
	t.Helper()
	if p, err := exec.LookPath("telnetd"); err == nil {
		return p
	}
	paths := Need(t, "/usr/sbin/telnetd")
	if paths == nil {
		return ""
	}
	return paths[0]
}

// startTelnetd runs socat, which forks one telnetd per connection with the
// socket as its stdin/stdout, as inetd would (telnetd is inetd-style only).
func startTelnetd(t testing.TB, command string) *Daemon {
	t.Helper()
	socat := Need(t, "socat")
	if socat == nil {
		return nil
	}
	// socat splits its address on ',' ':' and '!'; a path with them, or a
	// quote, would be misread.
	if strings.ContainsAny(command, ",:!'\"\\") {
		t.Fatalf("telnetd command %q has a character socat would misread", command)
	}
	addr := fmt.Sprintf("127.0.0.1:%d", FreePort(t))
	cmd := exec.Command(socat[0],
		fmt.Sprintf("TCP-LISTEN:%s,bind=127.0.0.1,reuseaddr,fork", addr[len("127.0.0.1:"):]),
		"EXEC:"+command+",nofork")
	// Its own process group, so that cleanup also reaches the per-connection
	// children (socat and telnetd) that outlive a killed listener.
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	t.Cleanup(func() {
		if cmd.Process != nil {
			_ = syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
		}
	})
	return Start(t, "telnetd", cmd, addr)
}
