package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"reflect"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/rfc1738/rfc1738"
	"github.com/rfc1738/rfc1738/access"
	"github.com/rfc1738/rfc1738/internal/testserver"
)

// ftpFaultFiles is the fake's tree for the fault tests.
var ftpFaultFiles = map[string]string{
	"/pub/file.txt": "the whole file\n",
}

// TestGetFTPFaults runs "rfc1738 get -o FILE" against a fake that breaks
// in each way the issue lists: every run ends with one line on stderr, a
// non-zero status, and neither FILE nor a temporary file in the folder.
func TestGetFTPFaults(t *testing.T) {
	big := strings.Repeat("0123456789", 10000)
	// huge is past the point where the ftp body goes zero-copy (1 MiB).
	huge := strings.Repeat("0123456789abcdef", 3<<16)
	closedPort := testserver.FreePort(t)
	tests := []struct {
		name   string
		path   string
		flags  []string
		opts   testserver.FTPFakeOptions
		want   string // in the error line
		status int    // the exit status
	}{
		{
			name:   "dropped mid-transfer",
			status: exitNetwork,
			path:   "/pub/big.bin",
			opts: testserver.FTPFakeOptions{Handle: func(s *testserver.FTPSession, line string) bool {
				if line != "RETR big.bin" {
					return false
				}
				dc, err := s.AcceptData()
				if err != nil {
					return false
				}
				s.Reply(fmt.Sprintf("150 Opening BINARY mode data connection for big.bin (%d bytes).", len(big)))
				dc.Write([]byte(big[:len(big)/2]))
				dc.Close()
				s.Drop()
				return true
			}},
			want: "RETR big.bin",
		},
		{
			name:   "dropped mid-transfer, zero-copy",
			status: exitNetwork,
			path:   "/pub/huge.bin",
			opts:   ftpUnsized(huge[:len(huge)-1000], "drop"),
			want:   "RETR huge.bin",
		},
		{
			name:   "more than --max-size, unannounced, zero-copy",
			status: exitNegative,
			path:   "/pub/huge.bin",
			flags:  []string{"--max-size", strconv.Itoa(len(huge) - 1)},
			opts:   ftpUnsized(huge, "226 Transfer complete."),
			want:   "--max-size",
		},
		{
			name:   "stall past --idle-timeout",
			status: exitNetwork,
			path:   "/pub/big.bin",
			flags:  []string{"--idle-timeout", "300ms"},
			opts: testserver.FTPFakeOptions{Handle: func(s *testserver.FTPSession, line string) bool {
				if line != "RETR big.bin" {
					return false
				}
				dc, err := s.AcceptData()
				if err != nil {
					return false
				}
				defer dc.Close()
				s.Reply("150 Opening BINARY mode data connection for big.bin (100000 bytes).")
				dc.Write([]byte(big[:1000]))
				<-s.Done() // and then nothing
				return true
			}},
			want: "--idle-timeout",
		},
		{
			name:   "stall past --timeout",
			status: exitNetwork,
			path:   "/pub/file.txt",
			flags:  []string{"--timeout", "300ms"},
			opts: testserver.FTPFakeOptions{Handle: func(s *testserver.FTPSession, line string) bool {
				if strings.HasPrefix(line, "USER ") {
					<-s.Done() // no answer to USER
					return true
				}
				return false
			}},
			want: "--timeout 300ms",
		},
		{
			name:   "garbage reply",
			status: exitProtocol,
			path:   "/pub/file.txt",
			opts: testserver.FTPFakeOptions{Handle: func(s *testserver.FTPSession, line string) bool {
				if line == "CWD pub" {
					s.Reply("hello, this is not FTP")
					return true
				}
				return false
			}},
			want: "protocol error",
		},
		{
			name:   "oversized reply line",
			status: exitProtocol,
			path:   "/pub/file.txt",
			opts: testserver.FTPFakeOptions{Handle: func(s *testserver.FTPSession, line string) bool {
				if line == "CWD pub" {
					s.Reply("250 " + strings.Repeat("x", 10000))
					return true
				}
				return false
			}},
			want: "protocol error",
		},
		{
			// RFC 2428 §3 / curl CVE-2020-8284: the 227 names another
			// host (TEST-NET-1, never routed); the client dials the
			// control peer instead, where that port is closed.
			name:   "PASV pointing elsewhere",
			status: exitNetwork,
			path:   "/pub/file.txt",
			opts: testserver.FTPFakeOptions{NoEPSV: true, Handle: func(s *testserver.FTPSession, line string) bool {
				if line == "PASV" {
					s.Reply(fmt.Sprintf("227 Entering Passive Mode (192,0,2,1,%d,%d).", closedPort>>8, closedPort&255))
					return true
				}
				return false
			}},
			want: fmt.Sprintf("127.0.0.1:%d", closedPort),
		},
		{
			name:   "530",
			status: exitAuth,
			path:   "/pub/file.txt",
			opts: testserver.FTPFakeOptions{Handle: func(s *testserver.FTPSession, line string) bool {
				if strings.HasPrefix(line, "PASS ") {
					s.Reply("530 Login incorrect.")
					return true
				}
				return false
			}},
			want: "PASS ****: 530 Login incorrect.",
		},
		{
			name:   "550",
			status: exitRefused,
			path:   "/pub/missing.txt",
			want:   "RETR missing.txt: 550 Failed to open file.",
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			tt.opts.Files = ftpFaultFiles
			fake := testserver.NewFTPFake(t, tt.opts)
			dir := t.TempDir()
			out := filepath.Join(dir, "out.bin")
			args := append([]string{"get", "-o", out}, tt.flags...)
			args = append(args, "ftp://"+fake.Addr+tt.path)
			start := time.Now()
			stdout, stderr, status := runCLI(t, "", args...)
			t.Logf("%s", stderr)
			if status != tt.status {
				t.Errorf("status %d, want %d", status, tt.status)
			}
			if !strings.HasPrefix(stderr, "rfc1738 get: ") || strings.Count(stderr, "\n") != 1 || !strings.Contains(stderr, tt.want) {
				t.Errorf("stderr %q: want one line holding %q", stderr, tt.want)
			}
			if stdout != "" {
				t.Errorf("stdout %q", stdout)
			}
			if entries, _ := os.ReadDir(dir); len(entries) != 0 {
				t.Errorf("the folder holds %v after a failure", entries)
			}
			if d := time.Since(start); d > 8*time.Second {
				t.Errorf("took %v", d)
			}
		})
	}
}

