package access

import (
	"bufio"
	"context"
	"crypto/tls"
	"crypto/x509"
	"encoding/base64"
	"errors"
	"io"
	"net"
	"net/textproto"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/rfc1738/rfc1738/internal/testserver"
)

// TestMailtoPlanAndGet: the SMTP envelope as the plan; get refuses.
func TestMailtoPlanAndGet(t *testing.T) {
	c := NewClient()
	c.Email = "me@here.example"
	c.RegisterProtocol("mailto", Mailto{Relay: "127.0.0.1:2525"})
	u := mustParse(t, "mailto:info@xyz.com") // §3.5's own example form
	p, err := c.Plan(u)
	if err != nil {
		t.Fatal(err)
	}
	want := "STARTTLS <if offered>\nMAIL FROM:<me@here.example>\nRCPT TO:<info@xyz.com>\nDATA"
	if got := strings.Join(p.Lines(), "\n"); got != want || p.Connect != "127.0.0.1:2525" {
		t.Errorf("plan %q to %q, want %q", got, p.Connect, want)
	}
	_, err = c.Get(context.Background(), u)
	if !errors.Is(err, ErrNotDataObject) || !strings.Contains(err.Error(), "names the Internet mailbox info@xyz.com") ||
		!strings.Contains(err.Error(), "rfc1738 mail") {
		t.Errorf("Get = %v", err)
	}

	for url, want := range map[string]string{
		"mailto:a%0D%0ARCPT%20TO:x@y.example": "offset 8",  // §6: CR/LF in the address
		"mailto:a%00b@x.example":              "NUL",       // §6
		"mailto:Joe%20Bloggs":                 "addr-spec", // §3.5
	} {
		if _, err := c.Plan(mustParse(t, url)); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%s: %v, want %q", url, err, want)
		}
	}
	c.Email = "me@here.example>\r\nRCPT TO:<x@y"
	if _, err := c.Plan(u); err == nil || !strings.Contains(err.Error(), "sender") {
		t.Errorf("bad sender: %v", err)
	}
}

// TestMailtoSend: the exact conversation with a loopback relay, the DATA
// dot-stuffed (RFC 5321 §4.5.2), a refusal with its code, and CR/LF in a
// header value refused before anything is dialled.
func TestMailtoSend(t *testing.T) {
	f := testserver.StartSMTPFake(t)
	c := NewClient()
	c.Email = "me@here.example"
	var trace []string
	c.Trace = func(dir byte, line string) { trace = append(trace, string(dir)+" "+line) }
	h := Mailto{Relay: f.Addr}
	c.RegisterProtocol("mailto", h)
	p, err := c.Plan(mustParse(t, "mailto:you@there.example"))
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	date := time.Date(1994, 12, 20, 10, 0, 0, 0, time.UTC) // RFC 1738's month
	err = h.Send(ctx, c, p, Message{
		Subject: "RFC 1738",
		Header:  []HeaderField{{"X-Test", "yes"}},
		Body:    strings.NewReader("line one\n.hidden dot\n..two\nlast\n"),
		Date:    date,
	})
	if err != nil {
		t.Fatal(err)
	}
	cmds, data := f.Commands(), f.Data()
	// The fake offers no STARTTLS: the auto mode goes on in plain text.
	wantCmds := []string{"EHLO localhost", "MAIL FROM:<me@here.example>", "RCPT TO:<you@there.example>", "DATA", "QUIT"}
	if strings.Join(cmds, "\n") != strings.Join(wantCmds, "\n") {
		t.Errorf("commands\n%s\nwant\n%s", strings.Join(cmds, "\n"), strings.Join(wantCmds, "\n"))
	}
	// RFC 5322 §3.6.4: a Message-ID, unique, on the sender's domain.
	idRE := regexp.MustCompile(`Message-ID: <[0-9a-z]+\.[0-9a-f]{24}@here\.example>\r\n`)
	if !idRE.MatchString(data) {
		t.Errorf("DATA has no Message-ID <time.random@here.example>:\n%q", data)
	}
	data = idRE.ReplaceAllString(data, "Message-ID: <id>\r\n")
	wantData := "From: me@here.example\r\nTo: you@there.example\r\nSubject: RFC 1738\r\n" +
		"Date: Tue, 20 Dec 1994 10:00:00 +0000\r\nMessage-ID: <id>\r\nX-Test: yes\r\n\r\n" +
		"line one\r\n..hidden dot\r\n...two\r\nlast\r\n.\r\n"
	if data != wantData {
		t.Errorf("DATA\n%q\nwant\n%q", data, wantData)
	}
	tr := strings.Join(trace, "\n")
	if !strings.Contains(tr, "> RCPT TO:<you@there.example>\n< 250 2.1.5 ok") || strings.Contains(tr, "hidden") ||
		!strings.Contains(tr, "! the relay does not offer STARTTLS: going on in plain text\n> MAIL FROM:") {
		t.Errorf("trace:\n%s", tr)
	}

	// The relay's refusal keeps its code and text.
	p, _ = c.Plan(mustParse(t, "mailto:nobody@there.example"))
	err = h.Send(ctx, c, p, Message{Body: strings.NewReader("x\n")})
	var te *textproto.Error
	if !errors.As(err, &te) || te.Code != 550 || !strings.Contains(err.Error(), "no such user") {
		t.Errorf("refused RCPT: %v", err)
	}

	// CR/LF in a header value or a bad field name: nothing is dialled.
	before := f.Conns()
	p, _ = c.Plan(mustParse(t, "mailto:you@there.example"))
	for _, m := range []Message{
		{Subject: "hi\r\nBcc: victim@example.com"},
		{Header: []HeaderField{{"X-A", "v\nBcc: victim@example.com"}}},
		{Header: []HeaderField{{"Bad Name", "v"}}},
	} {
		if err := h.Send(ctx, c, p, m); err == nil {
			t.Errorf("%+v was sent", m)
		}
	}
	after := f.Conns()
	if after != before {
		t.Errorf("%d connections for refused messages", after-before)
	}
}

