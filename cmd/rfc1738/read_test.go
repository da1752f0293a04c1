package main

import (
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/rfc1738/rfc1738/internal/testenv"
	"github.com/rfc1738/rfc1738/internal/testserver"
	"github.com/rfc1738/rfc1738/mirror"
)

// serveIPv6 starts an http server on [::1]:0 that answers every request
// with its request-URI and Host header, and records them.
func serveIPv6(t *testing.T) (base string, seen func() []string) {
	t.Helper()
	l, err := net.Listen("tcp", "[::1]:0")
	if err != nil {
		testenv.Unavailable(t, "no IPv6 loopback: %v", err)
		return "", nil
	}
	var mu sync.Mutex
	var reqs []string
	srv := httptest.NewUnstartedServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		reqs = append(reqs, r.Host+" "+r.RequestURI)
		mu.Unlock()
		io.WriteString(w, "six\n")
	}))
	srv.Listener.Close()
	srv.Listener = l
	srv.Start()
	t.Cleanup(srv.Close)
	return srv.URL, func() []string {
		mu.Lock()
		defer mu.Unlock()
		return append([]string(nil), reqs...)
	}
}

// TestGetIPv6: get fetches from an IPv6 literal (RFC 3986 §3.2.2) as curl
// and wget do, with one warning naming the form; --strict refuses it,
// naming the real cause, and sends nothing.
func TestGetIPv6(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the binary")
	}
	base, seen := serveIPv6(t)
	if !strings.HasPrefix(base, "http://[::1]:") {
		t.Fatalf("server at %s", base)
	}
	u := base + "/f.txt"
	out, stderr, status := runBinary(t, "", "get", u)
	if status != exitOK || out != "six\n" {
		t.Fatalf("get %s: status %d, stdout %q:\n%s", u, status, out, stderr)
	}
	host := strings.TrimPrefix(base, "http://")
	if got := strings.Join(seen(), ";"); got != host+" /f.txt" {
		t.Errorf("the server saw %q", got)
	}
	if n := strings.Count(stderr, "warning:"); n != 1 || !strings.Contains(stderr, "IPv6 literal [::1] (RFC 3986 §3.2.2") {
		t.Errorf("want one warning naming the IPv6 literal:\n%s", stderr)
	}
	_, stderr, status = runBinary(t, "", "get", "--strict", u)
	if status != exitUsage || len(seen()) != 1 || !strings.Contains(stderr, "cause: IPv6 literal: RFC 3986 §3.2.2, not RFC 1738 §3.1") {
		t.Errorf("get --strict: status %d, %d requests:\n%s", status, len(seen()), stderr)
	}
	// A search with no path, and an embedded IPv4 spelling of the host.
	q := base + "?x=1"
	out, stderr, status = runBinary(t, "", "get", q)
	if status != exitOK || out != "six\n" || !strings.Contains(stderr, "the search follows a path; read as "+base+"/?x=1 (RFC 3986 §3.3; RFC 1738 §3.3 wants \"/\")") {
		t.Errorf("get %s: status %d:\n%s", q, status, stderr)
	}
	if got := seen(); got[len(got)-1] != host+" /?x=1" {
		t.Errorf("the server saw %q", got)
	}
}

// TestGetFormsStrict: each form read by default keeps today's refusal
// under --strict, with a message that names the real cause.
func TestGetFormsStrict(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the binary")
	}
	for u, cause := range map[string]string{
		"http://bücher.test/x":             "cause: international name; its A-label is xn--bcher-kva.test",
		"https://example.com?search=hello": "cause: the search follows the path: add `/` before `?`",
		"http://h:37180?x=1":               "cause: the search follows the path: add `/` before `?`",
		"http://[::1/":                     "cause: IP-literal: an IPv6 literal ends with \"]\"",
	} {
		_, stderr, status := runBinary(t, "", "plan", "--strict", u)
		if status != exitUsage || !strings.Contains(stderr, cause) {
			t.Errorf("plan --strict %s: status %d, want %q:\n%s", u, status, cause, stderr)
		}
	}
	// By default plan shows the A-label on the wire.
	out, stderr, status := runBinary(t, "", "plan", "http://bücher.test/x")
	if status != exitOK || !strings.Contains(out, "Host: xn--bcher-kva.test") || !strings.Contains(stderr, "sent as its A-label xn--bcher-kva.test") {
		t.Errorf("plan: status %d:\n%s\n%s", status, out, stderr)
	}
	// What nothing reads stays invalid by default.
	for _, u := range []string{"http://", "ftp://h:99999/"} {
		_, stderr, status := runBinary(t, "", "plan", u)
		if status != exitUsage || !strings.Contains(stderr, "is not a valid RFC 1738 URL") && !strings.Contains(stderr, "nothing") {
			t.Errorf("plan %s: status %d:\n%s", u, status, stderr)
		}
	}
}