// ftpUnsized is a fake's handler for "RETR huge.bin": a 150 reply with
// no size, then data, then end ("drop" drops both connections; anything
// else is the final reply).
func ftpUnsized(data, end string) testserver.FTPFakeOptions {
	return testserver.FTPFakeOptions{Handle: func(s *testserver.FTPSession, line string) bool {
		if line != "RETR huge.bin" {
			return false
		}
		dc, err := s.AcceptData()
		if err != nil {
			return false
		}
		s.Reply("150 Opening BINARY mode data connection for huge.bin.")
		dc.Write([]byte(data))
		dc.Close()
		if end == "drop" {
			s.Drop()
		} else {
			s.Reply(end)
		}
		return true
	}}
}

// TestGetFTPZeroCopy: a download long enough for the ftp body to splice
// its data connection into the file arrives whole, with no --max-size
// and with one that it fits exactly.
func TestGetFTPZeroCopy(t *testing.T) {
	huge := strings.Repeat("0123456789abcdef", 3<<16) + "tail"
	for _, flags := range [][]string{nil, {"--max-size", strconv.Itoa(len(huge))}} {
		opts := ftpUnsized(huge, "226 Transfer complete.")
		opts.Files = ftpFaultFiles
		fake := testserver.NewFTPFake(t, opts)
		out := filepath.Join(t.TempDir(), "huge.bin")
		args := append(append([]string{"get", "-o", out}, flags...), "ftp://"+fake.Addr+"/pub/huge.bin")
		if _, stderr, status := runCLI(t, "", args...); status != exitOK {
			t.Fatalf("%q: status %d: %s", flags, status, stderr)
		}
		if got, _ := os.ReadFile(out); string(got) != huge {
			t.Errorf("%q: %d bytes differ from the %d sent", flags, len(got), len(huge))
		}
	}
}