// TestMailtoPlanTLSAuth: the STARTTLS and AUTH steps of each setting, with
// their placeholders, and the settings refused by Plan.
func TestMailtoPlanTLSAuth(t *testing.T) {
	envelope := "MAIL FROM:<me@here.example>\nRCPT TO:<info@xyz.com>\nDATA"
	tests := []struct {
		h    Mailto
		want string // the lines, or the error
		err  bool
	}{
		{Mailto{}, "STARTTLS <if offered>\n" + envelope, false},                                      // RFC 3207: used when offered
		{Mailto{TLS: "auto"}, "STARTTLS <if offered>\n" + envelope, false},                           // the same, by name
		{Mailto{TLS: "require"}, "STARTTLS\n" + envelope, false},                                     // always sent
		{Mailto{TLS: "off"}, envelope, false},                                                        // never
		{Mailto{TLS: "off", User: "u", Password: "pw"}, "AUTH PLAIN <redacted>\n" + envelope, false}, // RFC 4954 §4
		{Mailto{TLS: "require", User: "u", Password: "s3cret"}, "STARTTLS\nAUTH PLAIN <redacted>\n" + envelope, false},
		{Mailto{TLS: "yes"}, "none of auto, require, off", true},
		{Mailto{User: "u\r\nMAIL FROM:<x@y>", Password: "pw"}, "SMTP user name", true}, // §6
		{Mailto{User: "u\x00v", Password: "pw"}, "SMTP user name", true},               // RFC 4616 §2
	}
	c := NewClient()
	c.Email = "me@here.example"
	u := mustParse(t, "mailto:info@xyz.com")
	for _, tt := range tests {
		p, err := tt.h.Plan(c, u)
		if tt.err {
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Errorf("%+v: %v, want an error with %q", tt.h, err, tt.want)
			}
			continue
		}
		if err != nil {
			t.Errorf("%+v: %v", tt.h, err)
			continue
		}
		if got := strings.Join(p.Lines(), "\n"); got != tt.want {
			t.Errorf("%+v: plan\n%s\nwant\n%s", tt.h, got, tt.want)
		}
		all := strings.Join(append(append(p.Lines(), p.Notes...), p.Warnings...), "\n")
		if strings.Contains(all, "s3cret") {
			t.Errorf("the password is in the plan: %s", all)
		}
	}
}

