package smtp

import (
	"context"
	"crypto/tls"
	"crypto/x509"
	"encoding/base64"
	"errors"
	"net"
	"net/textproto"
	"strings"
	"testing"
	"time"

	"github.com/rfc1738/rfc1738/internal/testserver"
)

func testCtx(t *testing.T, d time.Duration) context.Context {
	ctx, cancel := context.WithTimeout(context.Background(), d)
	t.Cleanup(cancel)
	return ctx
}

// dial opens a session with the fake and collects its trace.
func dial(t *testing.T, ctx context.Context, addr string) (*Client, *[]string) {
	t.Helper()
	var trace []string
	c, err := Dial(ctx, addr, func(dir byte, line string) { trace = append(trace, string(dir)+" "+line) })
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Close() })
	return c, &trace
}

// envelope runs MAIL, RCPT and DATA (RFC 5321 §3.3).
func envelope(t *testing.T, c *Client, to string) error {
	t.Helper()
	if err := c.Cmd(250, "MAIL FROM:<me@here.example>"); err != nil {
		return err
	}
	if err := c.Cmd(25, "RCPT TO:<"+to+">"); err != nil {
		return err
	}
	return c.Cmd(354, "DATA")
}

// TestSession: the exact conversation of one message with the fake relay,
// the message dot-stuffed (RFC 5321 §4.5.2) and not traced, and a
// refusal with its code.
func TestSession(t *testing.T) {
	ctx := testCtx(t, 10*time.Second)
	f := testserver.StartSMTPFake(t)
	c, trace := dial(t, ctx, f.Addr)
	if err := c.Hello(); err != nil {
		t.Fatal(err)
	}
	if _, ok := c.Extension("STARTTLS"); ok || c.Secure() {
		t.Errorf("the plain fake offers STARTTLS, or the session is secure")
	}
	if err := envelope(t, c, "you@there.example"); err != nil {
		t.Fatal(err)
	}
	if err := c.Data([]byte("Subject: x\r\n\r\nsecret line\r\n.dot\r\n")); err != nil {
		t.Fatal(err)
	}
	if err := c.Quit(); err != nil {
		t.Fatal(err)
	}
	want := []string{"EHLO localhost", "MAIL FROM:<me@here.example>", "RCPT TO:<you@there.example>", "DATA", "QUIT"}
	if got := f.Commands(); strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("commands %q, want %q", got, want)
	}
	if got, want := f.Data(), "Subject: x\r\n\r\nsecret line\r\n..dot\r\n.\r\n"; got != want {
		t.Errorf("DATA %q, want %q", got, want)
	}
	tr := strings.Join(*trace, "\n")
	if strings.Contains(tr, "secret") || !strings.Contains(tr, "! <message of 33 bytes, dot-stuffed, then \".\">") {
		t.Errorf("trace:\n%s", tr)
	}

	c, _ = dial(t, ctx, f.Addr)
	if err := c.Hello(); err != nil {
		t.Fatal(err)
	}
	err := envelope(t, c, "nobody@there.example")
	var te *textproto.Error
	if !errors.As(err, &te) || te.Code != 550 {
		t.Errorf("RCPT to nobody: %v", err)
	}
	c.Abort(ctx)
}

// TestHELO: a relay that refuses EHLO gets HELO and offers nothing (RFC
// 5321 §3.2).
func TestHELO(t *testing.T) {
	f := testserver.StartSMTPFakeConfig(t, testserver.SMTPFakeConfig{NoEHLO: true, STARTTLS: true})
	c, _ := dial(t, testCtx(t, 10*time.Second), f.Addr)
	if err := c.Hello(); err != nil {
		t.Fatal(err)
	}
	if _, ok := c.Extension("STARTTLS"); ok {
		t.Error("STARTTLS learnt from a HELO")
	}
	if got := f.Commands(); len(got) != 2 || got[0] != "EHLO localhost" || got[1] != "HELO localhost" {
		t.Errorf("commands %q", got)
	}
}

func tlsFake(t *testing.T, cfg testserver.SMTPFakeConfig) (*testserver.SMTPFake, *tls.Config) {
	t.Helper()
	cfg.STARTTLS = true
	f := testserver.StartSMTPFakeConfig(t, cfg)
	pool := x509.NewCertPool()
	if !pool.AppendCertsFromPEM(f.CertPEM) {
		t.Fatal("the fake's certificate is not PEM")
	}
	return f, &tls.Config{RootCAs: pool, ServerName: "localhost"}
}

