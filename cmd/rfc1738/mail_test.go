package main

import (
	"bytes"
	"encoding/base64"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/rfc1738/rfc1738/internal/testserver"
)

// TestMail: rfc1738 mail through a loopback relay: the exact envelope, the
// header fields from the flags, the body from stdin dot-stuffed (RFC 5321
// §4.5.2), and CR/LF refused before anything is sent (§6).
func TestMail(t *testing.T) {
	f := testserver.StartSMTPFake(t)
	body := "Hello,\n.this line starts with a dot\nbye\n"
	out, errs, status := runCLI(t, body, "mail", "-v", "--from", "me@here.example", "--subject", "test",
		"--smtp", f.Addr, "--header", "X-Mailer: rfc1738", "mailto:you@there.example")
	t.Logf("stderr:\n%s", errs)
	if status != 0 || out != "" {
		t.Fatalf("status %d, stdout %q, stderr %s", status, out, errs)
	}
	want := []string{"EHLO localhost", "MAIL FROM:<me@here.example>", "RCPT TO:<you@there.example>", "DATA", "QUIT"}
	if got := f.Commands(); strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("commands %q, want %q", got, want)
	}
	data := f.Data()
	if !strings.HasPrefix(data, "From: me@here.example\r\nTo: you@there.example\r\nSubject: test\r\nDate: ") ||
		!strings.HasSuffix(data, "\r\nX-Mailer: rfc1738\r\n\r\nHello,\r\n..this line starts with a dot\r\nbye\r\n.\r\n") {
		t.Errorf("DATA %q", data)
	}
	if !strings.Contains(errs, "> MAIL FROM:<me@here.example>\n< 250 2.1.0 ok\n") || strings.Contains(errs, "Hello") {
		t.Errorf("trace %s", errs)
	}

	// The relay from the environment is not read by runCLI (empty env).
	if _, errs, status := runCLI(t, "x", "mail", "mailto:you@there.example"); status != exitUsage || !strings.Contains(errs, "no SMTP relay") {
		t.Errorf("no relay: %d %s", status, errs)
	}
	n := f.Conns()
	for _, args := range [][]string{
		{"mail", "--smtp", f.Addr, "--header", "X-A: ok\rBcc: victim@example.com", "mailto:you@there.example"},
		{"mail", "--smtp", f.Addr, "mailto:you%0D%0ARCPT%20TO:victim@example.com"},
		{"mail", "--smtp", f.Addr, "--from", "me@here>\r\nRCPT TO:<victim@example.com", "mailto:you@there.example"},
		{"mail", "--smtp", f.Addr, "http://not.mail/"},
	} {
		if _, errs, status := runCLI(t, "x", args...); status == 0 {
			t.Errorf("%q was sent: %s", args, errs)
		}
	}
	if f.Conns() != n {
		t.Errorf("a refused message reached the relay")
	}
	if _, errs, status := runCLI(t, "x", "mail", "--smtp", f.Addr, "mailto:nobody@there.example"); status != exitRefused || !strings.Contains(errs, "550") || !strings.Contains(errs, "no such user") {
		t.Errorf("refused recipient: %d %s", status, errs)
	}
}

// runMailCLI runs the CLI in-process with stdin and the given environment.
func runMailCLI(t *testing.T, vars map[string]string, stdin string, args ...string) (string, string, int) {
	t.Helper()
	var out, errb bytes.Buffer
	status := run(args, &env{stdin: strings.NewReader(stdin), stdout: &out, stderr: &errb,
		getenv: func(k string) string { return vars[k] }})
	return out.String(), errb.String(), status
}