// tlsFake starts a relay that offers STARTTLS (and AUTH PLAIN for
// user/password when user is set) and returns a configuration that
// trusts its certificate.
func tlsFake(t *testing.T, cfg testserver.SMTPFakeConfig) (*testserver.SMTPFake, *tls.Config) {
	t.Helper()
	cfg.STARTTLS = true
	f := testserver.StartSMTPFakeConfig(t, cfg)
	pool := x509.NewCertPool()
	if !pool.AppendCertsFromPEM(f.CertPEM) {
		t.Fatal("the fake's certificate is not PEM")
	}
	return f, &tls.Config{RootCAs: pool}
}

// sendTo plans a message to you@there.example with h and sends it,
// tracing into the returned builder.
func sendTo(t *testing.T, ctx context.Context, h Mailto) (string, error) {
	t.Helper()
	c := NewClient()
	c.Email = "me@here.example"
	var trace strings.Builder
	c.Trace = func(dir byte, line string) { trace.WriteString(string(dir) + " " + line + "\n") }
	p, err := h.Plan(c, mustParse(t, "mailto:you@there.example"))
	if err != nil {
		t.Fatal(err)
	}
	p.URL = "mailto:you@there.example"
	err = h.Send(ctx, c, p, Message{Subject: "tls", Body: strings.NewReader("secret body\n")})
	return trace.String(), err
}

func testCtx(t *testing.T, d time.Duration) context.Context {
	ctx, cancel := context.WithTimeout(context.Background(), d)
	t.Cleanup(cancel)
	return ctx
}

var envelope = []string{"MAIL FROM:<me@here.example>", "RCPT TO:<you@there.example>", "DATA", "QUIT"}

func sameLines(got []string, want ...string) bool {
	return strings.Join(got, "\n") == strings.Join(want, "\n")
}