// TestStartTLSAuth: STARTTLS (RFC 3207), EHLO again, AUTH PLAIN (RFC 4954,
// RFC 4616) under TLS, the trace in clear text without the password.
func TestStartTLSAuth(t *testing.T) {
	const user, password = "alice", "s3cret-Pw"
	b64 := base64.StdEncoding.EncodeToString([]byte("\x00" + user + "\x00" + password))
	ctx := testCtx(t, 20*time.Second)
	f, cfg := tlsFake(t, testserver.SMTPFakeConfig{User: user, Password: password})
	c, trace := dial(t, ctx, f.Addr)
	if err := c.Hello(); err != nil {
		t.Fatal(err)
	}
	if _, ok := c.Extension("STARTTLS"); !ok {
		t.Fatal("STARTTLS not offered")
	}
	if err := c.StartTLS(ctx, cfg); err != nil {
		t.Fatal(err)
	}
	if err := c.Hello(); err != nil {
		t.Fatal(err)
	}
	mechs, ok := c.Extension("AUTH")
	if !ok || !HasWord(mechs, "plain") || !c.Secure() {
		t.Fatalf("AUTH %q %v, secure %v", mechs, ok, c.Secure())
	}
	if err := PlainAuthAllowed(c.RemoteAddr(), c.Secure()); err != nil {
		t.Fatal(err)
	}
	if err := c.AuthPlain(user, password); err != nil {
		t.Fatal(err)
	}
	if err := envelope(t, c, "you@there.example"); err != nil {
		t.Fatal(err)
	}
	if err := c.Data([]byte("\r\nhi\r\n")); err != nil {
		t.Fatal(err)
	}
	if err := c.Quit(); err != nil {
		t.Fatal(err)
	}
	want := []string{"EHLO localhost", "AUTH PLAIN " + b64, "MAIL FROM:<me@here.example>", "RCPT TO:<you@there.example>", "DATA", "QUIT"}
	if got := f.TLSCommands(); strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("commands under TLS %q, want %q", got, want)
	}
	tr := strings.Join(*trace, "\n")
	if strings.Contains(tr, b64) || strings.Contains(tr, password) ||
		!strings.Contains(tr, "> AUTH PLAIN <redacted>\n< 235") || !strings.Contains(tr, "certificate for localhost verified") {
		t.Errorf("trace:\n%s", tr)
	}
}

// TestStartTLSInjection: bytes after the 220 to STARTTLS, before the
// handshake, are a ProtocolError (RFC 3207 §6).
func TestStartTLSInjection(t *testing.T) {
	ctx := testCtx(t, 10*time.Second)
	f, cfg := tlsFake(t, testserver.SMTPFakeConfig{Inject: "250 2.1.0 ok\r\n"})
	c, _ := dial(t, ctx, f.Addr)
	if err := c.Hello(); err != nil {
		t.Fatal(err)
	}
	err := c.StartTLS(ctx, cfg)
	var pe *ProtocolError
	if !errors.As(err, &pe) || pe.Step != "STARTTLS" || !strings.Contains(err.Error(), "sent 14 bytes after its 220") {
		t.Errorf("err = %v", err)
	}
}

// TestMaxRead: a relay that floods is cut off at MaxRead bytes.
func TestMaxRead(t *testing.T) {
	flood := testserver.SMTPFloodEHLO
	ctx := testCtx(t, 20*time.Second)
	f, cfg := tlsFake(t, testserver.SMTPFakeConfig{Hijack: flood})
	c, _ := dial(t, ctx, f.Addr)
	if err := c.Hello(); err != nil {
		t.Fatal(err)
	}
	if err := c.StartTLS(ctx, cfg); err != nil {
		t.Fatal(err)
	}
	if err := c.Hello(); err == nil || !strings.Contains(err.Error(), "more than 1048576 bytes") {
		t.Errorf("err = %v", err)
	}
}