// TestGetFTPIPv6: an ftp URL with an IPv6 literal is fetched from vsftpd
// listening on ::1 alone; the data connection is EPSV's (RFC 2428 §3).
func TestGetFTPIPv6(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the binary")
	}
	addr, root := testserver.VSFTPD6(t)
	if addr == "" {
		return
	}
	u := "ftp://" + addr + "/pub/nested/inner.txt"
	out, stderr, status := runBinary(t, "", "get", u)
	if status != exitOK || out != "nested file\n" {
		t.Fatalf("get %s: status %d, stdout %q:\n%s\n%s", u, status, out, stderr, testserver.VSFTPDLog(root))
	}
	if !strings.Contains(testserver.VSFTPDLog(root), "EPSV") {
		t.Errorf("no EPSV in the server's log:\n%s", testserver.VSFTPDLog(root))
	}
	if !strings.Contains(stderr, "IPv6 literal [::1]") {
		t.Errorf("no warning:\n%s", stderr)
	}
}

// TestLinkcheckReads: a link a browser reads is checked as read, ok or
// broken, with its departures from RFC 1738 as warnings; invalid is only
// for what nothing reads. The exit status counts broken and invalid, not
// warnings, unless --warnings-as-errors; --strict holds links to RFC 1738.
func TestLinkcheckReads(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the binary")
	}
	l, err := net.Listen("tcp", "[::1]:0")
	if err != nil {
		testenv.Unavailable(t, "no IPv6 loopback: %v", err)
		return
	}
	srv := httptest.NewUnstartedServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/missing" {
			http.NotFound(w, r)
			return
		}
		io.WriteString(w, "here\n")
	}))
	srv.Listener.Close()
	srv.Listener = l
	srv.Start()
	t.Cleanup(srv.Close)
	base := srv.URL // http://[::1]:PORT
	good := base + "?search=hello\n" + base + "/f.txt\n"
	dir := t.TempDir()
	writeTestFile(t, dir+"/good.txt", good)
	out, stderr, status := runBinary(t, "", "linkcheck", "-q", dir+"/good.txt")
	if status != exitOK || !strings.Contains(out, "2 ok, 0 broken, 0 invalid") ||
		!strings.Contains(out, "warning: "+base+"?search=hello: the search follows a path; read as "+base+"/?search=hello (RFC 3986 §3.3") ||
		!strings.Contains(out, "IPv6 literal [::1] (RFC 3986 §3.2.2") {
		t.Errorf("linkcheck good.txt: status %d:\n%s\n%s", status, out, stderr)
	}
	_, _, status = runBinary(t, "", "linkcheck", "-q", "--warnings-as-errors", dir+"/good.txt")
	if status != exitNegative {
		t.Errorf("--warnings-as-errors: status %d", status)
	}
	out, _, status = runBinary(t, "", "linkcheck", "-q", "--json", base+"?q=1")
	if status != exitOK || !strings.Contains(out, `"result":"ok"`) || !strings.Contains(out, `"the search follows a path; read as `+base+`/?q=1`) {
		t.Errorf("--json: status %d:\n%s", status, out)
	}
	out, _, status = runBinary(t, "", "linkcheck", "-q", "--strict", dir+"/good.txt")
	if status != exitNegative || !strings.Contains(out, "0 ok, 0 broken, 2 invalid") {
		t.Errorf("--strict: status %d:\n%s", status, out)
	}
	// Broken and invalid still count; a zone ID is no link (RFC 6874 §1).
	out, _, status = runBinary(t, "", "linkcheck", "-q", base+"/missing", "http://", "ftp://h:99999/", "http://[fe80::1%25lo]/")
	if status != exitNegative || !strings.Contains(out, "1 broken, 3 invalid") || !strings.Contains(out, "zone ID") {
		t.Errorf("linkcheck: status %d:\n%s", status, out)
	}
}

