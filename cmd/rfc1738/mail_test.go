package main

import (
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
	if _, errs, status := runCLI(t, "x", "mail", "--smtp", f.Addr, "mailto:nobody@there.example"); status != exitNegative || !strings.Contains(errs, "550") || !strings.Contains(errs, "no such user") {
		t.Errorf("refused recipient: %d %s", status, errs)
	}
}
