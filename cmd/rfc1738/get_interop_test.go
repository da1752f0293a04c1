package main

import (
	"bytes"
	"context"
	"io"
	"os/exec"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/rfc1738/rfc1738"
	"github.com/rfc1738/rfc1738/access"
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

	// pyftpdlib's 150 reply has no count; FEAT lists SIZE, which gives
	// the size for progress and the length check.
	t.Run("SIZE", func(t *testing.T) {
		stdout, trace, status := runCLI(t, "", "get", "-v", base+"/pub/hello.txt")
		n := strconv.Itoa(len(pyftpdlibFiles["pub/hello.txt"]))
		if status != 0 || stdout != pyftpdlibFiles["pub/hello.txt"] ||
			!strings.Contains(trace, "> SIZE hello.txt\n< 213 "+n+"\n") {
			t.Errorf("status %d, %q\n%s", status, stdout, trace)
		}
		if got := conversation(trace); !slices.Equal(got, []string{"USER anonymous", "PASS ****", "CWD pub", "TYPE I", "FEAT", "SIZE hello.txt", "EPSV", "RETR hello.txt", "QUIT"}) {
			t.Errorf("sent %q", got)
		}
		c := access.NewClient()
		u, _ := rfc1738.Parse(base + "/pub/hello.txt")
		ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
		defer cancel()
		resp, err := c.Get(ctx, u)
		if err != nil {
			t.Fatal(err)
		}
		io.Copy(io.Discard, resp.Body)
		if err := resp.Body.Close(); err != nil || resp.Size != int64(len(pyftpdlibFiles["pub/hello.txt"])) {
			t.Errorf("Response.Size %d, %v", resp.Size, err)
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

// TestGetGopherLikeCurl fetches gophernicus's text files that an RFC 1436
// reader cuts short or alters — a lone "." line inside, ".." lines, a
// last line that is only "." — and the root menu, and compares the bytes
// with curl's: --raw gives exactly curl's bytes, the default the same text
// with local line ends. -v says how the text was read.
func TestGetGopherLikeCurl(t *testing.T) {
	srv := testserver.Gophernicus(t)
	base := "gopher://" + srv.Addr
	for _, path := range []string{"/0/lonedot.txt", "/0/dots.txt", "/0/hello.txt", "/0/dotend.txt", "/1/"} {
		t.Run(path, func(t *testing.T) {
			want := curlBytes(t, base+path)
			raw, stderr, status := runCLI(t, "", "get", "--raw", base+path)
			if status != 0 || raw != string(want) {
				t.Errorf("--raw: status %d (%s): %q\ncurl gives %q", status, stderr, raw, want)
			}
			if path == "/1/" {
				if !strings.HasSuffix(raw, "\n.\r\n") && !strings.HasSuffix(raw, "\n.\n") {
					t.Errorf("--raw menu lacks its final \".\" line: %q", raw)
				}
				return
			}
			text, trace, status := runCLI(t, "", "get", "-v", base+path)
			local := strings.ReplaceAll(string(want), "\r\n", "\n")
			if path == "/0/dotend.txt" {
				// The last line "." cannot be told from a terminator: it
				// is taken as one, and -v says so.
				local = strings.TrimSuffix(local, ".\n")
				if !strings.Contains(trace, `a lone "." line then the close ended it`) {
					t.Errorf("-v does not say the \".\" line ended the text:\n%s", trace)
				}
			} else if !strings.Contains(trace, `the close ended it, no lone "." line before it`) {
				t.Errorf("-v does not say how the text was read:\n%s", trace)
			}
			if status != 0 || text != local {
				t.Errorf("status %d: %q, want curl's text with local line ends %q", status, text, local)
			}
		})
	}
	t.Run("lone dot counted", func(t *testing.T) {
		out, trace, status := runCLI(t, "", "get", "-v", base+"/0/lonedot.txt")
		if status != 0 || out != "line1\n.\n..dots\nend\n" || !strings.Contains(trace, `1 lone "." line(s) inside kept as data; 1 ".." line(s) kept as sent`) {
			t.Errorf("status %d %q\n%s", status, out, trace)
		}
	})
	t.Run("--gopher-unstuff", func(t *testing.T) {
		out, trace, status := runCLI(t, "", "get", "-v", "--gopher-unstuff", base+"/0/dots.txt")
		if status != 0 || out != ".dot line\n.two dots\nplain\n" || !strings.Contains(trace, `1 ".." line(s) un-stuffed`) {
			t.Errorf("status %d %q\n%s", status, out, trace)
		}
	})
}

// TestGetGopherURLLinks: gophernicus serves "h" items with "URL:"
// selectors as they are; the listing shows the URLs they point to (the
// space encoded, §2.2), other items their gopher URLs.
func TestGetGopherURLLinks(t *testing.T) {
	srv := testserver.Gophernicus(t)
	base := "gopher://" + srv.Addr
	out, stderr, status := runCLI(t, "", "get", base+"/1/links")
	for _, want := range []string{
		"(HTML)  Example link  <URL:http://example.org/>\n",
		"(HTML)  Spaced link  <URL:http://example.org/a%20b.html>\n",
		"(HTML)  Local page  <URL:" + base + "/h/links/page.html>\n",
	} {
		if status != 0 || !strings.Contains(out, want) {
			t.Errorf("status %d (%s): listing lacks %q:\n%s", status, stderr, want, out)
		}
	}
	out, _, _ = runCLI(t, "", "get", "--json", base+"/1/links")
	if !strings.Contains(out, `"selector":"URL:http://example.org/","host":"127.0.0.1","port":`) || !strings.Contains(out, `"url":"http://example.org/"}`) {
		t.Errorf("JSON listing:\n%s", out)
	}
}