// TestPlainAuthAllowed: the credentials of AUTH PLAIN go under TLS, or
// to a loopback relay, and nowhere else (RFC 4616 §6).
func TestPlainAuthAllowed(t *testing.T) {
	tests := []struct {
		addr   net.Addr
		secure bool
		ok     bool
	}{
		{&net.TCPAddr{IP: net.IPv4(127, 0, 0, 1), Port: 25}, false, true},
		{&net.TCPAddr{IP: net.IPv4(127, 1, 2, 3), Port: 25}, false, true},
		{&net.TCPAddr{IP: net.IPv6loopback, Port: 25}, false, true},
		{&net.TCPAddr{IP: net.IPv4(192, 0, 2, 1), Port: 587}, false, false}, // RFC 5737 TEST-NET-1
		{&net.TCPAddr{IP: net.ParseIP("2001:db8::1"), Port: 587}, false, false},
		{&net.TCPAddr{IP: net.ParseIP("::ffff:192.0.2.1"), Port: 587}, false, false},
		{&net.TCPAddr{IP: net.IPv4(192, 0, 2, 1), Port: 587}, true, true},
		{&net.UnixAddr{Name: "/run/smtp", Net: "unix"}, false, false},
	}
	for _, tt := range tests {
		err := PlainAuthAllowed(tt.addr, tt.secure)
		if (err == nil) != tt.ok {
			t.Errorf("%v secure=%v: %v, want ok=%v", tt.addr, tt.secure, err, tt.ok)
		}
		if err != nil && !strings.Contains(err.Error(), "plain text") {
			t.Errorf("%v: %v", tt.addr, err)
		}
	}
}

// TestRefusalEscaped: a hostile relay's refusal — escape sequences, a
// bidirectional override, a line of its own — comes back as an error
// that holds the *textproto.Error and prints the code and the text
// escaped, whatever release of net/textproto: the greeting, EHLO's reply
// (to which the relay answers no HELO either), a command's, AUTH's and
// the end of data's.
func TestRefusalEscaped(t *testing.T) {
	const hostile = "550-\x1b[2J screen cleared\r\n550 \u202egone\r\n"
	for _, step := range []string{"greeting", "EHLO", "MAIL", "AUTH", "DATA"} {
		t.Run(step, func(t *testing.T) {
			ln, err := net.Listen("tcp", "127.0.0.1:0")
			if err != nil {
				t.Fatal(err)
			}
			t.Cleanup(func() { ln.Close() })
			go hostileRelay(ln, step, hostile)
			ctx := testCtx(t, 10*time.Second)
			c, err := Dial(ctx, ln.Addr().String(), nil)
			if err == nil {
				t.Cleanup(func() { c.Close() })
				switch step {
				case "EHLO":
					err = c.Hello()
				case "MAIL":
					err = c.Cmd(250, "MAIL FROM:<a@b.example>")
				case "AUTH":
					err = c.AuthPlain("u", "p")
				case "DATA":
					if err = c.Cmd(354, "DATA"); err == nil {
						err = c.Data([]byte("x\r\n"))
					}
				}
			}
			var te *textproto.Error
			if !errors.As(err, &te) || te.Code != 550 {
				t.Fatalf("error %v, want a *textproto.Error with code 550", err)
			}
			if s := err.Error(); strings.ContainsAny(s, "\x1b\u202e\n\r") || !strings.Contains(s, `550 \x1b[2J screen cleared\n\u202egone`) {
				t.Errorf("error %q: the relay's text is not escaped", s)
			}
		})
	}
}

// hostileRelay answers one session on ln: 220 (or the hostile reply as
// its greeting), then 250 or 354 to every command but the step's, which
// gets the hostile reply (DATA: the end of data, "."; EHLO: HELO too).
func hostileRelay(ln net.Listener, step, hostile string) {
	conn, err := ln.Accept()
	if err != nil {
		return
	}
	defer conn.Close()
	tp := textproto.NewConn(conn)
	if step == "greeting" {
		tp.W.WriteString(hostile)
		tp.W.Flush()
		return
	}
	tp.PrintfLine("220 relay.example")
	for {
		line, err := tp.ReadLine()
		if err != nil {
			return
		}
		verb, _, _ := strings.Cut(line, " ")
		switch {
		case step == "DATA" && line == ".", step != "DATA" && verb == step, step == "EHLO" && verb == "HELO":
			tp.W.WriteString(hostile)
			tp.W.Flush()
		case verb == "DATA":
			tp.PrintfLine("354 go on")
		case step == "DATA":
			// a line of the message: no reply
		default:
			tp.PrintfLine("250 ok")
		}
	}
}
