package main

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/rfc1738/rfc1738/internal/safetext"
	"github.com/rfc1738/rfc1738/internal/testserver"
)

// TestDiagnosticsBounded: a diagnostic shows a window of the URL, not all
// of it, and a report shows the first 20 diagnostics and counts the rest,
// so the output of parse, plan and get stays a small multiple of the input
// (ftp://h/ and 16,000 "%" used to print 387 MB).
func TestDiagnosticsBounded(t *testing.T) {
	url := "ftp://h/" + strings.Repeat("%", 16000)
	for _, cmd := range []string{"parse", "plan", "get"} {
		args := []string{cmd, url}
		if cmd != "parse" {
			args = []string{cmd, "--strict", url} // else the "%"s are repaired (%25)
		}
		stdout, stderr, status := runCLI(t, "", args...)
		out := stdout + stderr
		if status == exitOK {
			t.Errorf("%s: status 0", cmd)
		}
		if len(out) > 4*len(url) {
			t.Errorf("%s: %d bytes of output for a URL of %d", cmd, len(out), len(url))
		}
		if !strings.Contains(out, "and 15980 more error(s)") {
			t.Errorf("%s: no count of the diagnostics not shown:\n%.2000s", cmd, out)
		}
		if strings.Count(out, "^") != 20 {
			t.Errorf("%s: %d caret lines, want 20", cmd, strings.Count(out, "^"))
		}
	}
	// The window is marked where it was cut, and the caret stays under
	// the byte.
	_, stderr, _ := runCLI(t, "", "plan", "ftp://h/"+strings.Repeat("a", 100)+"%"+strings.Repeat("z", 100))
	lines := strings.Split(stderr, "\n")
	if len(lines) < 3 || !strings.HasPrefix(lines[1], "  …") || !strings.HasSuffix(lines[1], "…") {
		t.Fatalf("no cut window:\n%s", stderr)
	}
	shown, caret := []rune(lines[1]), strings.Index(lines[2], "^")
	if caret < 0 || caret >= len(shown) || shown[caret] != '%' {
		t.Errorf("the caret is not under the '%%':\n%s", stderr)
	}
}

// TestPlanGetRefuseWrappingPorts: a port beyond 65535 is refused by plan
// and get from its digits (§6), never wrapped onto a usable port: 2^32+p
// used to connect to p.
func TestPlanGetRefuseWrappingPorts(t *testing.T) {
	h := testserver.NewHostile(t, testserver.HostileConfig{Fault: testserver.FaultEscapes, Escapes: []string{"iconnected\t\terror.host\t1"}})
	_, port, _ := strings.Cut(h.Addr, ":")
	var p uint64
	fmt.Sscan(port, &p)
	for _, n := range []uint64{p + 1<<32, p + 1<<16, 1<<32 + 70} {
		url := fmt.Sprintf("gopher://127.0.0.1:%d/1", n)
		for _, cmd := range []string{"plan", "get"} {
			stdout, stderr, status := runCLI(t, "", cmd, url)
			if status != exitUsage || stdout != "" || !strings.Contains(stderr, fmt.Sprintf("port %d is not a TCP port", n)) {
				t.Errorf("%s %s: status %d, stdout %q, stderr %q; want the port refused", cmd, url, status, stdout, stderr)
			}
		}
	}
	if reqs := h.Requests(); len(reqs) != 0 {
		t.Errorf("the server on port %s was reached: %q", port, reqs)
	}
}

// TestInvalidURLPasswordRedacted: an invalid URL is redacted too; its
// password (with an unencoded "/", "#" or "@") appears nowhere.
func TestInvalidURLPasswordRedacted(t *testing.T) {
	for _, url := range []string{"ftp://user:se/cret@host/x", "ftp://user:se#cret@host/x", "ftp://u:se@cret@h/x"} {
		for _, cmd := range []string{"plan", "get"} {
			stdout, stderr, _ := runCLI(t, "", cmd, url)
			if out := stdout + stderr; strings.Contains(out, "cret") || !strings.Contains(out, ":****@") {
				t.Errorf("%s %s printed:\n%s", cmd, url, out)
			}
		}
	}
}

