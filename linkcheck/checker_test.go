package linkcheck_test

import (
	"context"
	"fmt"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/rfc1738/rfc1738/access"
	"github.com/rfc1738/rfc1738/internal/testserver"
	"github.com/rfc1738/rfc1738/linkcheck"
)

// verdict is one expected check: the status, and words the detail holds.
type verdict struct {
	url    string
	status linkcheck.Status
	detail string
}

func testCtx(t *testing.T) context.Context {
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	t.Cleanup(cancel)
	return ctx
}

func newChecker(t *testing.T) *linkcheck.Checker {
	c := access.NewClient()
	c.Email = "test@example.org"
	c.AllowAnyPort = true // the test servers listen on free ports
	k := &linkcheck.Checker{Client: c, Timeout: 5 * time.Second, Backoff: time.Millisecond}
	t.Cleanup(func() { k.Close() })
	return k
}

func checkAll(t *testing.T, k *linkcheck.Checker, tests []verdict) {
	t.Helper()
	ctx := testCtx(t)
	for _, tt := range tests {
		st, detail := k.Check(ctx, tt.url)
		if st != tt.status || !strings.Contains(detail, tt.detail) {
			t.Errorf("Check(%s) = %s, %q; want %s with %q", tt.url, st, detail, tt.status, tt.detail)
		}
	}
}

// ftpFake serves fakeTree with SIZE; handle may take over commands.
func ftpFake(t *testing.T, handle func(s *testserver.FTPSession, line string) bool) *testserver.FTPFake {
	files := map[string]string{"/pub/hello.txt": "hello\r\n", "/pub/nested/in.txt": "nested\n", "/top.txt": "top\n"}
	return testserver.NewFTPFake(t, testserver.FTPFakeOptions{Files: files, Handle: func(s *testserver.FTPSession, line string) bool {
		if handle != nil && handle(s, line) {
			return true
		}
		verb, arg, _ := strings.Cut(line, " ")
		if verb == "SIZE" {
			p := strings.TrimSuffix(s.Dir(), "/") + "/" + arg
			if data, ok := files[p]; ok {
				s.Reply("213 " + itoa(len(data)))
			} else {
				s.Reply("550 Could not get file size.")
			}
			return true
		}
		return false
	}})
}

func itoa(n int) string {
	if n < 10 {
		return string(rune('0' + n))
	}
	return itoa(n/10) + string(rune('0'+n%10))
}

