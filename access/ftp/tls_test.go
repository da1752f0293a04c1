package ftp_test

import (
	"crypto/tls"
	"errors"
	"io"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/rfc1738/rfc1738/access/ftp"
	"github.com/rfc1738/rfc1738/internal/testserver"
)

// tlsFake starts an FTPFake that speaks RFC 4217 with a certificate for
// 127.0.0.1 from a CA made for the test, and returns a client TLS
// configuration that trusts that CA.
func tlsFake(t *testing.T, opts testserver.FTPFakeOptions) (*testserver.FTPFake, *tls.Config) {
	t.Helper()
	ca := testserver.NewCA(t)
	cert, _, _ := ca.Issue(t, time.Time{}, "127.0.0.1")
	opts.TLS = &tls.Config{Certificates: []tls.Certificate{cert}}
	return testserver.NewFTPFake(t, opts), &tls.Config{RootCAs: ca.Pool()}
}

// TestTLSExchange: RFC 4217 §9's session: AUTH TLS, PBSZ 0, PROT P before
// USER; the data connection resumes the control connection's session.
func TestTLSExchange(t *testing.T) {
	for _, mode := range []ftp.Security{ftp.SecurityTry, ftp.SecurityRequire} {
		f, cfg := tlsFake(t, testserver.FTPFakeOptions{Files: map[string]string{"/pub/f.txt": "protected bytes\n"}, RequireResume: true})
		tr := &tracer{}
		ctx := testCtx(t, 10*time.Second)
		c, err := ftp.Dial(ctx, f.Addr, ftp.Config{Security: mode, TLS: cfg, Trace: tr.trace})
		if err != nil {
			t.Fatalf("mode %d: Dial: %v", mode, err)
		}
		if p := c.Protection(); !p.Control || !p.Data || !strings.HasPrefix(p.Version, "TLS 1.") {
			t.Errorf("mode %d: protection %+v", mode, p)
		}
		if _, err := c.Login(ctx, ftp.Credentials{User: "u", Password: "pw", HasPassword: true}); err != nil {
			t.Fatal(err)
		}
		c.Type(ctx, "I")
		body, _, err := c.Retr(ctx, "pub/f.txt")
		if err != nil {
			t.Fatalf("mode %d: Retr: %v\n%s", mode, err, tr)
		}
		b, err := io.ReadAll(body)
		if err != nil || string(b) != "protected bytes\n" {
			t.Fatalf("mode %d: body %q, %v\n%s", mode, b, err, tr)
		}
		c.Quit(ctx)
		want := []string{"AUTH TLS", "PBSZ 0", "PROT P", "USER u", "PASS pw", "TYPE I", "EPSV", "RETR pub/f.txt", "QUIT"}
		if got := f.Commands(); !slices.Equal(got, want) {
			t.Errorf("mode %d: the server saw %q, want %q", mode, got, want)
		}
		if s := tr.String(); !strings.Contains(s, "the control connection is protected") || !strings.Contains(s, "session resumed") {
			t.Errorf("mode %d: trace:\n%s", mode, s)
		}
	}
}

// TestTLSRefusals: a server without TLS. --ssl goes on in clear;
// --ssl-reqd fails after AUTH TLS, and no USER or PASS is sent.
func TestTLSRefusals(t *testing.T) {
	f := testserver.NewFTPFake(t, testserver.FTPFakeOptions{Files: map[string]string{"/f": "clear"}})
	ctx := testCtx(t, 10*time.Second)
	var warned []string
	c, err := ftp.Dial(ctx, f.Addr, ftp.Config{Security: ftp.SecurityTry, Warn: func(m string) { warned = append(warned, m) }})
	if err != nil {
		t.Fatal(err)
	}
	if p := c.Protection(); p.Control || p.Data {
		t.Errorf("--ssl against a clear server: %+v", p)
	}
	if _, err := c.Login(ctx, ftp.Credentials{}); err != nil {
		t.Fatal(err)
	}
	c.Quit(ctx)
	if got := f.Commands(); !slices.Equal(got[:2], []string{"AUTH TLS", "USER anonymous"}) {
		t.Errorf("--ssl: %q", got)
	}
	if len(warned) != 1 || !strings.Contains(warned[0], "AUTH TLS refused") || !strings.Contains(warned[0], "in clear") {
		t.Errorf("--ssl against a clear server: warnings %q, want one that says the login goes in clear", warned)
	}

	f = testserver.NewFTPFake(t, testserver.FTPFakeOptions{})
	_, err = ftp.Dial(ctx, f.Addr, ftp.Config{Security: ftp.SecurityRequire})
	if !errors.Is(err, ftp.ErrTLSRequired) || !strings.Contains(err.Error(), "504") {
		t.Errorf("--ssl-reqd against a clear server: %v", err)
	}
	if got := f.Commands(); !slices.Equal(got, []string{"AUTH TLS"}) {
		t.Errorf("--ssl-reqd: the server saw %q", got)
	}

	// AUTH TLS accepted, PROT P refused: --ssl goes on with clear data;
	// --ssl-reqd fails before the login.
	for _, mode := range []ftp.Security{ftp.SecurityTry, ftp.SecurityRequire} {
		f, cfg := tlsFake(t, testserver.FTPFakeOptions{Files: map[string]string{"/f": "data in clear"}, Handle: func(s *testserver.FTPSession, line string) bool {
			if line == "PROT P" {
				s.Reply("536 Requested PROT level not supported by mechanism.")
				return true
			}
			return false
		}})
		tr := &tracer{}
		c, err := ftp.Dial(ctx, f.Addr, ftp.Config{Security: mode, TLS: cfg, Trace: tr.trace})
		if mode == ftp.SecurityRequire {
			if !errors.Is(err, ftp.ErrTLSRequired) || !strings.Contains(err.Error(), "536") || slices.Contains(f.Commands(), "USER anonymous") {
				t.Errorf("--ssl-reqd, PROT P refused: %v; the server saw %q", err, f.Commands())
			}
			continue
		}
		if err != nil {
			t.Fatal(err)
		}
		if p := c.Protection(); !p.Control || p.Data {
			t.Errorf("--ssl, PROT P refused: %+v", p)
		}
		c.Login(ctx, ftp.Credentials{})
		body, _, err := c.Retr(ctx, "f")
		if err != nil {
			t.Fatal(err)
		}
		b, _ := io.ReadAll(body)
		if string(b) != "data in clear" || !strings.Contains(tr.String(), "data connections stay in clear") {
			t.Errorf("--ssl, PROT P refused: %q\n%s", b, tr)
		}
	}
}