// TestPlanEscapes: plan prints the decoded lines through safetext: a
// selector holding ESC, OSC, BEL, CSI and C1 CSI (0x9B, as a character
// and as a byte) reaches the terminal escaped.
func TestPlanEscapes(t *testing.T) {
	stdout, stderr, status := runCLI(t, "", "plan", "gopher://h/0sel%1B%5B2J%1B%5D0;x%07%C2%9B31m%9B")
	if status != exitOK {
		t.Fatalf("status %d: %s", status, stderr)
	}
	for _, line := range strings.Split(stdout+stderr, "\n") {
		if safetext.Line(line) != line {
			t.Errorf("raw control bytes in %q", line)
		}
	}
	if !strings.Contains(stdout, `sel\x1b[2J\x1b]0;x\a\u009b31m\x9b`) {
		t.Errorf("the selector is not shown escaped:\n%s", stdout)
	}
}

// TestGetTimeoutWhileWriting: a --timeout that fires while the body is
// spliced into the -o file names --timeout, not the write it interrupted
// ("write .out.bin.123.part: i/o timeout").
func TestGetTimeoutWhileWriting(t *testing.T) {
	chunk := []byte(strings.Repeat("0123456789abcdef", 1<<12))
	fake := testserver.NewFTPFake(t, testserver.FTPFakeOptions{Handle: func(s *testserver.FTPSession, line string) bool {
		if line != "RETR huge.bin" {
			return false
		}
		dc, err := s.AcceptData()
		if err != nil {
			return false
		}
		defer dc.Close()
		s.Reply("150 Opening BINARY mode data connection for huge.bin (1073741824 bytes).")
		// 4 MiB fast (past the zero-copy switch), then nothing.
		for i := 0; i < 64; i++ {
			dc.Write(chunk)
		}
		<-s.Done()
		return true
	}, Files: map[string]string{"/pub/huge.bin": ""}})
	dir := t.TempDir()
	start := time.Now()
	_, stderr, status := runCLI(t, "", "get", "--timeout", "1500ms", "-o", filepath.Join(dir, "out.bin"), "ftp://"+fake.Addr+"/pub/huge.bin")
	t.Logf("%s", stderr)
	if status != exitNetwork || !strings.Contains(stderr, "--timeout 1.5s") || strings.Contains(stderr, ".part") {
		t.Errorf("status %d, stderr %q; want the --timeout named, not the .part file", status, stderr)
	}
	if !strings.Contains(stderr, "ftp://"+fake.Addr+"/pub/huge.bin") || !strings.Contains(stderr, "of 1073741824 bytes") {
		t.Errorf("stderr %q does not say what was going on", stderr)
	}
	if entries, _ := os.ReadDir(dir); len(entries) != 0 {
		t.Errorf("the folder holds %v after a failure", entries)
	}
	if d := time.Since(start); d > 8*time.Second {
		t.Errorf("took %v", d)
	}
}

// TestErrTextEscapes: an error's text reaches a message escaped, whether
// or not a library quoted the server's words in it (net/textproto does
// from Go 1.26.1 on, not in 1.26.0, which go.mod allows).
func TestErrTextEscapes(t *testing.T) {
	err := fmt.Errorf("MAIL FROM:<a@b>: %w", errors.New("550 \x1b[2J\x1b]0;owned\a\u009b31m"))
	if got, want := errText(err), `MAIL FROM:<a@b>: 550 \x1b[2J\x1b]0;owned\a\u009b31m`; got != want {
		t.Errorf("errText = %q, want %q", got, want)
	}
	if got := libError(errors.New("rfc1738: bad \x1b[31m"), ""); got != `bad \x1b[31m` {
		t.Errorf("libError = %q", got)
	}
}

// TestMailTraceEscapes: "mail -v" shows a relay's replies through
// safetext, and so does the error: a greeting and a refusal full of
// terminal escapes reach stderr escaped.
func TestMailTraceEscapes(t *testing.T) {
	h := testserver.NewHostile(t, testserver.HostileConfig{
		Greeting: []string{"220 relay " + testserver.EscapeBytes},
		Replies:  [][]string{{"250 relay " + testserver.EscapeBytes}},
		Fault:    testserver.FaultEscapes,
		Escapes:  []string{"550 " + testserver.EscapeBytes},
	})
	_, stderr, status := runCLI(t, "hi\n", "mail", "-v", "--from", "me@here.example", "--smtp", h.Addr, "--smtp-tls", "off", "mailto:you@there.example")
	if status == exitOK {
		t.Fatalf("status 0:\n%s", stderr)
	}
	for _, line := range strings.Split(stderr, "\n") {
		if safetext.Line(line) != line {
			t.Errorf("raw control bytes on stderr: %q", line)
		}
	}
	if strings.Count(stderr, `\x1b[2J`) < 3 {
		t.Errorf("the replies are not shown escaped:\n%s", stderr)
	}
}