// §3.2.2 on one login: CWD per segment, SIZE for a file and a RETR
// closed at its 150 to prove it retrievable (no MLST in FEAT, asked once
// per login), CWD for a directory, back to the login directory between
// URLs.
func TestFTPSequence(t *testing.T) {
	f := ftpFake(t, nil)
	k := newChecker(t)
	k.PerHost = 1
	base := "ftp://" + f.Addr
	checkAll(t, k, []verdict{
		{base + "/pub/hello.txt", linkcheck.OK, "file, 7 bytes"},
		{base + "/pub/missing.txt", linkcheck.Broken, "SIZE missing.txt: 550"},
		{base + "/nowhere/hello.txt", linkcheck.Broken, "CWD nowhere: 550"},
		{base + "/pub/nested", linkcheck.OK, "directory"},        // no typecode: SIZE refuses, CWD accepts
		{base + "/pub/nested/", linkcheck.OK, "directory"},       // §3.2.2: an empty name
		{base + "/pub/nested;type=d", linkcheck.OK, "directory"}, // §3.2.2: ;type=d
		{base + "/top.txt", linkcheck.OK, "file, 4 bytes"},
	})
	want := []string{
		"USER anonymous", "PASS test@example.org", "PWD",
		"CWD pub", "TYPE I", "SIZE hello.txt", "FEAT", "EPSV", "RETR hello.txt", "CWD /",
		"CWD pub", "SIZE missing.txt", "CWD missing.txt", "CWD /",
		"CWD nowhere", "CWD /",
		"CWD pub", "SIZE nested", "CWD nested", "CWD /",
		"CWD pub", "CWD nested", "CWD /",
		"CWD pub", "CWD nested", "CWD /",
		"SIZE top.txt", "EPSV", "RETR top.txt",
	}
	if got := f.Commands(); strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("commands:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

// A file SIZE answers but RETR refuses (mode 600 on vsftpd) is broken:
// SIZE proves a name, not a file one can fetch. With MLST, its perm fact
// tells without a transfer.
func TestFTPUnreadable(t *testing.T) {
	f := ftpFake(t, func(s *testserver.FTPSession, line string) bool {
		if line == "RETR hello.txt" && s.Dir() == "/pub" {
			s.Reply("550 Failed to open file.")
			return true
		}
		return false
	})
	checkAll(t, newChecker(t), []verdict{
		{"ftp://" + f.Addr + "/pub/hello.txt", linkcheck.Broken, "RETR hello.txt: 550"},
		{"ftp://" + f.Addr + "/top.txt", linkcheck.OK, "file, 4 bytes"},
	})
	var retrs atomic.Int32
	m := ftpFake(t, func(s *testserver.FTPSession, line string) bool {
		switch line {
		case "FEAT":
			s.Reply("211-Features:", " MLST type*;size*;modify*;perm*;", " SIZE", "211 End")
		case "MLST hello.txt":
			s.Reply("250-Listing hello.txt", " type=file;perm=adfw;size=7; /pub/hello.txt", "250 End")
		case "MLST top.txt":
			s.Reply("250-Listing top.txt", " type=file;perm=adfrw;size=4; /top.txt", "250 End")
		default:
			if strings.HasPrefix(line, "RETR ") {
				retrs.Add(1)
			}
			return false
		}
		return true
	})
	checkAll(t, newChecker(t), []verdict{
		{"ftp://" + m.Addr + "/pub/hello.txt", linkcheck.Broken, `perm=adfw has no "r"`},
		{"ftp://" + m.Addr + "/top.txt", linkcheck.OK, "file, 4 bytes"},
	})
	if n := retrs.Load(); n != 0 {
		t.Errorf("%d RETR sent though MLST's perm fact told", n)
	}
}

// A server without SIZE and MDTM: the RETR is dropped after its 150.
func TestFTPRetrFallback(t *testing.T) {
	f := ftpFake(t, func(s *testserver.FTPSession, line string) bool {
		if strings.HasPrefix(line, "SIZE ") || strings.HasPrefix(line, "MDTM ") {
			s.Reply("502 Command not implemented.")
			return true
		}
		return false
	})
	k := newChecker(t)
	checkAll(t, k, []verdict{
		{"ftp://" + f.Addr + "/pub/hello.txt", linkcheck.OK, "RETR aborted after 150"},
		{"ftp://" + f.Addr + "/pub/gone.txt", linkcheck.Broken, "RETR gone.txt: 550"},
	})
}

// Faults give broken with a clear detail, never a hang: 421 (after the
// retries), a stall (the timeout), a drop.
func TestFTPFaults(t *testing.T) {
	var sizes atomic.Int32
	f := ftpFake(t, func(s *testserver.FTPSession, line string) bool {
		switch line {
		case "SIZE busy.txt":
			sizes.Add(1)
			s.Reply("421 Service not available, closing control connection.")
			s.Drop()
			return true
		case "SIZE stall.txt":
			<-s.Done()
			return true
		case "SIZE drop.txt":
			s.Drop()
			return true
		}
		return false
	})
	k := newChecker(t)
	k.Timeout = 300 * time.Millisecond
	k.Retries = 2
	start := time.Now()
	checkAll(t, k, []verdict{
		{"ftp://" + f.Addr + "/busy.txt", linkcheck.Broken, "421 Service not available"},
		{"ftp://" + f.Addr + "/stall.txt", linkcheck.Broken, "timeout"},
		{"ftp://" + f.Addr + "/drop.txt", linkcheck.Broken, "after 3 attempts"},
		{"ftp://" + f.Addr + "/pub/hello.txt", linkcheck.OK, "file"}, // the pool recovers
	})
	if n := sizes.Load(); n != 3 {
		t.Errorf("SIZE busy.txt sent %d times; want 3 (2 retries)", n)
	}
	if d := time.Since(start); d > 20*time.Second {
		t.Errorf("the faults took %v", d)
	}
}

// A kept login the server has dropped meanwhile (an idle timeout) is
// replaced, not reported.
func TestFTPStaleLogin(t *testing.T) {
	var logins atomic.Int32
	f := ftpFake(t, func(s *testserver.FTPSession, line string) bool {
		switch line {
		case "USER anonymous":
			logins.Add(1)
		case "RETR top.txt":
			s.Send("150 Opening BINARY mode data connection for top.txt (4 bytes).", "top\n")
			s.Drop() // gone while idle in the pool
			return true
		}
		return false
	})
	k := newChecker(t)
	k.PerHost = 1
	checkAll(t, k, []verdict{
		{"ftp://" + f.Addr + "/top.txt", linkcheck.OK, "file, 4 bytes"},
		{"ftp://" + f.Addr + "/pub/hello.txt", linkcheck.OK, "file, 7 bytes"},
	})
	if n := logins.Load(); n != 2 {
		t.Errorf("%d logins, want 2 (the dropped one replaced once)", n)
	}
}

func TestHTTP(t *testing.T) {
	var busy atomic.Int32
	mux := http.NewServeMux()
	mux.HandleFunc("/ok", func(w http.ResponseWriter, r *http.Request) { w.Write([]byte("here")) })
	mux.HandleFunc("/nohead", func(w http.ResponseWriter, r *http.Request) {
		if r.Method == http.MethodHead {
			w.WriteHeader(http.StatusMethodNotAllowed)
			return
		}
		w.Write([]byte("GET only"))
	})
	mux.HandleFunc("/moved", func(w http.ResponseWriter, r *http.Request) { http.Redirect(w, r, "/ok", http.StatusFound) })
	mux.HandleFunc("/smtp", func(w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, "http://127.0.0.1:25/", http.StatusFound)
	})
	mux.HandleFunc("/busy", func(w http.ResponseWriter, r *http.Request) {
		busy.Add(1)
		w.WriteHeader(http.StatusServiceUnavailable)
	})
	mux.HandleFunc("/stall", func(w http.ResponseWriter, r *http.Request) { <-r.Context().Done() })
	srv := httptest.NewServer(mux)
	defer srv.Close()
	k := newChecker(t)
	k.Client.AllowAnyPort = false
	k.Client.AllowPorts = []int{srv.Listener.Addr().(*net.TCPAddr).Port}
	k.Timeout = 300 * time.Millisecond
	k.Retries = 1
	base := srv.URL
	checkAll(t, k, []verdict{
		{base + "/ok", linkcheck.OK, "200 OK"},
		{base + "/missing", linkcheck.Broken, "404 Not Found"},
		{base + "/nohead", linkcheck.OK, "200 OK"}, // HEAD refused: GET
		{base + "/moved", linkcheck.OK, "at " + base + "/ok"},
		{base + "/smtp", linkcheck.Broken, "port 25 belongs to smtp"}, // §6 guard on the redirect
		{base + "/busy", linkcheck.Broken, "503 Service Unavailable (after 2 attempts)"},
		{base + "/stall", linkcheck.Broken, "deadline"},
		{"http://127.0.0.1:25/", linkcheck.Skipped, "§6 guard"},
	})
	if n := busy.Load(); n != 2 {
		t.Errorf("/busy asked %d times, want 2", n)
	}
}

// An http redirect to an ftp URL is checked by the ftp method.
func TestHTTPRedirectToFTP(t *testing.T) {
	f := ftpFake(t, nil)
	srv := httptest.NewServer(http.RedirectHandler("ftp://"+f.Addr+"/pub/hello.txt", http.StatusMovedPermanently))
	defer srv.Close()
	k := newChecker(t)
	checkAll(t, k, []verdict{{srv.URL + "/x", linkcheck.OK, "redirect to ftp://" + f.Addr + "/pub/hello.txt: file, 7 bytes"}})
}

func TestFileMailtoOthers(t *testing.T) {
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "here.txt"), []byte("x"), 0o644); err != nil {
		t.Fatal(err)
	}
	k := newChecker(t)
	checkAll(t, k, []verdict{
		{"file://" + dir + "/here.txt", linkcheck.OK, "1 bytes"},
		{"file://localhost" + dir + "/", linkcheck.OK, "directory"},
		{"file://" + dir + "/gone.txt", linkcheck.Broken, "no such file"},
		{"file://elsewhere.example/x", linkcheck.Skipped, "§3.10"},
		{"mailto:someone@example.org", linkcheck.Skipped, "address syntax valid"},
		{"mailto:not-an-address", linkcheck.Invalid, "addr-spec"},
		{"prospero://host.dom//pros/name", linkcheck.Skipped, "no gateway configured"},
		{"x-unknown://host.dom/", linkcheck.Skipped, "no access method"},
		{"ftp://host.dom/%0D%0AQUIT", linkcheck.Skipped, "§6 guard"},
		{"http://user@host/", linkcheck.Invalid, "offset 7"},
		// https (RFC 2818) reads §3.3's form: no login either.
		{"https://user:pw@host.invalid/", linkcheck.Invalid, "§3.3: no user or password"},
	})
}