func writeTestFile(t *testing.T, path, content string) {
	t.Helper()
	if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
}

// TestURLReads: url reads its input as browsers do, gives https http's
// parts (RFC 2818 §2.4), and --redirect prints the resolution RFC 1808
// (or RFC 3986) gives even when it is not an RFC 1738 URL, with a warning.
func TestURLReads(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the binary")
	}
	const base = "http://a/b/c/d;p?q#f" // RFC 1808 §5
	tests := []struct {
		args       []string
		out, warns string
		status     int
	}{
		{[]string{"--url", base, "--redirect", "g?y/./x"}, "http://a/b/c/g?y/./x\n", "warning:", exitOK}, // RFC 1808 §5.1
		{[]string{"--url", base, "--redirect", "http:g"}, "http:g\n", "warning:", exitOK},                // RFC 1808 §5.2
		{[]string{"--rfc3986", "--url", base, "--redirect", ""}, "http://a/b/c/d;p?q\n", "", exitOK},     // RFC 3986 §5.4.1
		{[]string{"--url", "https://curl.se/hello", "--append", "path=you"}, "https://curl.se/hello/you\n", "", exitOK},
		{[]string{"--url", "https://curl.se/a%20b?x=1", "--get", "{http.path}|{http.search}"}, "a b|x=1\n", "", exitOK},
		{[]string{"--url", "https://example.com?search=hello&utm_source=x", "--trim", "query=utm_*"}, "https://example.com/?search=hello\n", "the search follows a path", exitOK},
		{[]string{"--url", "http://[::1]:8080/x", "--get", "{host} {port} {http.path}"}, "[::1] 8080 x\n", "IPv6 literal [::1]", exitOK},
		{[]string{"--url", "http://bücher.test/x"}, "http://xn--bcher-kva.test/x\n", "A-label xn--bcher-kva.test", exitOK},
		{[]string{"--strict", "--url", "http://[::1]:8080/x"}, "\n", "", exitNegative},
		{[]string{"--json", "--url", "http://h?q"}, "[\n  {\n    \"url\": \"http://h/?q\",\n    \"parts\": {\n      \"scheme\": \"http\",\n      \"host\": \"h\",\n      \"port\": \"80\",\n      \"path\": \"/\",\n      \"query\": \"q\"\n    },\n    \"params\": [\n      {\n        \"key\": \"q\",\n        \"value\": \"\"\n      }\n    ],\n    \"warnings\": [\n      \"the search follows a path; read as http://h/?q (RFC 3986 §3.3; RFC 1738 §3.3 wants \\\"/\\\")\"\n    ]\n  }\n]\n", "", exitOK},
		{[]string{"--strict", "--url", base, "--redirect", "http:g"}, "\n", "", exitNegative},
	}
	for _, tt := range tests {
		out, stderr, status := runBinary(t, "", append([]string{"url"}, tt.args...)...)
		if out != tt.out || status != tt.status || tt.warns != "" && !strings.Contains(stderr, tt.warns) {
			t.Errorf("url %q: status %d, stdout %q, want %q:\n%s", tt.args, status, out, tt.out, stderr)
		}
	}
}

// TestNormalizeLenientReads: normalize --lenient reads as browsers do:
// the A-label (IDNA2008) and RFC 5952's canonical IPv6 text.
func TestNormalizeLenientReads(t *testing.T) {
	out, stderr, status := runCLI(t, "", "normalize", "--lenient", "http://BÜCHER.test/x", "http://[2001:DB8:0:0:0:0:0:1]:80/", "https://example.com?q")
	want := "http://xn--bcher-kva.test/x\nhttp://[2001:db8::1]/\nhttps://example.com/?q\n"
	if status != exitOK || out != want || !strings.Contains(stderr, "IPv6 literal") {
		t.Errorf("normalize --lenient: status %d, %q, want %q:\n%s", status, out, want, stderr)
	}
	// Without --lenient, RFC 1738 alone.
	if _, _, status := runCLI(t, "", "normalize", "http://[::1]/"); status != exitNegative {
		t.Errorf("normalize http://[::1]/: status %d", status)
	}
}

