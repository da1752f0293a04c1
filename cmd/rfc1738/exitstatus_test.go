package main

import (
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/rfc1738/rfc1738/internal/testserver"
)

// statusServer is an http server on loopback: /ok is 200 "hello\n",
// /big a megabyte, /secret 401, anything else 404.
func statusServer(t *testing.T) *httptest.Server {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch r.URL.Path {
		case "/ok", "/ok2":
			io.WriteString(w, "hello\n")
		case "/big":
			w.Write(make([]byte, 1<<20))
		case "/secret":
			w.Header().Set("WWW-Authenticate", `Basic realm="x"`)
			http.Error(w, "who are you", http.StatusUnauthorized)
		default:
			http.NotFound(w, r)
		}
	}))
	t.Cleanup(srv.Close)
	return srv
}

// TestExitStatuses: one case per status of the table (exitStatuses),
// through the built binary against loopback servers and closed ports.
func TestExitStatuses(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the binary")
	}
	web := statusServer(t)
	h := "http://" + strings.TrimPrefix(web.URL, "http://")
	dir := t.TempDir()
	aFile := filepath.Join(dir, "file")
	if err := os.WriteFile(aFile, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	ftpd := testserver.NewFTPFake(t, testserver.FTPFakeOptions{Files: map[string]string{"/pub/a.txt": "a\n"}})
	garbled := testserver.NewFTPFake(t, testserver.FTPFakeOptions{Greeting: []string{"hello, I am not an ftp server"}})
	gopherd := testserver.NewGopherFake(t, testserver.GopherReply{Reply: []byte("3 '/nope' does not exist\t\terror.host\t1\r\n.\r\n")})
	news := testserver.NNTPFakeServer(t, "200 fake ready",
		testserver.NNTPStep{Expect: "ARTICLE <gone.1@example.com>", Reply: "430 no such article\n"})
	tlsRelay := testserver.StartSMTPFakeConfig(t, testserver.SMTPFakeConfig{STARTTLS: true})
	tlsWeb := httptest.NewTLSServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { io.WriteString(w, "secret\n") }))
	t.Cleanup(tlsWeb.Close)
	authRelay := testserver.StartSMTPFake(t)
	authRelay2 := testserver.StartSMTPFakeConfig(t, testserver.SMTPFakeConfig{User: "u", Password: "right"})

	tests := []struct {
		name   string
		vars   []string
		stdin  string
		args   []string
		status int
		stderr string
	}{
		{"http 200", nil, "", []string{"get", h + "/ok"}, exitOK, ""},
		{"more than --max-size", nil, "", []string{"get", "--max-size", "1K", "-o", filepath.Join(dir, "big"), h + "/big"}, exitNegative, "--max-size"},
		{"bad flag", nil, "", []string{"get", "--nope", h + "/ok"}, exitUsage, "flag provided but not defined"},
		{"URL that does not parse", nil, "", []string{"get", "ftp://h:port/x"}, exitUsage, "is not a valid RFC 1738 URL"},
		{"plan of a URL that does not parse", nil, "", []string{"plan", "ftp://h:port/x"}, exitUsage, "is not a valid RFC 1738 URL"},
		{"mail to a URL that does not parse", nil, "hi\n", []string{"mail", "--smtp", authRelay.Addr, "mailto:a b@c"}, exitUsage, "is not a valid RFC 1738 URL"},
		{"browse a URL that does not parse", nil, "", []string{"browse", "gopher://h:port/"}, exitUsage, "is not a valid RFC 1738 URL"},
		{"no access method", nil, "", []string{"get", "prospero://h/x"}, exitUsage, "no access method"},
		{"browse with no access method", nil, "", []string{"browse", "prospero://h/x"}, exitUsage, "no access method"},
		{"plan with no access method", nil, "", []string{"plan", "prospero://h/x"}, exitUsage, "no access method"},
		{"output folder under a file", nil, "", []string{"get", "--output-dir", filepath.Join(aFile, "sub"), h + "/ok"}, exitLocalIO, "not a directory"},
		{"connection refused", nil, "", []string{"get", "ftp://" + "127.0.0.1:" + closedPort(t) + "/x"}, exitNetwork, "connection refused"},
		{"mirror, connection refused", nil, "", []string{"mirror", "gopher://" + "127.0.0.1:" + closedPort(t) + "/1", filepath.Join(dir, "m")}, exitNetwork, "the worst: network failure"},
		{"certificate that does not verify", nil, "hi\n", []string{"mail", "--from", "me@here.example", "--smtp", tlsRelay.Addr, "--smtp-tls", "require", "mailto:you@there.example"}, exitTLS, "certificate"},
		{"https, a certificate that does not verify", nil, "", []string{"get", tlsWeb.URL + "/"}, exitTLS, "not trusted"},
		{"smtp 535", []string{"RFC1738_SMTP_PASSWORD=wrong"}, "hi\n", []string{"mail", "--from", "me@here.example", "--smtp", authRelay2.Addr, "--smtp-tls", "off", "--smtp-user", "u", "mailto:you@there.example"}, exitAuth, "535"},
		{"http 401", nil, "", []string{"get", h + "/secret"}, exitAuth, "401"},
		{"ftp greeting that is no reply", nil, "", []string{"get", "ftp://" + garbled.Addr + "/pub/a.txt"}, exitProtocol, "protocol error"},
		{"http 404", nil, "", []string{"get", h + "/nope"}, exitRefused, "404"},
		{"ftp 550", nil, "", []string{"get", "ftp://" + ftpd.Addr + "/pub/nope.txt"}, exitRefused, "550"},
		{"gopher error item", nil, "", []string{"get", "gopher://" + gopherd.Addr + "/0/nope"}, exitRefused, "error item"},
		{"gopher error item for a binary item", nil, "", []string{"get", "gopher://" + gopherd.Addr + "/9/nope"}, exitRefused, "error item"},
		{"no such article", []string{"NNTPSERVER=" + news.Addr}, "", []string{"get", "news:gone.1@example.com"}, exitRefused, "430"},
		{"smtp 550 for the recipient", nil, "hi\n", []string{"mail", "--from", "me@here.example", "--smtp", authRelay.Addr, "mailto:nobody@there.example"}, exitRefused, "550"},
		// Several URLs: the worst, as wget ranks them (the lowest of 2 to 8).
		{"404 and refused", nil, "", []string{"get", "-O", "--output-dir", filepath.Join(dir, "w"), h + "/nope", "ftp://" + "127.0.0.1:" + closedPort(t) + "/x", h + "/ok"}, exitNetwork,
			"1 of 3 fetched, 6 bytes in "},
		{"404 and --max-size", nil, "", []string{"get", "--max-size", "1K", "--output-dir", filepath.Join(dir, "w2"), h + "/big", h + "/nope"}, exitRefused,
			"2 failed (exit status 8, the worst: the server said no)"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			_, stderr, status := runEnvIn(t, "", tc.vars, tc.stdin, tc.args...)
			if status != tc.status || !strings.Contains(stderr, tc.stderr) {
				t.Errorf("rfc1738 %s: status %d, want %d; stderr (want %q in it):\n%s", strings.Join(tc.args, " "), status, tc.status, tc.stderr, stderr)
			}
		})
	}
}