// --smtp-verify: RCPT TO, no DATA.
func TestMailtoVerify(t *testing.T) {
	f := testserver.StartSMTPFake(t)
	k := newChecker(t)
	k.SMTPRelay = f.Addr
	checkAll(t, k, []verdict{
		{"mailto:someone@example.org", linkcheck.OK, "accepts RCPT TO:<someone@example.org>"},
		{"mailto:nobody@example.org", linkcheck.Broken, "RCPT TO"},
	})
	for _, c := range f.Commands() {
		if strings.HasPrefix(c, "DATA") {
			t.Errorf("DATA sent: %q", f.Commands())
		}
	}
}

// A port nobody listens on is broken at once, not retried.
func TestRefused(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := ln.Addr().String()
	ln.Close()
	k := newChecker(t)
	k.Retries = 3
	k.Backoff = time.Second
	start := time.Now()
	checkAll(t, k, []verdict{
		{"telnet://" + addr + "/", linkcheck.Broken, "connection refused"},
		{"gopher://" + addr + "/", linkcheck.Broken, "connection refused"},
		{"ftp://" + addr + "/x", linkcheck.Broken, "connection refused"},
	})
	if d := time.Since(start); d > 2*time.Second {
		t.Errorf("refused connections were retried (%v)", d)
	}
}