// TestMailtoSTARTTLS: RFC 3207 in each mode: the upgrade, the second
// EHLO, the trace in clear text, and every way it must not fall back to
// plain text.
func TestMailtoSTARTTLS(t *testing.T) {
	ctx := testCtx(t, 20*time.Second)

	t.Run("auto offered", func(t *testing.T) {
		f, cfg := tlsFake(t, testserver.SMTPFakeConfig{})
		tr, err := sendTo(t, ctx, Mailto{Relay: f.Addr, TLSConfig: cfg})
		if err != nil {
			t.Fatal(err)
		}
		// §4.2: EHLO again under TLS; the whole envelope under TLS.
		if got := f.Commands(); !sameLines(got, append([]string{"EHLO localhost", "STARTTLS", "EHLO localhost"}, envelope...)...) {
			t.Errorf("commands %q", got)
		}
		if got := f.TLSCommands(); !sameLines(got, append([]string{"EHLO localhost"}, envelope...)...) {
			t.Errorf("commands under TLS %q", got)
		}
		if !strings.HasSuffix(f.Data(), "\r\n\r\nsecret body\r\n.\r\n") {
			t.Errorf("DATA %q", f.Data())
		}
		// The trace sees the lines after the upgrade in clear text.
		for _, want := range []string{
			"> STARTTLS\n< 220 2.0.0 ready to start TLS\n! TLS 1.3, TLS_",
			", certificate for 127.0.0.1 verified\n> EHLO localhost\n< 250-fake.example\n< 250 HELP\n> MAIL FROM:<me@here.example>\n< 250 2.1.0 ok\n",
			"< 250 2.0.0 queued\n> QUIT\n< 221 bye\n",
		} {
			if !strings.Contains(tr, want) {
				t.Errorf("trace lacks %q:\n%s", want, tr)
			}
		}
		if strings.Contains(tr, "secret body") || strings.Contains(tr, "\x16\x03") {
			t.Errorf("trace:\n%s", tr)
		}
	})

	t.Run("auto not offered", func(t *testing.T) {
		f := testserver.StartSMTPFake(t)
		if _, err := sendTo(t, ctx, Mailto{Relay: f.Addr}); err != nil {
			t.Fatal(err)
		}
		if got := f.Commands(); !sameLines(got, append([]string{"EHLO localhost"}, envelope...)...) {
			t.Errorf("commands %q", got)
		}
	})

	// RFC 5321 §3.2: a relay that refuses EHLO gets HELO and offers no
	// extension, so no STARTTLS.
	t.Run("HELO", func(t *testing.T) {
		f := testserver.StartSMTPFakeConfig(t, testserver.SMTPFakeConfig{NoEHLO: true})
		if _, err := sendTo(t, ctx, Mailto{Relay: f.Addr}); err != nil {
			t.Fatal(err)
		}
		if got := f.Commands(); !sameLines(got, append([]string{"EHLO localhost", "HELO localhost"}, envelope...)...) {
			t.Errorf("commands %q", got)
		}
		_, err := sendTo(t, ctx, Mailto{Relay: f.Addr, TLS: MailtoTLSRequire})
		if err == nil || !strings.Contains(err.Error(), "does not offer STARTTLS") {
			t.Errorf("require: %v", err)
		}
	})

	t.Run("off", func(t *testing.T) {
		f, _ := tlsFake(t, testserver.SMTPFakeConfig{})
		if _, err := sendTo(t, ctx, Mailto{Relay: f.Addr, TLS: MailtoTLSOff}); err != nil {
			t.Fatal(err)
		}
		if got := f.Commands(); !sameLines(got, append([]string{"EHLO localhost"}, envelope...)...) {
			t.Errorf("commands %q", got)
		}
	})

	t.Run("require not offered", func(t *testing.T) {
		f := testserver.StartSMTPFake(t)
		_, err := sendTo(t, ctx, Mailto{Relay: f.Addr, TLS: MailtoTLSRequire})
		if err == nil || !strings.Contains(err.Error(), "does not offer STARTTLS") {
			t.Errorf("err = %v", err)
		}
		if got := f.Commands(); !sameLines(got, "EHLO localhost", "QUIT") || f.Data() != "" {
			t.Errorf("commands %q", got)
		}
	})

	// A certificate that does not verify is an error in every mode:
	// nothing more is sent, in plain text or otherwise.
	for _, mode := range []string{MailtoTLSAuto, MailtoTLSRequire} {
		t.Run("untrusted "+mode, func(t *testing.T) {
			f, _ := tlsFake(t, testserver.SMTPFakeConfig{})
			_, err := sendTo(t, ctx, Mailto{Relay: f.Addr, TLS: mode}) // system roots
			var ve *tls.CertificateVerificationError
			if !errors.As(err, &ve) || !strings.Contains(err.Error(), "not sent in plain text") {
				t.Errorf("err = %v", err)
			}
			if got := f.Commands(); !sameLines(got, "EHLO localhost", "STARTTLS") {
				t.Errorf("commands %q", got)
			}
		})
	}
	t.Run("wrong name", func(t *testing.T) {
		f, cfg := tlsFake(t, testserver.SMTPFakeConfig{})
		cfg.ServerName = "relay.example"
		_, err := sendTo(t, ctx, Mailto{Relay: f.Addr, TLSConfig: cfg})
		var he x509.HostnameError
		if !errors.As(err, &he) {
			t.Errorf("err = %v", err)
		}
		if got := f.Commands(); !sameLines(got, "EHLO localhost", "STARTTLS") {
			t.Errorf("commands %q", got)
		}
	})
	t.Run("InsecureSkipVerify", func(t *testing.T) {
		f, _ := tlsFake(t, testserver.SMTPFakeConfig{})
		_, err := sendTo(t, ctx, Mailto{Relay: f.Addr, TLSConfig: &tls.Config{InsecureSkipVerify: true}})
		if err == nil || !strings.Contains(err.Error(), "InsecureSkipVerify") || f.Conns() != 0 {
			t.Errorf("err = %v, %d connections", err, f.Conns())
		}
	})
	t.Run("injection", func(t *testing.T) {
		// RFC 3207 §6: a command slipped in after the 220, in plain text.
		f, cfg := tlsFake(t, testserver.SMTPFakeConfig{Inject: "250 2.1.0 ok\r\n"})
		_, err := sendTo(t, ctx, Mailto{Relay: f.Addr, TLSConfig: cfg})
		// The fake writes the 220 and the injection at once, so they
		// are read at once.
		var re *RelayError
		if !errors.As(err, &re) || !strings.Contains(err.Error(), "sent 14 bytes after its 220") {
			t.Errorf("err = %v", err)
		}
		if got := f.Commands(); !sameLines(got, "EHLO localhost", "STARTTLS") {
			t.Errorf("commands %q", got)
		}
	})
}