// TestExitStatusVSFTPD: vsftpd's own refusals: 530 to a wrong password
// is 6, 550 to a missing file is 8.
func TestExitStatusVSFTPD(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the binary")
	}
	addr, _ := testserver.VSFTPD(t)
	if addr == "" {
		return
	}
	for _, tc := range []struct {
		url    string
		status int
		stderr string
	}{
		{"ftp://" + testserver.VSFTPDUser + ":wrong@" + addr + "/x", exitAuth, "530"},
		{"ftp://" + addr + "/pub/no-such-file", exitRefused, "550"},
		{"ftp://" + addr + "/pub/lf.txt", exitOK, ""},
	} {
		_, stderr, status := runBinary(t, "", "get", tc.url)
		if status != tc.status || !strings.Contains(stderr, tc.stderr) {
			t.Errorf("get %s: status %d, want %d; stderr:\n%s", tc.url, status, tc.status, stderr)
		}
	}
}

// TestExitStatusSignals: a mirror stopped by SIGINT ends with 130, by
// SIGTERM with 143 (it used to end with 1), as get does.
func TestExitStatusSignals(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the binary")
	}
	// A menu with one text item, which stalls half-way.
	stall := testserver.NewGopherRouter(t, func(addr string, req []byte) testserver.GopherReply {
		if strings.HasPrefix(string(req), "/slow") {
			return testserver.GopherReply{Reply: []byte("first half\r\n"), Hold: true}
		}
		host, port, _ := net.SplitHostPort(addr)
		return testserver.GopherReply{Reply: []byte("0Slow\t/slow\t" + host + "\t" + port + "\r\n.\r\n")}
	})
	for _, sig := range []syscall.Signal{syscall.SIGINT, syscall.SIGTERM} {
		t.Run(sig.String(), func(t *testing.T) {
			before := len(stall.Requests())
			cmd := exec.Command(binary(t), "mirror", "gopher://"+stall.Addr+"/1", t.TempDir())
			var errOut strings.Builder
			cmd.Stderr = &errOut
			if err := cmd.Start(); err != nil {
				t.Fatal(err)
			}
			deadline := time.Now().Add(10 * time.Second)
			for len(stall.Requests()) < before+2 && time.Now().Before(deadline) {
				time.Sleep(20 * time.Millisecond)
			}
			cmd.Process.Signal(sig)
			err := cmd.Wait()
			var ee *exec.ExitError
			if !errors.As(err, &ee) || ee.ExitCode() != 128+int(sig) {
				t.Errorf("mirror after %v: %v, want exit status %d; stderr:\n%s", sig, err, 128+int(sig), errOut.String())
			}
			if want := fmt.Sprintf("interrupted by %s", signalName(sig)); !strings.Contains(errOut.String(), want) {
				t.Errorf("stderr lacks %q:\n%s", want, errOut.String())
			}
		})
	}
}