// --recursive: the links of a retrieved HTML page are checked to the
// depth asked; a link to another site is checked, not followed.
func TestRecursive(t *testing.T) {
	var srv *httptest.Server
	srv = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch r.URL.Path {
		case "/":
			w.Header().Set("Content-Type", "text/html")
			w.Write([]byte(`<html><a href="` + srv.URL + `/a">a</a> <a href="` + srv.URL + `/b">b</a>
<a href="http://elsewhere.invalid/">x</a></html>`))
		case "/a":
			w.Header().Set("Content-Type", "text/html")
			w.Write([]byte(`<a href="` + srv.URL + `/deeper">d</a>`))
		case "/deeper":
		default:
			http.NotFound(w, r)
		}
	}))
	defer srv.Close()
	for _, tt := range []struct {
		depth int
		want  []string
	}{
		{0, []string{"/"}},
		{1, []string{"/", "/a", "/b", "http://elsewhere.invalid/"}},
		{2, []string{"/", "/a", "/b", "http://elsewhere.invalid/", "/deeper"}},
	} {
		k := newChecker(t)
		run := &linkcheck.Run{Checker: k, Depth: tt.depth}
		run.Add(srv.URL+"/", linkcheck.Place{})
		if err := run.Check(testCtx(t)); err != nil {
			t.Fatal(err)
		}
		var got []string
		for _, r := range run.Results() {
			got = append(got, strings.TrimPrefix(r.URL, srv.URL))
			if r.URL == srv.URL+"/b" && (r.Status != linkcheck.Broken || r.Places[0].File != srv.URL+"/" || r.Places[0].Line != 1) {
				t.Errorf("%s: %s at %v", r.URL, r.Status, r.Places)
			}
		}
		if strings.Join(got, " ") != strings.Join(tt.want, " ") {
			t.Errorf("depth %d checked %q, want %q", tt.depth, got, tt.want)
		}
	}
}

