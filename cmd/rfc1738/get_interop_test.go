package main

import (
	"bytes"
	"context"
	"os/exec"
	"strings"
	"testing"
	"time"

	"github.com/rfc1738/rfc1738/internal/testserver"
)

// curlBytes returns what curl writes for url: the reference the
// interoperability tests compare bytes with. Without curl the test is
// Unavailable (a failure under CI=true).
func curlBytes(t *testing.T, url string, args ...string) []byte {
	t.Helper()
	bin := testserver.Need(t, "curl")
	if bin == nil {
		return nil
	}
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	var stderr bytes.Buffer
	cmd := exec.CommandContext(ctx, bin[0], append([]string{"-sS"}, append(args, url)...)...)
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("curl %s: %v: %s", url, err, stderr.String())
	}
	return out
}

// pyftpdlibFiles is the tree TestGetFTPPyftpdlib serves.
var pyftpdlibFiles = map[string]string{
	"pub/hello.txt": "hello from pyftpdlib\n",
	"pub/crlf.txt":  "a\r\nb\nc\r\n", // mixed: TYPE A sends CRLF for each
	"pub/lf.txt":    "line1\nline2\n",
	"pub/why?.txt":  "a question mark\n",
}

// TestGetFTPPyftpdlib runs get against pyftpdlib, an ftp server unlike
// vsftpd: "NLST pub" answers bare names, the 150 reply has no byte count,
// FEAT lists SIZE.
func TestGetFTPPyftpdlib(t *testing.T) {
	addr, _ := testserver.Pyftpdlib(t, pyftpdlibFiles)
	base := "ftp://" + addr

	t.Run("type=d bare names", func(t *testing.T) {
		stdout, stderr, status := runCLI(t, "", "get", base+"/pub;type=d")
		want := "crlf.txt  " + base + "/pub/crlf.txt\n" +
			"hello.txt  " + base + "/pub/hello.txt\n" +
			"lf.txt  " + base + "/pub/lf.txt\n" +
			"why?.txt  " + base + "/pub/why%3F.txt\n"
		if status != 0 || stdout != want {
			t.Errorf("status %d (%s), listing\n%s\nwant\n%s", status, stderr, stdout, want)
		}
		// Each listed URL fetches its file.
		stdout, _, status = runCLI(t, "", "get", base+"/pub/why%3F.txt")
		if status != 0 || stdout != pyftpdlibFiles["pub/why?.txt"] {
			t.Errorf("listed URL: status %d, %q", status, stdout)
		}
	})

	// §3.2.1: the anonymous user named in the URL, no terminal to ask on
	// (pyftpdlib knows no "ftp" alias; TestGetFTPVsftpdAnonymousUser).
	t.Run("anonymous@", func(t *testing.T) {
		stdout, stderr, status := runCLI(t, "", "get", "ftp://anonymous@"+addr+"/pub/hello.txt")
		if status != 0 || stdout != pyftpdlibFiles["pub/hello.txt"] {
			t.Errorf("status %d, %q, stderr %q", status, stdout, stderr)
		}
	})

	t.Run("type=a like curl", func(t *testing.T) {
		for _, name := range []string{"crlf.txt", "lf.txt"} {
			url := base + "/pub/" + name + ";type=a"
			want := curlBytes(t, url)
			stdout, stderr, status := runCLI(t, "", "get", url)
			if status != 0 || stdout != string(want) {
				t.Errorf("%s: status %d (%s): %q, curl gives %q", name, status, stderr, stdout, want)
			}
			if strings.Contains(stdout, "\r") {
				t.Errorf("%s: CR left in local text %q", name, stdout)
			}
			// --raw keeps the wire's NVT-ASCII.
			stdout, _, _ = runCLI(t, "", "get", "--raw", url)
			if wire := strings.ReplaceAll(string(want), "\n", "\r\n"); stdout != wire {
				t.Errorf("%s --raw: %q, want the wire's %q", name, stdout, wire)
			}
		}
	})
}

// TestGetFTPVsftpdAnonymousUser: vsftpd takes "anonymous" and its alias
// "ftp" as anonymous logins; named in the URL without a password they get
// the §3.2.1 e-mail password, and no terminal is needed.
func TestGetFTPVsftpdAnonymousUser(t *testing.T) {
	addr, _ := testserver.VSFTPD(t)
	for _, user := range []string{"anonymous", "ftp"} {
		t.Run(user+"@", func(t *testing.T) {
			stdout, trace, status := vsftpdTranscript(t, "ftp://"+user+"@"+addr+"/hello.txt")
			if status != 0 || stdout != testserver.VSFTPDFiles["hello.txt"] {
				t.Fatalf("status %d, %q", status, stdout)
			}
			if got := conversation(trace); len(got) < 2 || got[0] != "USER "+user || got[1] != "PASS ****" {
				t.Errorf("sent %q", got)
			}
		})
	}
}
