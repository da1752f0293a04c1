package main

import (
	"fmt"
	"net/http"
	"net/http/httptest"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/rfc1738/rfc1738/internal/testserver"
)

// ttySession runs a shell command in a detached tmux session on its own
// server socket, so that the binary has a real terminal.
type ttySession struct {
	t    *testing.T
	sock string
}

func newTTY(t *testing.T, command string) *ttySession {
	t.Helper()
	testserver.Need(t, "tmux", "pgrep")
	s := &ttySession{t: t, sock: filepath.Join(t.TempDir(), "tmux.sock")}
	s.tmux("new-session", "-d", "-s", "t", "-x", "150", "-y", "20", command)
	t.Cleanup(func() { exec.Command("tmux", "-S", s.sock, "kill-server").Run() })
	return s
}

func (s *ttySession) tmux(args ...string) string {
	s.t.Helper()
	out, err := exec.Command("tmux", append([]string{"-S", s.sock}, args...)...).CombinedOutput()
	if err != nil {
		s.t.Fatalf("tmux %q: %v\n%s", args, err, out)
	}
	return string(out)
}

// screen returns the visible pane, trailing blank lines dropped.
func (s *ttySession) screen() string {
	return strings.TrimRight(s.tmux("capture-pane", "-p", "-t", "t"), "\n")
}

// waitFor polls the screen until it contains want.
func (s *ttySession) waitFor(want string) string {
	s.t.Helper()
	deadline := time.Now().Add(15 * time.Second)
	for {
		scr := s.screen()
		if strings.Contains(scr, want) {
			return scr
		}
		if time.Now().After(deadline) {
			s.t.Fatalf("the screen never showed %q:\n%s", want, scr)
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// stallServer sends the first half of a sized body, then waits until the
// client goes away.
func stallServer(t *testing.T) *httptest.Server {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Length", "2000000")
		w.Write(make([]byte, 1000000))
		w.(http.Flusher).Flush()
		<-r.Context().Done()
	}))
	t.Cleanup(srv.Close)
	return srv
}

// TestTTYInterrupt: on a terminal, a download shows its bar; Ctrl-C
// erases it and prints one message naming the signal on a line of its
// own, and the status is 130 (143 for SIGTERM). The bar never comes back.
func TestTTYInterrupt(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the binary")
	}
	bin := binary(t)
	srv := stallServer(t)
	for _, tc := range []struct {
		name, flags, signal, want string
		status                    int
		kept                      bool
	}{
		// An interrupt keeps what came, -C or not, as curl and wget do.
		{"Ctrl-C", "", "C-c", "interrupted by SIGINT; kept .out.bin.part for -C to resume", 130, true},
		{"SIGTERM", "", "TERM", "interrupted by SIGTERM; kept .out.bin.part for -C to resume", 143, true},
		{"Ctrl-C with -C", "-C - ", "C-c", "interrupted by SIGINT; kept .out.bin.part for -C to resume", 130, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			s := newTTY(t, fmt.Sprintf("cd %s && %s get %s-o out.bin %s/big.bin; echo EXIT=$?; sleep 60", dir, bin, tc.flags, srv.URL))
			s.waitFor("big.bin")
			if tc.signal == "C-c" {
				s.tmux("send-keys", "-t", "t", "C-c")
			} else {
				pane := strings.TrimSpace(s.tmux("display", "-p", "-t", "t", "#{pane_pid}"))
				out, err := exec.Command("pgrep", "-P", pane, "-f", "out.bin").Output()
				if err != nil {
					t.Fatalf("pgrep: %v", err)
				}
				exec.Command("kill", "-TERM", strings.Fields(string(out))[0]).Run()
			}
			scr := s.waitFor("EXIT=")
			lines := strings.Split(scr, "\n")
			want := []string{"rfc1738 get: " + tc.want, "EXIT=" + strconv.Itoa(tc.status)}
			if len(lines) < 2 || lines[len(lines)-2] != want[0] || lines[len(lines)-1] != want[1] {
				t.Errorf("screen:\n%s\nwant its last lines %q", scr, want)
			}
			if strings.Contains(scr, "big.bin") || strings.Contains(scr, "%") {
				t.Errorf("the bar is still on the screen:\n%s", scr)
			}
			time.Sleep(300 * time.Millisecond)
			if again := s.screen(); again != scr {
				t.Errorf("the screen changed after the exit:\n%s", again)
			}
			names := dirNames(t, dir)
			if tc.kept && (len(names) != 1 || names[0] != ".out.bin.part") || !tc.kept && len(names) != 0 {
				t.Errorf("the folder holds %q", names)
			}
		})
	}
}

