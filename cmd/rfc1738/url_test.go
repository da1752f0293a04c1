package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestBinaryURL: templates over the parts, scheme parts included; --set,
// --append, --iterate; one output line per input line, an invalid input
// an empty one, with its error on stderr.
func TestBinaryURL(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the binary")
	}
	in := "ftp://myname@host.dom/%2Fetc/motd;type=a\nnot a url\ngopher://h:7070/0/a%20b\n"
	out, errOut, status := runBinary(t, in, "url", "--get", "{host}:{port} {ftp.type}{gopher.selector}")
	// §3.2.2's example, then the empty line, then a gopher selector (§3.4).
	if out != "host.dom:21 a\n\nh:7070 /a b\n" {
		t.Errorf("--get: %q", out)
	}
	if status != exitNegative || strings.Count(errOut, "\n") != 1 || !strings.HasPrefix(errOut, `rfc1738 url: "not a url": offset 3: scheme:`) {
		t.Errorf("status %d, stderr %q", status, errOut)
	}
	out, errOut, status = runBinary(t, "", "url", "--set", "host=b.org", "--append", "path=x y", "--iterate", "port=8080 8081", "http://a.org/d/?q=%26")
	if status != 0 || out != "http://b.org:8080/d/x%20y?q=%26\nhttp://b.org:8081/d/x%20y?q=%26\n" {
		t.Errorf("set, append, iterate: %d %q %q", status, out, errOut)
	}
	// A decoded line end cannot break the alignment.
	out, _, _ = runBinary(t, "", "url", "--get", "{gopher.selector}", "gopher://h/0a%0Ab")
	if out != "a\\nb\n" {
		t.Errorf("decoded LF: %q", out)
	}
	_, errOut, status = runBinary(t, "", "url", "--get", "{ftp.typo}", "http://h/")
	if status != exitNegative || !strings.Contains(errOut, "{ftp.typo}: no such part in a http URL") {
		t.Errorf("unknown part: %d %q", status, errOut)
	}
	file := filepath.Join(t.TempDir(), "urls")
	os.WriteFile(file, []byte("news:comp.lang.go\nmailto:a@b.org\n"), 0o644)
	out, _, _ = runBinary(t, "", "url", "--url-file", file, "--get", "{scheme} {news.group}{mailto.address}")
	if out != "news comp.lang.go\nmailto a@b.org\n" {
		t.Errorf("--url-file: %q", out)
	}
}

// TestBinaryNormalizeAligned: normalize on stdin writes one line per
// input line, an empty one for an invalid input.
func TestBinaryNormalizeAligned(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the binary")
	}
	out, errOut, status := runBinary(t, "HTTP://A.org/\nnot a url\nftp://h/%7Ex\n", "normalize")
	if status != exitNegative || out != "http://a.org/\n\nftp://h/%7Ex\n" || strings.Count(errOut, "\n") != 1 {
		t.Errorf("%d %q %q", status, out, errOut)
	}
}