// TestExtractInternationalName: extract finds a URL with an international
// name in documentation and marks it not RFC 1738, with its A-label.
func TestExtractInternationalName(t *testing.T) {
	out, stderr, status := runCLI(t, "Try https://測試/?abc today.\n", "extract", "--json")
	if status != exitOK || !strings.Contains(out, `"url":"https://測試/?abc"`) || !strings.Contains(out, `"valid":false`) ||
		!strings.Contains(out, `"repaired":"https://xn--g6w251d/?abc"`) || !strings.Contains(out, "its A-label is xn--g6w251d") {
		t.Errorf("extract: status %d:\n%s\n%s", status, out, stderr)
	}
}

// TestGetGopherIPv6: a gopher URL with an IPv6 literal is fetched from
// gophernicus listening on ::1 alone.
func TestGetGopherIPv6(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the binary")
	}
	g := testserver.Gophernicus6(t)
	if g == nil {
		return
	}
	u := fmt.Sprintf("gopher://[::1]:%d/0/hello.txt", g.Port)
	out, stderr, status := runBinary(t, "", "get", u)
	if status != exitOK || out != "Hello from gopher.\nSecond line.\n" || !strings.Contains(stderr, "IPv6 literal [::1]") {
		t.Errorf("get %s: status %d, stdout %q:\n%s", u, status, out, stderr)
	}
}

// TestBrowseDumpIPv6: browse reads its start URL as browsers do: an IPv6
// literal and a search with no path.
func TestBrowseDumpIPv6(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the binary")
	}
	base, seen := serveIPv6(t)
	out, stderr, status := runBinary(t, "", "browse", "--dump", base+"?x=1")
	host := strings.TrimPrefix(base, "http://")
	if status != exitOK || !strings.Contains(out, "six") || !strings.Contains(stderr, "IPv6 literal [::1]") ||
		len(seen()) != 1 || seen()[0] != host+" /?x=1" {
		t.Errorf("browse --dump: status %d, requests %q:\n%s\n%s", status, seen(), out, stderr)
	}
}

// TestParseNamesCause: parse judges as RFC 1738 does, and for an invalid
// URL that browsers read names the real cause and the URL they use.
func TestParseNamesCause(t *testing.T) {
	for in, want := range map[string]string{
		"http://h:37180?x=1":   "cause: the search follows the path: add `/` before `?`\n  browsers and curl read it as http://h:37180/?x=1",
		"http://[::1]:8080/":   "cause: IPv6 literal: RFC 3986 §3.2.2, not RFC 1738 §3.1",
		"http://bücher.test/x": "cause: international name; its A-label is xn--bcher-kva.test",
	} {
		out, _, status := runCLI(t, "", "parse", in)
		if status != exitNegative || !strings.Contains(out, want) {
			t.Errorf("parse %s: status %d, want %q:\n%s", in, status, want, out)
		}
	}
}

// TestMirrorFTPIPv6: mirror reads an IPv6 literal as get does (RFC 3986
// §3.2.2), with the warning, against vsftpd on ::1: every URL it makes
// from the tree keeps the literal; --strict refuses it before a
// connection and names the cause.
func TestMirrorFTPIPv6(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the binary")
	}
	addr, root := testserver.VSFTPD6(t)
	if addr == "" {
		return
	}
	dir := t.TempDir()
	u := "ftp://" + addr + "/pub/"
	_, stderr, status := runBinary(t, "", "mirror", "-q", u, dir)
	if status != exitOK {
		t.Fatalf("mirror %s: status %d:\n%s\n%s", u, status, stderr, testserver.VSFTPDLog(root))
	}
	if !strings.Contains(stderr, "IPv6 literal [::1]") {
		t.Errorf("no warning:\n%s", stderr)
	}
	b, err := os.ReadFile(filepath.Join(dir, "nested", "inner.txt"))
	if err != nil || string(b) != "nested file\n" {
		t.Errorf("nested/inner.txt: %q, %v", b, err)
	}
	manifest, _ := os.ReadFile(filepath.Join(dir, mirror.ManifestName))
	if !strings.Contains(string(manifest), "ftp://"+addr+"/pub/nested/inner.txt") {
		t.Errorf("the manifest does not name the file by its IPv6 URL:\n%s", manifest)
	}
	strictDir := t.TempDir()
	_, stderr, status = runBinary(t, "", "mirror", "--strict", u, strictDir)
	if status != exitUsage || !strings.Contains(stderr, "IPv6 literal") {
		t.Errorf("mirror --strict %s: status %d, want %d with the cause:\n%s", u, status, exitUsage, stderr)
	}
}