// TestTTYBar: the bar is drawn when the body goes to a file, and not
// when it goes to the terminal; an error gets a line of its own.
func TestTTYBar(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the binary")
	}
	bin := binary(t)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch r.URL.Path {
		case "/cut":
			w.Header().Set("Content-Length", "2000000")
			w.Write(make([]byte, 1000000))
			w.(http.Flusher).Flush()
			time.Sleep(500 * time.Millisecond)
			panic(http.ErrAbortHandler) // the connection is cut mid-body
		default:
			w.Write([]byte("hello terminal\n"))
		}
	}))
	defer srv.Close()
	dir := t.TempDir()
	s := newTTY(t, fmt.Sprintf("cd %s && %s get %s/hello.txt; echo EXIT=$?; %s get -o cut.bin %s/cut; echo EXIT=$?; sleep 60", dir, bin, srv.URL, bin, srv.URL))
	scr := s.waitFor("EXIT=4")
	lines := strings.Split(scr, "\n")
	if lines[0] != "hello terminal" || lines[1] != "EXIT=0" {
		t.Errorf("a body to the terminal is drawn with a bar or changed:\n%s", scr)
	}
	last := lines[len(lines)-2]
	if !strings.HasPrefix(last, "rfc1738 get: ") || !strings.Contains(last, "unexpected EOF") || strings.Contains(scr, "cut ") && strings.Contains(scr, "%") {
		t.Errorf("the error is not on a line of its own, or the bar stayed:\n%s", scr)
	}
}

// TestTTYBinaryRefused: a body holding a NUL byte is not written to a
// terminal, as curl refuses it ("Binary output can mess up your
// terminal"); the status is 3 (the output's failure; curl's write error
// is 23). Text goes through, and -o - writes the binary all the same.
func TestTTYBinaryRefused(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the binary")
	}
	bin := binary(t)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/text" {
			w.Write([]byte("plain text\n"))
			return
		}
		b := []byte("BINSTART" + strings.Repeat("x", 1990) + "\n")
		b[100], b[1000] = 0, 0 // binary: NUL bytes, which a terminal shows as nothing
		w.Write(b)
	}))
	defer srv.Close()
	s := newTTY(t, fmt.Sprintf("%s get %s/blob; echo EXIT=$?; %s get %s/text; echo EXIT=$?; sleep 60", bin, srv.URL, bin, srv.URL))
	scr := s.waitFor("EXIT=0")
	if !strings.Contains(scr, "Binary output can mess up your terminal") || !strings.Contains(scr, "EXIT=3") || strings.Contains(scr, "BINSTART") {
		t.Errorf("binary to the terminal not refused:\n%s", scr)
	}
	if !strings.Contains(scr, "plain text\nEXIT=0") {
		t.Errorf("text to the terminal:\n%s", scr)
	}
	s = newTTY(t, fmt.Sprintf("%s get -o - %s/blob; echo EXIT=$?; sleep 60", bin, srv.URL))
	if scr := s.waitFor("EXIT="); !strings.Contains(scr, "BINSTART") || !strings.Contains(scr, "EXIT=0") {
		t.Errorf("-o - to the terminal:\n%s", scr)
	}
}