// TestMailtoTLSBounds: under TLS, reads stay bounded and under the
// context's deadline.
func TestMailtoTLSBounds(t *testing.T) {
	flood := testserver.SMTPFloodEHLO
	stall := func(c net.Conn, r *bufio.Reader) { io.Copy(io.Discard, r) }
	for name, tt := range map[string]struct {
		hijack func(net.Conn, *bufio.Reader)
		d      time.Duration
		want   string
	}{
		"flood": {flood, 20 * time.Second, "more than 1048576 bytes"},
		"stall": {stall, 500 * time.Millisecond, "context deadline exceeded"},
	} {
		t.Run(name, func(t *testing.T) {
			f, cfg := tlsFake(t, testserver.SMTPFakeConfig{Hijack: tt.hijack})
			start := time.Now()
			_, err := sendTo(t, testCtx(t, tt.d), Mailto{Relay: f.Addr, TLSConfig: cfg})
			if err == nil || !strings.Contains(err.Error(), tt.want) || !strings.Contains(err.Error(), "EHLO after STARTTLS") {
				t.Errorf("err = %v, want %q", err, tt.want)
			}
			if el := time.Since(start); el > 10*time.Second {
				t.Errorf("took %v", el)
			}
		})
	}
}

// TestMailtoAuth: AUTH PLAIN (RFC 4954, RFC 4616) under TLS and to a
// loopback relay, a refusal with its code, and the password never shown.
func TestMailtoAuth(t *testing.T) {
	ctx := testCtx(t, 20*time.Second)
	const user, password = "alice", "s3cret-Pw"
	b64 := base64.StdEncoding.EncodeToString([]byte("\x00" + user + "\x00" + password))
	creds := testserver.SMTPFakeConfig{User: user, Password: password}
	noSecret := func(t *testing.T, where, s string) {
		t.Helper()
		if strings.Contains(s, password) || strings.Contains(s, b64) {
			t.Errorf("the password is in the %s:\n%s", where, s)
		}
	}

	t.Run("over TLS", func(t *testing.T) {
		f, cfg := tlsFake(t, creds)
		tr, err := sendTo(t, ctx, Mailto{Relay: f.Addr, TLS: MailtoTLSRequire, TLSConfig: cfg, User: user, Password: password})
		if err != nil {
			t.Fatal(err)
		}
		want := append([]string{"EHLO localhost", "AUTH PLAIN " + b64}, envelope...)
		if got := f.TLSCommands(); !sameLines(got, want...) {
			t.Errorf("commands under TLS %q, want %q", got, want)
		}
		if !strings.Contains(tr, "> AUTH PLAIN <redacted>\n< 235 2.7.0 authentication successful\n> MAIL FROM:") {
			t.Errorf("trace:\n%s", tr)
		}
		noSecret(t, "trace", tr)
	})

	t.Run("wrong password", func(t *testing.T) {
		f, cfg := tlsFake(t, creds)
		tr, err := sendTo(t, ctx, Mailto{Relay: f.Addr, TLSConfig: cfg, User: user, Password: "wrong-Pw"})
		var te *textproto.Error
		if !errors.As(err, &te) || te.Code != 535 || te.Msg != "5.7.8 authentication credentials invalid" {
			t.Fatalf("err = %v", err)
		}
		noSecret(t, "error", err.Error())
		if strings.Contains(err.Error(), "wrong-Pw") || strings.Contains(tr, "wrong-Pw") {
			t.Errorf("the password is shown: %v\n%s", err, tr)
		}
		got := f.TLSCommands()
		if len(got) != 3 || got[2] != "QUIT" || !strings.HasPrefix(got[1], "AUTH PLAIN ") {
			t.Errorf("commands under TLS %q", got)
		}
	})

	t.Run("plain to loopback", func(t *testing.T) {
		f := testserver.StartSMTPFakeConfig(t, creds)
		tr, err := sendTo(t, ctx, Mailto{Relay: f.Addr, User: user, Password: password})
		if err != nil {
			t.Fatal(err)
		}
		if got := f.Commands(); !sameLines(got, append([]string{"EHLO localhost", "AUTH PLAIN " + b64}, envelope...)...) {
			t.Errorf("commands %q", got)
		}
		noSecret(t, "trace", tr)
	})

	t.Run("not offered", func(t *testing.T) {
		f := testserver.StartSMTPFake(t)
		_, err := sendTo(t, ctx, Mailto{Relay: f.Addr, User: user, Password: password})
		if err == nil || !strings.Contains(err.Error(), "the relay offers no AUTH in its answer to EHLO (RFC 4954 §3)") {
			t.Errorf("err = %v", err)
		}
		if got := f.Commands(); !sameLines(got, "EHLO localhost", "QUIT") {
			t.Errorf("commands %q", got)
		}
	})

	// §6: CR/LF in the user name, or no password, stop Send before it dials.
	t.Run("refused before sending", func(t *testing.T) {
		f := testserver.StartSMTPFakeConfig(t, creds)
		c := NewClient()
		c.Email = "me@here.example"
		h := Mailto{Relay: f.Addr, User: user, Password: password}
		p, err := h.Plan(c, mustParse(t, "mailto:you@there.example"))
		if err != nil {
			t.Fatal(err)
		}
		for _, bad := range []string{"alice\r\nMAIL FROM:<x@y>", "al\nice", "al\x00ice"} {
			p.Data.(*mailtoPlan).user = bad
			if err := h.Send(ctx, c, p, Message{Body: strings.NewReader("x\n")}); err == nil || !strings.Contains(err.Error(), "user name") {
				t.Errorf("user %q: %v", bad, err)
			}
		}
		p.Data.(*mailtoPlan).user = user
		for _, pw := range []string{"", "a\x00b"} {
			h.Password = pw
			if err := h.Send(ctx, c, p, Message{Body: strings.NewReader("x\n")}); err == nil || !strings.Contains(err.Error(), "password") {
				t.Errorf("password %q: %v", pw, err)
			}
		}
		if f.Conns() != 0 {
			t.Errorf("%d connections", f.Conns())
		}
	})
}