// TestGetFTPPASVElsewhere: a 227 naming another host is not followed;
// the data comes from the control peer and -v says so.
func TestGetFTPPASVElsewhere(t *testing.T) {
	fake := testserver.NewFTPFake(t, testserver.FTPFakeOptions{Files: ftpFaultFiles, NoEPSV: true, PASVHost: "192.0.2.1"})
	out := filepath.Join(t.TempDir(), "f")
	_, stderr, status := runCLI(t, "", "get", "-v", "-o", out, "ftp://"+fake.Addr+"/pub/file.txt")
	if status != 0 {
		t.Fatalf("status %d: %s", status, stderr)
	}
	if b, _ := os.ReadFile(out); string(b) != "the whole file\n" {
		t.Errorf("file %q", b)
	}
	if !strings.Contains(stderr, "! PASV address 192.0.2.1 ignored") {
		t.Errorf("trace lacks the note:\n%s", stderr)
	}
}

// TestGetFTPGuards: the §6 CR/LF/NUL vectors are refused by plan and get
// before anything is sent; the fake sees no command.
func TestGetFTPGuards(t *testing.T) {
	fake := testserver.NewFTPFake(t, testserver.FTPFakeOptions{Files: ftpFaultFiles})
	for _, in := range []string{
		"ftp://" + fake.Addr + "/pub%0D%0ADELE%20x/file.txt",
		"ftp://u%0D%0ASITE%20x@" + fake.Addr + "/pub/file.txt",
		"ftp://u:secret%0AQUIT@" + fake.Addr + "/pub/file.txt",
		"ftp://" + fake.Addr + "/pub/file%00.txt;type=a",
	} {
		for _, cmd := range []string{"plan", "get"} {
			dir := t.TempDir()
			stdout, stderr, status := runCLI(t, "", cmd, "-o", filepath.Join(dir, "x"), in)
			if cmd == "plan" {
				stdout, stderr, status = runCLI(t, "", cmd, in)
			}
			if status != exitUsage || stdout != "" || !strings.Contains(stderr, "refused (§6)") || strings.Contains(stderr, "secret") {
				t.Errorf("%s %s: status %d, stdout %q, stderr %q", cmd, in, status, stdout, stderr)
			}
			if entries, _ := os.ReadDir(dir); len(entries) != 0 {
				t.Errorf("%s left %v", cmd, entries)
			}
		}
	}
	if got := fake.Commands(); len(got) != 0 {
		t.Errorf("the server received %q", got)
	}
}

// TestGetFTPNoTerminal: a user without a password, a server that asks
// for one, and no terminal to ask on: a clear one-line error.
func TestGetFTPNoTerminal(t *testing.T) {
	fake := testserver.NewFTPFake(t, testserver.FTPFakeOptions{Files: ftpFaultFiles})
	_, stderr, status := runCLI(t, "", "get", "ftp://myname@"+fake.Addr+"/pub/file.txt")
	if status != exitAuth || strings.Count(stderr, "\n") != 1 || !strings.Contains(stderr, "asks for a password") {
		t.Errorf("status %d, stderr %q", status, stderr)
	}
}

// vsftpdTranscript runs get -v and returns stdout, the conversation and
// the status; the conversation is logged for the record.
func vsftpdTranscript(t *testing.T, url string, extra ...string) (string, string, int) {
	t.Helper()
	args := append([]string{"get", "-v"}, extra...)
	stdout, stderr, status := runCLI(t, "", append(args, url)...)
	t.Logf("rfc1738 get -v %s → status %d\n%s", url, status, stderr)
	return stdout, stderr, status
}

// conversation returns the '>' lines of a -v trace.
func conversation(trace string) []string {
	var out []string
	for _, l := range strings.Split(trace, "\n") {
		if strings.HasPrefix(l, "> ") {
			out = append(out, l[2:])
		}
	}
	return out
}

