package ftp_test

import (
	"bytes"
	"crypto/tls"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/rfc1738/rfc1738/access/ftp"
	"github.com/rfc1738/rfc1738/internal/testserver"
)

// TestVSFTPDTLS runs RFC 4217 against vsftpd 3.0.3 with ssl_enable=YES and
// require_ssl_reuse=YES: the data connection must resume the control
// connection's session, under TLS 1.3 and TLS 1.2 alike.
func TestVSFTPDTLS(t *testing.T) {
	addr, root, ca := testserver.VSFTPDTLS(t)
	want, err := os.ReadFile(filepath.Join(root, "pub", "binary.bin"))
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name string
		mode ftp.Security
		max  uint16
	}{
		{"ssl-reqd", ftp.SecurityRequire, 0},
		{"ssl", ftp.SecurityTry, 0},
		{"ssl-reqd TLS 1.2", ftp.SecurityRequire, tls.VersionTLS12},
	} {
		t.Run(tc.name, func(t *testing.T) {
			tr := &tracer{}
			ctx := testCtx(t, 15*time.Second)
			cfg := ftp.Config{Security: tc.mode, TLS: &tls.Config{RootCAs: ca.Pool(), MaxVersion: tc.max}, Trace: tr.trace}
			c, err := ftp.Dial(ctx, addr, cfg)
			if err != nil {
				t.Fatalf("Dial: %v\n%s", err, tr)
			}
			defer c.Quit(ctx)
			if _, err := c.Login(ctx, ftp.Credentials{Password: "tester@example.com"}); err != nil {
				t.Fatalf("Login: %v\n%s", err, tr)
			}
			if _, err := c.Type(ctx, "I"); err != nil {
				t.Fatal(err)
			}
			body, _, err := c.Retr(ctx, "pub/binary.bin")
			if err != nil {
				t.Fatalf("Retr: %v\n%s", err, tr)
			}
			got, err := io.ReadAll(body)
			if err != nil || !bytes.Equal(got, want) {
				t.Fatalf("%d bytes, %v\n%s", len(got), err, tr)
			}
			p := c.Protection()
			if !p.Control || !p.Data || (tc.max == tls.VersionTLS12) != (p.Version == "TLS 1.2") {
				t.Errorf("protection %+v", p)
			}
			if s := tr.String(); !strings.Contains(s, "> PBSZ 0\n< 200") || !strings.Contains(s, "> PROT P\n< 200") || !strings.Contains(s, "session resumed") {
				t.Errorf("conversation:\n%s", s)
			}
		})
	}
	// What Go needs for require_ssl_reuse: the data connection's
	// tls.Config must share the control connection's ClientSessionCache
	// (and ServerName, the cache's key). Without it vsftpd says 522.
	t.Run("no shared session cache", func(t *testing.T) {
		ctx := testCtx(t, 15*time.Second)
		c, err := ftp.Dial(ctx, addr, ftp.Config{Security: ftp.SecurityRequire, TLS: &tls.Config{RootCAs: ca.Pool(), ClientSessionCache: forgetful{}}})
		if err != nil {
			t.Fatal(err)
		}
		defer c.Close()
		c.Login(ctx, ftp.Credentials{Password: "tester@example.com"})
		body, _, err := c.Retr(ctx, "hello.txt")
		if err == nil {
			_, err = io.ReadAll(body)
		}
		if err == nil || !strings.Contains(err.Error(), "522") {
			t.Errorf("without session reuse: %v", err)
		}
	})
}