// TestMailtoSendSmuggling: a body's lone CR or LF reaches the relay as
// CRLF, so "\r.\r\n" cannot end the data early (RFC 5321 §2.3.8, SMTP
// smuggling), and a body with NUL is refused before anything is dialled.
func TestMailtoSendSmuggling(t *testing.T) {
	f := testserver.StartSMTPFake(t)
	c := NewClient()
	c.Email = "me@here.example"
	h := Mailto{Relay: f.Addr}
	p, err := h.Plan(c, mustParse(t, "mailto:you@there.example"))
	if err != nil {
		t.Fatal(err)
	}
	ctx := testCtx(t, 10*time.Second)
	date := time.Date(1994, 12, 20, 10, 0, 0, 0, time.UTC)
	body := "hi\r.\r\nMAIL FROM:<evil@x.example>\rRCPT TO:<victim@y.example>\n"
	id := []HeaderField{{"Message-ID", "<fixed@here.example>"}} // for a fixed DATA
	if err := h.Send(ctx, c, p, Message{Body: strings.NewReader(body), Date: date, Header: id}); err != nil {
		t.Fatal(err)
	}
	want := "From: me@here.example\r\nTo: you@there.example\r\nDate: Tue, 20 Dec 1994 10:00:00 +0000\r\nMessage-ID: <fixed@here.example>\r\n\r\n" +
		"hi\r\n..\r\nMAIL FROM:<evil@x.example>\r\nRCPT TO:<victim@y.example>\r\n.\r\n"
	if got := f.Data(); got != want {
		t.Errorf("DATA\n%q\nwant\n%q", got, want)
	}
	before := f.Conns()
	err = h.Send(ctx, c, p, Message{Body: strings.NewReader("a\x00b\n"), Date: date})
	if err == nil || !strings.Contains(err.Error(), "NUL") || f.Conns() != before {
		t.Errorf("NUL: %v, %d connections", err, f.Conns()-before)
	}
}