// TestGetFTPVsftpd runs get and plan against a real vsftpd on loopback
// (shared/reference/loopback-servers.md §1).
func TestGetFTPVsftpd(t *testing.T) {
	addr, root := testserver.VSFTPD(t)
	base := "ftp://" + addr

	t.Run("binary byte-identical", func(t *testing.T) {
		want, err := os.ReadFile(filepath.Join(root, "pub", "binary.bin"))
		if err != nil {
			t.Fatal(err)
		}
		out := filepath.Join(t.TempDir(), "binary.bin")
		if _, stderr, status := runCLI(t, "", "get", "-o", out, base+"/pub/binary.bin"); status != 0 {
			t.Fatalf("status %d: %s", status, stderr)
		}
		got, _ := os.ReadFile(out)
		if !bytes.Equal(got, want) || len(got) != 100000 {
			t.Errorf("%d bytes differ from the %d stored", len(got), len(want))
		}
	})

	// The three examples of §3.2.2, anonymous (the anonymous root holds
	// etc/motd; vsftpd chroots, so CWD /etc stays inside it).
	for _, tt := range []struct{ path, cwd string }{
		{"%2Fetc/motd", "CWD /etc"},
		{"etc/motd", "CWD etc"},
	} {
		t.Run(tt.path, func(t *testing.T) {
			stdout, trace, status := vsftpdTranscript(t, base+"/"+tt.path)
			if status != 0 || stdout != "fake motd inside anon root\n" {
				t.Fatalf("status %d, %q", status, stdout)
			}
			// vsftpd lists SIZE in FEAT: it is asked before RETR.
			want := []string{"USER anonymous", "PASS ****", tt.cwd, "TYPE I", "FEAT", "SIZE motd", "EPSV", "RETR motd", "QUIT"}
			if got := conversation(trace); !reflect.DeepEqual(got, want) {
				t.Errorf("sent %q, want %q", got, want)
			}
		})
	}
	t.Run("//etc/motd", func(t *testing.T) {
		// vsftpd refuses the null CWD with 550 (loopback-servers.md §1).
		stdout, trace, status := vsftpdTranscript(t, base+"//etc/motd")
		if status != exitRefused || stdout != "" || !strings.Contains(trace, "rfc1738 get: ") || !strings.Contains(trace, "CWD : 550") {
			t.Fatalf("status %d, %q", status, stdout)
		}
		want := []string{"USER anonymous", "PASS ****", "CWD ", "QUIT"}
		if got := conversation(trace); !reflect.DeepEqual(got, want) {
			t.Errorf("sent %q, want %q", got, want)
		}
	})

	t.Run("type=d", func(t *testing.T) {
		stdout, _, status := runCLI(t, "", "get", base+"/pub;type=d")
		if status != 0 || !strings.Contains(stdout, "pub/a b;c.txt  "+base+"/pub/a%20b%3Bc.txt\n") || !strings.Contains(stdout, "pub/binary.bin  ") {
			t.Errorf("status %d, listing:\n%s", status, stdout)
		}
		stdout, _, _ = runCLI(t, "", "get", "--json", base+"/pub/;type=d")
		if !strings.Contains(stdout, `{"name":"a b;c.txt","url":"`+base+`/pub/a%20b%3Bc.txt"}`+"\n") {
			t.Errorf("JSON listing:\n%s", stdout)
		}
		stdout, _, _ = runCLI(t, "", "get", "--raw", base+"/pub/;type=d")
		if !strings.Contains(stdout, "a b;c.txt\r\n") {
			t.Errorf("raw listing %q", stdout)
		}
	})
	t.Run("type=a", func(t *testing.T) {
		// TYPE A: NVT-ASCII on the wire (vsftpd turns LF into CRLF), the
		// local LF written; --raw keeps the wire's bytes.
		stdout, _, status := runCLI(t, "", "get", base+"/pub/lf.txt;type=a")
		if status != 0 || stdout != "line1\nline2\n" {
			t.Errorf("status %d, %q", status, stdout)
		}
		stdout, _, _ = runCLI(t, "", "get", "--raw", base+"/pub/lf.txt;type=a")
		if stdout != "line1\r\nline2\r\n" {
			t.Errorf("--raw: %q", stdout)
		}
		// Without a typecode the guess is TYPE I: the bytes as stored.
		stdout, _, _ = runCLI(t, "", "get", base+"/pub/lf.txt")
		if stdout != "line1\nline2\n" {
			t.Errorf("guessed type: %q", stdout)
		}
	})
	t.Run("space and semicolon", func(t *testing.T) {
		stdout, _, status := runCLI(t, "", "get", base+"/pub/a%20b%3Bc.txt")
		if status != 0 || stdout != "weird; name\n" {
			t.Errorf("status %d, %q", status, stdout)
		}
	})
	t.Run("local user with password", func(t *testing.T) {
		url := "ftp://" + testserver.VSFTPDUser + ":" + testserver.VSFTPDPassword + "@" + addr + "/files/local.txt"
		stdout, trace, status := vsftpdTranscript(t, url)
		if status != 0 || stdout != "local user file\n" {
			t.Fatalf("status %d, %q", status, stdout)
		}
		if strings.Contains(trace, testserver.VSFTPDPassword) || !strings.Contains(trace, "> PASS ****") {
			t.Errorf("the trace shows the password:\n%s", trace)
		}
		// A wrong password: the server's 530, one line.
		_, stderr, status := runCLI(t, "", "get", "ftp://"+testserver.VSFTPDUser+":wrong@"+addr+"/files/local.txt")
		if status != exitAuth || !strings.Contains(stderr, "530") || strings.Count(stderr, "\n") != 1 {
			t.Errorf("wrong password: %d %q", status, stderr)
		}
	})
	t.Run("password prompt", func(t *testing.T) {
		c := access.NewClient()
		var questions []string
		c.Prompt = func(q string, secret bool) (string, error) {
			questions = append(questions, q)
			if !secret {
				t.Error("the password was asked with echo")
			}
			return testserver.VSFTPDPassword, nil
		}
		u, err := rfc1738.Parse("ftp://" + testserver.VSFTPDUser + "@" + addr + "/files/local.txt")
		if err != nil {
			t.Fatal(err)
		}
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		defer cancel()
		resp, err := c.Get(ctx, u)
		if err != nil {
			t.Fatal(err)
		}
		b, _ := io.ReadAll(resp.Body)
		if err := resp.Body.Close(); err != nil {
			t.Fatal(err)
		}
		if string(b) != "local user file\n" || len(questions) != 1 || !strings.Contains(questions[0], testserver.VSFTPDUser+"@127.0.0.1") {
			t.Errorf("body %q, questions %q", b, questions)
		}
	})
	t.Run("plan --json", func(t *testing.T) {
		url := "ftp://" + testserver.VSFTPDUser + "@" + addr + "/%2Fetc/motd"
		stdout, _, status := runCLI(t, "", "plan", "--json", url)
		if status != 0 {
			t.Fatalf("status %d", status)
		}
		var got map[string]any
		if err := json.Unmarshal([]byte(stdout), &got); err != nil {
			t.Fatal(err)
		}
		keys := make([]string, 0, len(got))
		for k := range got {
			keys = append(keys, k)
		}
		want := map[string]any{
			"url": url, "scheme": "ftp", "connect": addr,
			"steps": []any{"USER " + testserver.VSFTPDUser, "PASS <asked>", "CWD /etc", "TYPE I", "RETR motd", "QUIT"},
		}
		for k, v := range want {
			if !reflect.DeepEqual(got[k], v) {
				t.Errorf("%s = %v, want %v", k, got[k], v)
			}
		}
		warnings, _ := got["warnings"].([]any)
		notes, _ := got["notes"].([]any)
		if len(got) != 6 || len(warnings) != 1 || len(notes) == 0 {
			t.Errorf("keys %q, warnings %v, notes %v", keys, warnings, notes)
		}
	})
}