// TestMailTLSAuth: rfc1738 mail to a submission relay end to end:
// STARTTLS required (RFC 3207) with the relay's CA from --smtp-ca, AUTH
// PLAIN (RFC 4954) with the password from $RFC1738_SMTP_PASSWORD, the
// trace in clear text after the upgrade and without the password.
func TestMailTLSAuth(t *testing.T) {
	const password = "pw-Sesame-42"
	f := testserver.StartSMTPFakeConfig(t, testserver.SMTPFakeConfig{STARTTLS: true, User: "u", Password: password})
	ca := filepath.Join(t.TempDir(), "ca.pem")
	if err := os.WriteFile(ca, f.CertPEM, 0o600); err != nil {
		t.Fatal(err)
	}
	vars := map[string]string{"RFC1738_SMTP_PASSWORD": password}
	out, errs, status := runMailCLI(t, vars, "Hello over TLS\n", "mail", "-v", "--from", "me@here.example",
		"--smtp", f.Addr, "--smtp-ca", ca, "--smtp-tls", "require", "--smtp-user", "u", "mailto:you@there.example")
	t.Logf("stderr:\n%s", errs)
	if status != 0 || out != "" {
		t.Fatalf("status %d, stdout %q", status, out)
	}
	b64 := base64.StdEncoding.EncodeToString([]byte("\x00u\x00" + password))
	want := []string{"EHLO localhost", "AUTH PLAIN " + b64, "MAIL FROM:<me@here.example>", "RCPT TO:<you@there.example>", "DATA", "QUIT"}
	if got := f.TLSCommands(); strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("commands under TLS %q, want %q", got, want)
	}
	if !strings.HasSuffix(f.Data(), "\r\n\r\nHello over TLS\r\n.\r\n") {
		t.Errorf("DATA %q", f.Data())
	}
	for _, w := range []string{"> STARTTLS\n< 220 ", "! TLS 1.3, ", ", certificate for 127.0.0.1 verified\n> EHLO localhost\n",
		"> AUTH PLAIN <redacted>\n< 235 ", "> MAIL FROM:<me@here.example>\n< 250 2.1.0 ok\n"} {
		if !strings.Contains(errs, w) {
			t.Errorf("trace lacks %q", w)
		}
	}
	if strings.Contains(errs, password) || strings.Contains(errs, b64) || strings.Contains(errs, "Hello over TLS") {
		t.Errorf("the trace shows a secret or the message")
	}

	// Refused before anything is sent: no password and no terminal, CR/LF
	// in the user name (§6), a bad setting, a missing or empty CA file.
	empty := filepath.Join(t.TempDir(), "empty.pem")
	os.WriteFile(empty, []byte("not a certificate\n"), 0o600)
	n := f.Conns()
	for _, tt := range []struct {
		vars   map[string]string
		args   []string
		status int
		want   string
	}{
		{nil, []string{"--smtp-user", "u"}, exitUsage, "no password for --smtp-user u"},
		{vars, []string{"--smtp-user", "u\r\nMAIL FROM:<x@y>"}, exitNegative, "SMTP user name"},
		{vars, []string{"--smtp-tls", "maybe"}, exitUsage, `invalid value "maybe" for flag --smtp-tls: want auto, require or off`},
		{vars, []string{"--smtp-ca", filepath.Join(t.TempDir(), "none.pem")}, exitUsage, "--smtp-ca"},
		{vars, []string{"--smtp-ca", empty}, exitUsage, "no PEM certificate"},
	} {
		args := append(append([]string{"mail", "--from", "me@here.example", "--smtp", f.Addr}, tt.args...), "mailto:you@there.example")
		_, errs, status := runMailCLI(t, tt.vars, "x\n", args...)
		if status != tt.status || !strings.Contains(errs, tt.want) {
			t.Errorf("%q: %d %s, want %d %q", tt.args, status, errs, tt.status, tt.want)
		}
	}
	if f.Conns() != n {
		t.Errorf("a refused message reached the relay")
	}

	// The system's roots do not know the fake's CA: an error, and nothing
	// sent in plain text instead.
	_, errs, status = runMailCLI(t, vars, "x\n", "mail", "--from", "me@here.example", "--smtp", f.Addr, "--smtp-user", "u", "mailto:you@there.example")
	if status != exitTLS || !strings.Contains(errs, "certificate") || !strings.Contains(errs, "not sent in plain text") {
		t.Errorf("untrusted: %d %s", status, errs)
	}
	// A wrong password: the relay's 535 and its text, not the password.
	vars["RFC1738_SMTP_PASSWORD"] = "wrong-Pw"
	_, errs, status = runMailCLI(t, vars, "x\n", "mail", "--from", "me@here.example", "--smtp", f.Addr, "--smtp-ca", ca, "--smtp-user", "u", "mailto:you@there.example")
	if status != exitAuth || !strings.Contains(errs, "535") || !strings.Contains(errs, "authentication credentials invalid") || strings.Contains(errs, "wrong-Pw") {
		t.Errorf("wrong password: %d %s", status, errs)
	}
}

// TestPlanMailTLSAuth: plan shows STARTTLS and AUTH with placeholders, as
// the settings make mail send them, and never the password.
func TestPlanMailTLSAuth(t *testing.T) {
	envelope := "MAIL FROM:<me@here.example>\nRCPT TO:<x@y.example>\nDATA\n"
	vars := map[string]string{"RFC1738_SMTP_PASSWORD": "pw-Sesame-42"}
	for _, tt := range []struct {
		args []string
		want string
	}{
		{nil, "STARTTLS <if offered>\n" + envelope},
		{[]string{"--smtp-user", "u"}, "STARTTLS <if offered>\nAUTH PLAIN <redacted>\n" + envelope},
		{[]string{"--smtp-tls", "require", "--smtp-user", "u"}, "STARTTLS\nAUTH PLAIN <redacted>\n" + envelope},
		{[]string{"--smtp-tls", "off"}, envelope},
	} {
		args := append(append([]string{"plan", "--email", "me@here.example", "--smtp", "relay.example:587"}, tt.args...), "mailto:x@y.example")
		out, errs, status := runMailCLI(t, vars, "", args...)
		if status != 0 || out != tt.want || !strings.Contains(errs, "# connect relay.example:587\n") {
			t.Errorf("%q: %d\n%s%s", tt.args, status, out, errs)
		}
		if strings.Contains(out+errs, "Sesame") {
			t.Errorf("%q: the password is in the plan", tt.args)
		}
	}
	out, _, status := runMailCLI(t, vars, "", "plan", "--json", "--email", "me@here.example", "--smtp", "relay.example:587", "--smtp-user", "u", "mailto:x@y.example")
	if status != 0 || !strings.Contains(out, `"steps":["STARTTLS <if offered>","AUTH PLAIN <redacted>","MAIL FROM:<me@here.example>"`) {
		t.Errorf("plan --json: %d %s", status, out)
	}
	if _, errs, status := runMailCLI(t, vars, "", "plan", "--smtp-tls", "sometimes", "mailto:x@y.example"); status != exitUsage || !strings.Contains(errs, "-smtp-tls: want auto, require or off") {
		t.Errorf("bad --smtp-tls: %d %s", status, errs)
	}
}