// TestTLSSessionReuseRequired: a data connection that does not resume the
// control connection's session is refused by a server that requires it
// (vsftpd's default), and the error carries the server's 522.
func TestTLSSessionReuseRequired(t *testing.T) {
	f, cfg := tlsFake(t, testserver.FTPFakeOptions{Files: map[string]string{"/f": "x"}, RequireResume: true})
	// No session cache shared with the data connection: a cache that
	// forgets everything.
	cfg.ClientSessionCache = forgetful{}
	ctx := testCtx(t, 10*time.Second)
	c, err := ftp.Dial(ctx, f.Addr, ftp.Config{Security: ftp.SecurityRequire, TLS: cfg})
	if err != nil {
		t.Fatal(err)
	}
	c.Login(ctx, ftp.Credentials{})
	// The server completes the handshake, then sees it resumed nothing:
	// the data connection closes at once and the final reply says why.
	body, _, err := c.Retr(ctx, "f")
	if err == nil {
		_, err = io.ReadAll(body)
	}
	if err == nil || !strings.Contains(err.Error(), "522") || !strings.Contains(err.Error(), "session reuse required") {
		t.Errorf("Retr without a resumed session: %v", err)
	}
}

type forgetful struct{}

func (forgetful) Get(string) (*tls.ClientSessionState, bool) { return nil, false }
func (forgetful) Put(string, *tls.ClientSessionState)        {}

// TestTLSCertificate: a certificate the client does not trust ends the
// session at the handshake, before any login.
func TestTLSCertificate(t *testing.T) {
	f, _ := tlsFake(t, testserver.FTPFakeOptions{})
	ctx := testCtx(t, 10*time.Second)
	_, err := ftp.Dial(ctx, f.Addr, ftp.Config{Security: ftp.SecurityRequire, TLS: &tls.Config{RootCAs: testserver.NewCA(t).Pool()}})
	var ve *tls.CertificateVerificationError
	if !errors.As(err, &ve) || !strings.Contains(err.Error(), "127.0.0.1") {
		t.Errorf("untrusted certificate: %v", err)
	}
	if got := f.Commands(); !slices.Equal(got, []string{"AUTH TLS"}) {
		t.Errorf("the server saw %q", got)
	}
}

// TestTLSInjectedAfter234: bytes sent in clear after the 234 would be
// read as if protected: refused.
func TestTLSInjectedAfter234(t *testing.T) {
	f := testserver.NewFTPFake(t, testserver.FTPFakeOptions{Handle: func(s *testserver.FTPSession, line string) bool {
		if line == "AUTH TLS" {
			s.Raw("234 Proceed.\r\n230 Logged in, believe me.\r\n")
			return true
		}
		return false
	}})
	_, err := ftp.Dial(testCtx(t, 10*time.Second), f.Addr, ftp.Config{Security: ftp.SecurityRequire})
	var pe *ftp.ProtocolError
	if !errors.As(err, &pe) || !strings.Contains(err.Error(), "before the TLS handshake") {
		t.Errorf("bytes after 234: %v", err)
	}
}

// TestTLSWithoutFEAT: RFC 4217 §4 — a client that wants protection sends
// AUTH TLS; FEAT only advertises it. A server whose FEAT leaves AUTH TLS
// out (or a path that strips it) still gets AUTH TLS before USER with
// --ssl, and the session is protected; nothing is sent in clear before it.
func TestTLSWithoutFEAT(t *testing.T) {
	f, cfg := tlsFake(t, testserver.FTPFakeOptions{Files: map[string]string{"/f": "protected"}, Handle: func(s *testserver.FTPSession, line string) bool {
		if line == "FEAT" {
			s.Reply("211-Features:\r\n SIZE\r\n211 End")
			return true
		}
		return false
	}})
	ctx := testCtx(t, 10*time.Second)
	var warned []string
	c, err := ftp.Dial(ctx, f.Addr, ftp.Config{Security: ftp.SecurityTry, TLS: cfg, Warn: func(m string) { warned = append(warned, m) }})
	if err != nil {
		t.Fatal(err)
	}
	defer c.Quit(ctx)
	if p := c.Protection(); !p.Control || !p.Data {
		t.Errorf("--ssl, FEAT without AUTH TLS: protection %+v, want both", p)
	}
	if _, err := c.Login(ctx, ftp.Credentials{User: "u", Password: "pw", HasPassword: true}); err != nil {
		t.Fatal(err)
	}
	got := f.Commands()
	if i := slices.Index(got, "AUTH TLS"); i < 0 || i > slices.Index(got, "USER u") {
		t.Errorf("the server saw %q, want AUTH TLS before USER", got)
	}
	if len(warned) != 0 {
		t.Errorf("warnings %q on a protected session", warned)
	}
}