// TestExitStatusMirrorWorst: a mirror whose items fail ends with the
// worst of their statuses, named in the summary.
func TestExitStatusMirrorWorst(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the binary")
	}
	g := testserver.NewGopherRouter(t, func(addr string, req []byte) testserver.GopherReply {
		host, port, _ := net.SplitHostPort(addr)
		switch {
		case strings.HasPrefix(string(req), "/gone"):
			return testserver.GopherReply{Reply: []byte("3 no such item\t\terror.host\t1\r\n.\r\n")}
		case strings.HasPrefix(string(req), "/here"):
			return testserver.GopherReply{Reply: []byte("here\r\n.\r\n")}
		}
		return testserver.GopherReply{Reply: []byte("0Gone\t/gone\t" + host + "\t" + port + "\r\n0Here\t/here\t" + host + "\t" + port + "\r\n.\r\n")}
	})
	_, stderr, status := runBinary(t, "", "mirror", "gopher://"+g.Addr+"/1", t.TempDir())
	if status != exitRefused || !strings.Contains(stderr, "1 failed; ") || !strings.Contains(stderr, "(exit status 8, the worst: the server said no)") {
		t.Errorf("status %d, want %d; stderr:\n%s", status, exitRefused, stderr)
	}
}

// TestWorseStatus: wget's ranking.
func TestWorseStatus(t *testing.T) {
	for _, tc := range []struct{ a, b, want int }{
		{0, 1, 1}, {1, 8, 8}, {8, 4, 4}, {4, 2, 2}, {2, 130, 130}, {143, 2, 143}, {3, 7, 3}, {0, 0, 0},
	} {
		if got := worseStatus(tc.a, tc.b); got != tc.want {
			t.Errorf("worseStatus(%d, %d) = %d, want %d", tc.a, tc.b, got, tc.want)
		}
		if got := worseStatus(tc.b, tc.a); got != tc.want {
			t.Errorf("worseStatus(%d, %d) = %d, want %d", tc.b, tc.a, got, tc.want)
		}
	}
}

// TestExitStatusesDocumented: the README's table has a row for each
// status of the table --help and the man page print.
func TestExitStatusesDocumented(t *testing.T) {
	b, err := os.ReadFile(filepath.Join(testserver.ModuleRoot(), "README.md"))
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range exitStatuses {
		if s.code == "129" || s.code == "130" || s.code == "143" {
			s.code = "129, 130, 143"
		}
		if !strings.Contains(string(b), "\n| "+s.code+" | ") {
			t.Errorf("README.md has no row for exit status %s (%s)", s.code, s.meaning)
		}
	}
	out, _, _ := runCLI(t, "", "get", "--help")
	if !strings.Contains(out, "  8    the server said no") {
		t.Errorf("get --help lacks the table:\n%s", out)
	}
}

// TestExitStatusPygopherd: pygopherd's answer to a missing text, binary
// or menu item is a type-3 error item: status 8, and no file. (Gophernicus
// answers with a bare "Error: File or directory not found!" line, which
// nothing tells from a file that says so.)
func TestExitStatusPygopherd(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the binary")
	}
	g := testserver.Pygopherd(t)
	dir := t.TempDir()
	for _, item := range []string{"0/no-such.txt", "9/docs/no-such.bin", "1/no-such-dir"} {
		url := fmt.Sprintf("gopher://%s:%d/%s", g.Host, g.Port, item)
		_, stderr, status := runIn(t, dir, "", "get", "-O", url)
		if status != exitRefused || !strings.Contains(stderr, "error item") {
			t.Errorf("get %s: status %d, want %d; stderr:\n%s", url, status, exitRefused, stderr)
		}
	}
	if entries, _ := os.ReadDir(dir); len(entries) != 0 {
		t.Errorf("files left: %v", entries)
	}
}