// Interrupted, a run returns at once with the verdicts it has.
func TestInterrupted(t *testing.T) {
	stall := testserver.NewGopherFake(t, testserver.GopherReply{Hold: true})
	srv := httptest.NewServer(http.HandlerFunc(func(http.ResponseWriter, *http.Request) {}))
	defer srv.Close()
	run := &linkcheck.Run{Checker: newChecker(t)}
	run.Add(srv.URL+"/", linkcheck.Place{})
	run.Add("gopher://"+stall.Addr+"/0/slow", linkcheck.Place{})
	ctx, cancel := context.WithCancel(context.Background())
	time.AfterFunc(500*time.Millisecond, cancel)
	start := time.Now()
	if err := run.Check(ctx); err != context.Canceled {
		t.Errorf("Check = %v, want context.Canceled", err)
	}
	if d := time.Since(start); d > 3*time.Second {
		t.Errorf("Check returned after %v", d)
	}
	rs := run.Results()
	if len(rs) != 1 || rs[0].Status != linkcheck.OK || run.Total() != 2 {
		t.Errorf("results %+v of %d, want the http one", rs, run.Total())
	}
}

// §4: a scheme without a native method is checked through its gateway.
func TestGateway(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if strings.Contains(r.URL.RawQuery, "gone") {
			http.NotFound(w, r)
			return
		}
		w.Write([]byte("found"))
	}))
	defer srv.Close()
	k := newChecker(t)
	k.Client.Gateways = map[string]string{"prospero": srv.URL + "/fetch?url={url}"}
	checkAll(t, k, []verdict{
		{"prospero://host.dom//pros/name", linkcheck.OK, "through the prospero gateway"},
		{"prospero://host.dom//pros/gone", linkcheck.Broken, "404"},
	})
}

// TestGopherSessionGuardFirst: §6 — a gopher item of type 8 or T (a
// telnet session, RFC 1436) aimed at another protocol's port is refused
// before anything connects, as the same item of type 1 is; a listener on
// that port sees no connection. The port is the test's own, guarded for
// the test as memcached's 11211 is.
func TestGopherSessionGuardFirst(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	var accepted atomic.Int32
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			accepted.Add(1)
			c.Close()
		}
	}()
	port := ln.Addr().(*net.TCPAddr).Port
	k := newChecker(t)
	k.Client.AllowAnyPort = false
	k.Client.BlockedPorts[port] = "a guarded test service"
	addr := fmt.Sprintf("127.0.0.1:%d", port)
	checkAll(t, k, []verdict{
		{"gopher://" + addr + "/8", linkcheck.Skipped, "§6 guard"},
		{"gopher://" + addr + "/Tuser", linkcheck.Skipped, "§6 guard"},
		{"gopher://" + addr + "/1", linkcheck.Skipped, "§6 guard"},
	})
	if n := accepted.Load(); n != 0 {
		t.Errorf("the guarded port saw %d connections, want none", n)
	}
	// A telnet item on a port no other protocol owns is still checked.
	delete(k.Client.BlockedPorts, port)
	checkAll(t, k, []verdict{{"gopher://" + addr + "/8", linkcheck.OK, "connection accepted"}})
}

// TestGopherSessionPortRange: a telnet item's port is a TCP port from 1
// to 65535 (RFC 793); 0 and 65536 are none, and nothing connects.
func TestGopherSessionPortRange(t *testing.T) {
	k := newChecker(t)
	ctx := testCtx(t)
	for _, port := range []int{0, 1, 65535, 65536} {
		u := fmt.Sprintf("gopher://127.0.0.1:%d/8", port)
		st, detail := k.Check(ctx, u)
		none := port == 0 || port == 65536
		if got := strings.Contains(detail, "not a TCP port"); got != none || none && st == linkcheck.OK {
			t.Errorf("Check(%s) = %s, %q; a TCP port: %v", u, st, detail, !none)
		}
	}
}
