package ftp_test

import (
	"bytes"
	"context"
	"errors"
	"io"
	"net/textproto"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/rfc1738/rfc1738/access/ftp"
	"github.com/rfc1738/rfc1738/internal/testserver"
)

// TestVSFTPD runs the client against a real vsftpd 3.0.3 on loopback
// (shared/reference/loopback-servers.md §1).
func TestVSFTPD(t *testing.T) {
	addr, root := testserver.VSFTPD(t)
	anon := ftp.Credentials{Password: "tester@example.com"}

	// session dials, logs in and returns the connection and its trace.
	session := func(t *testing.T, cfg ftp.Config, cred ftp.Credentials) (context.Context, *ftp.Conn, *tracer) {
		t.Helper()
		tr := &tracer{}
		cfg.Trace = tr.trace
		ctx := testCtx(t, 15*time.Second)
		c, err := ftp.Dial(ctx, addr, cfg)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() {
			c.Quit(context.Background())
			if t.Failed() {
				t.Logf("conversation:\n%s", tr)
			}
		})
		if _, err := c.Login(ctx, cred); err != nil {
			t.Fatalf("Login: %v", err)
		}
		return ctx, c, tr
	}
	get := func(t *testing.T, ctx context.Context, c *ftp.Conn, p plan) []byte {
		t.Helper()
		data, err := run(ctx, c, p)
		if err != nil {
			t.Fatal(err)
		}
		return data
	}

	t.Run("nested CWDs", func(t *testing.T) {
		ctx, c, tr := session(t, ftp.Config{}, anon)
		// ftp://127.0.0.1/pub/nested/deeper/deep.txt;type=i
		got := get(t, ctx, c, plan{[]string{"pub", "nested", "deeper"}, "i", "deep.txt"})
		if string(got) != "deeper file\n" {
			t.Errorf("got %q", got)
		}
		for _, want := range []string{"> USER anonymous", "< 331 Please specify the password.", "> PASS ****",
			"< 230 Login successful.", "> CWD pub", "< 250 Directory successfully changed.", "> CWD nested",
			"> CWD deeper", "> TYPE I", "> EPSV", "> RETR deep.txt", "< 226 Transfer complete."} {
			if !strings.Contains(tr.String()+"\n", want+"\n") {
				t.Errorf("conversation lacks %q", want)
			}
		}
		if strings.Contains(tr.String(), anon.Password) {
			t.Error("the password is in the trace")
		}
		t.Logf("conversation:\n%s", tr)
	})

	t.Run("binary byte-identical", func(t *testing.T) {
		ctx, c, _ := session(t, ftp.Config{}, anon)
		want, err := os.ReadFile(filepath.Join(root, "pub", "binary.bin"))
		if err != nil {
			t.Fatal(err)
		}
		if _, err := c.Cwd(ctx, "pub"); err != nil {
			t.Fatal(err)
		}
		if _, err := c.Type(ctx, "I"); err != nil {
			t.Fatal(err)
		}
		body, size, err := c.Retr(ctx, "binary.bin")
		if err != nil {
			t.Fatal(err)
		}
		got, err := io.ReadAll(body)
		if err != nil {
			t.Fatal(err)
		}
		if err := body.Close(); err != nil {
			t.Fatal(err)
		}
		if size != 100000 || !bytes.Equal(got, want) {
			t.Errorf("size %d, %d bytes, identical %v", size, len(got), bytes.Equal(got, want))
		}
	})

	t.Run("%2Fetc/motd", func(t *testing.T) {
		// RFC 1738 §3.2.2: CWD /etc, then RETR motd; anonymous is chrooted.
		ctx, c, _ := session(t, ftp.Config{}, anon)
		if got := get(t, ctx, c, plan{[]string{"/etc"}, "i", "motd"}); string(got) != "fake motd inside anon root\n" {
			t.Errorf("got %q", got)
		}
	})

	t.Run("TYPE A gives CRLF", func(t *testing.T) {
		ctx, c, tr := session(t, ftp.Config{}, anon)
		if got := get(t, ctx, c, plan{[]string{"pub"}, "a", "lf.txt"}); string(got) != "line1\r\nline2\r\n" {
			t.Errorf("TYPE A: got %q", got)
		}
		if !strings.Contains(tr.String(), "< 150 Opening ASCII mode") {
			t.Errorf("no ASCII mode 150 in the conversation")
		}
		if got := get(t, ctx, c, plan{nil, "i", "lf.txt"}); string(got) != "line1\nline2\n" {
			t.Errorf("TYPE I: got %q", got)
		}
	})

	t.Run("NLST", func(t *testing.T) {
		ctx, c, _ := session(t, ftp.Config{}, anon)
		got := string(get(t, ctx, c, plan{nil, "d", "pub"}))
		for _, want := range []string{"pub/a b;c.txt\r\n", "pub/binary.bin\r\n", "pub/odd name;type=a.txt\r\n", "pub/nested\r\n"} {
			if !strings.Contains(got, want) {
				t.Errorf("NLST pub = %q, lacks %q", got, want)
			}
		}
		got = string(get(t, ctx, c, plan{[]string{"pub", "nested"}, "d", ""}))
		if got != "deeper\r\ninner.txt\r\n" {
			t.Errorf("NLST in pub/nested = %q", got)
		}
		body, err := c.List(ctx, "")
		if err != nil {
			t.Fatal(err)
		}
		list, err := io.ReadAll(body)
		body.Close()
		if err != nil || !bytes.Contains(list, []byte(" inner.txt\r\n")) {
			t.Errorf("LIST = %q, %v", list, err)
		}
	})

	t.Run("space and semicolon", func(t *testing.T) {
		ctx, c, _ := session(t, ftp.Config{}, anon)
		// ftp://127.0.0.1/pub/a%20b%3Bc.txt and /pub/odd%20name%3Btype=a.txt
		if got := get(t, ctx, c, plan{[]string{"pub"}, "i", "a b;c.txt"}); string(got) != "weird; name\n" {
			t.Errorf("got %q", got)
		}
		if got := get(t, ctx, c, plan{nil, "i", "odd name;type=a.txt"}); string(got) != "name with space and semicolon\n" {
			t.Errorf("got %q", got)
		}
	})

	t.Run("PASV", func(t *testing.T) {
		ctx, c, tr := session(t, ftp.Config{DisableEPSV: true}, anon)
		if got := get(t, ctx, c, plan{nil, "i", "hello.txt"}); string(got) != "hello from ftp root\n" {
			t.Errorf("got %q", got)
		}
		if s := tr.String(); !strings.Contains(s, "< 227 Entering Passive Mode (127,0,0,1,") || strings.Contains(s, "EPSV") || strings.Contains(s, "\n! ") {
			t.Errorf("conversation:\n%s", s)
		}
	})

	t.Run("local user", func(t *testing.T) {
		cred := ftp.Credentials{User: testserver.VSFTPDUser, Password: testserver.VSFTPDPassword, HasPassword: true}
		ctx, c, _ := session(t, ftp.Config{}, cred)
		if got := get(t, ctx, c, plan{[]string{"files"}, "i", "local.txt"}); string(got) != "local user file\n" {
			t.Errorf("got %q", got)
		}
	})

	t.Run("local user asked for the password", func(t *testing.T) {
		asked := 0
		cred := ftp.Credentials{User: testserver.VSFTPDUser, AskPassword: func() (string, error) {
			asked++
			return testserver.VSFTPDPassword, nil
		}}
		ctx, c, _ := session(t, ftp.Config{}, cred)
		if got := get(t, ctx, c, plan{[]string{"files"}, "i", "local.txt"}); string(got) != "local user file\n" || asked != 1 {
			t.Errorf("got %q, asked %d times", got, asked)
		}
	})

	t.Run("login refused", func(t *testing.T) {
		ctx := testCtx(t, 15*time.Second)
		for _, tt := range []struct {
			cred  ftp.Credentials
			code  int
			errIs error
		}{
			{ftp.Credentials{User: testserver.VSFTPDUser, Password: "wrong", HasPassword: true}, 530, nil},
			{ftp.Credentials{User: testserver.VSFTPDUser}, 0, ftp.ErrPasswordRequired},
		} {
			c, err := ftp.Dial(ctx, addr, ftp.Config{})
			if err != nil {
				t.Fatal(err)
			}
			_, err = c.Login(ctx, tt.cred)
			c.Close()
			var te *textproto.Error
			switch {
			case tt.errIs != nil && !errors.Is(err, tt.errIs):
				t.Errorf("Login(%+v) = %v, want %v", tt.cred.User, err, tt.errIs)
			case tt.code != 0 && (!errors.As(err, &te) || te.Code != tt.code):
				t.Errorf("Login = %v, want %d", err, tt.code)
			}
			if err != nil && strings.Contains(err.Error(), "wrong") {
				t.Errorf("the password is in the error %q", err)
			}
		}
	})

	t.Run("missing file", func(t *testing.T) {
		ctx, c, _ := session(t, ftp.Config{}, anon)
		_, _, err := c.Retr(ctx, "no-such-file")
		var te *textproto.Error
		if !errors.As(err, &te) || te.Code != 550 || err.Error() != "ftp: RETR no-such-file: 550 Failed to open file." {
			t.Fatalf("err = %v, want ftp: RETR no-such-file: 550 Failed to open file.", err)
		}
		// Still usable.
		if got := get(t, ctx, c, plan{nil, "i", "hello.txt"}); string(got) != "hello from ftp root\n" {
			t.Errorf("got %q", got)
		}
	})

	t.Run("empty CWD", func(t *testing.T) {
		// RFC 1738 §3.2.2 ftp://host//etc/motd starts with "CWD "; vsftpd
		// refuses it with 550 and stays where it was.
		ctx, c, tr := session(t, ftp.Config{}, anon)
		rep, err := c.Cwd(ctx, "")
		var te *textproto.Error
		if !errors.As(err, &te) || te.Code != 550 || rep.Code != 550 {
			t.Fatalf("Cwd(\"\") = %v, %v; want 550", rep, err)
		}
		if !strings.Contains(tr.String(), "> CWD \n< 550 Failed to change directory.") {
			t.Errorf("conversation:\n%s", tr)
		}
	})

	t.Run("early Close", func(t *testing.T) {
		ctx, c, _ := session(t, ftp.Config{}, anon)
		body, _, err := c.Retr(ctx, "pub/binary.bin")
		if err != nil {
			t.Fatal(err)
		}
		if _, err := io.ReadFull(body, make([]byte, 10)); err != nil {
			t.Fatal(err)
		}
		if err := body.Close(); err != nil {
			t.Fatalf("early Close: %v", err)
		}
		if _, err := c.Cwd(ctx, "pub"); err != nil {
			t.Fatalf("Cwd after early Close: %v", err)
		}
	})

	if testing.Verbose() {
		t.Logf("vsftpd protocol log:\n%s", testserver.VSFTPDLog(root))
	}
}
