package main

import (
	"bytes"
	"crypto/tls"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/rfc1738/rfc1738/internal/testserver"
)

// TestGetFTPSVSFTPD: get --ssl-reqd against vsftpd with ssl_enable=YES
// writes what curl --ssl-reqd --cacert writes, byte for byte, and the
// conversation is RFC 4217's: AUTH TLS, PBSZ 0, PROT P before USER.
func TestGetFTPSVSFTPD(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the binary")
	}
	addr, root, ca := testserver.VSFTPDTLS(t)
	want, err := os.ReadFile(filepath.Join(root, "pub", "binary.bin"))
	if err != nil {
		t.Fatal(err)
	}
	caFile := ca.WriteFile(t, t.TempDir())
	url := "ftp://" + addr + "/pub/binary.bin"
	out, errOut, status := runBinary(t, "", "get", "-q", "-v", "--ssl-reqd", "--cacert", caFile, url)
	if status != 0 || out != string(want) {
		t.Fatalf("get --ssl-reqd: status %d, %d bytes\n%s", status, len(out), errOut)
	}
	if ref := curlBytes(t, url, "--ssl-reqd", "--cacert", caFile); ref != nil && !bytes.Equal(ref, want) {
		t.Errorf("curl --ssl-reqd wrote %d bytes, get %d, and they differ", len(ref), len(out))
	}
	i := strings.Index(errOut, "> AUTH TLS\n< 234")
	j := strings.Index(errOut, "> PROT P\n< 200")
	k := strings.Index(errOut, "> USER anonymous")
	if i < 0 || j < i || k < j || !strings.Contains(errOut, "session resumed") {
		t.Errorf("conversation:\n%s", errOut)
	}
	// --ssl: the same.
	out, errOut, status = runBinary(t, "", "get", "-q", "-v", "--ssl", "--cacert", caFile, "ftp://"+addr+"/hello.txt")
	if status != 0 || out != "hello from ftp root\n" || !strings.Contains(errOut, "> AUTH TLS\n< 234") || !strings.Contains(errOut, "> PROT P\n< 200") {
		t.Errorf("get --ssl: %d %q\n%s", status, out, errOut)
	}
	// mirror takes the same flags: its listings and files over TLS.
	dir := t.TempDir()
	if _, errOut, status := runBinary(t, "", "mirror", "-q", "--ssl-reqd", "--cacert", caFile, "ftp://"+addr+"/pub/nested/", dir); status != 0 {
		t.Errorf("mirror --ssl-reqd: %d\n%s", status, errOut)
	} else if b, err := os.ReadFile(filepath.Join(dir, "deeper", "deep.txt")); err != nil || string(b) != "deeper file\n" {
		t.Errorf("mirror --ssl-reqd: deeper/deep.txt %q, %v", b, err)
	}
	// The system's roots do not know the CA: one line, exit 5.
	_, errOut, status = runBinary(t, "", "get", "--ssl-reqd", "ftp://"+addr+"/hello.txt")
	if status != exitTLS || strings.Count(errOut, "\n") != 1 || !strings.Contains(errOut, "the certificate of 127.0.0.1 is not trusted") {
		t.Errorf("untrusted: %d %q", status, errOut)
	}
}

// TestGetFTPSRequiredWithoutTLS: --ssl-reqd against a server without TLS
// fails with exit status 5 after AUTH TLS, and no USER or PASS is sent;
// --ssl goes on in clear.
func TestGetFTPSRequiredWithoutTLS(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the binary")
	}
	fake := testserver.NewFTPFake(t, testserver.FTPFakeOptions{Files: map[string]string{"/x": "clear data"}})
	_, errOut, status := runBinary(t, "", "get", "--ssl-reqd", "ftp://u:s3cret@"+fake.Addr+"/x")
	if status != exitTLS || !strings.Contains(errOut, "must be protected with TLS") || strings.Contains(errOut, "s3cret") {
		t.Errorf("--ssl-reqd: %d %q", status, errOut)
	}
	if got := fake.Commands(); !slices.Equal(got, []string{"AUTH TLS"}) {
		t.Errorf("the server saw %q", got)
	}
	// mirror takes the flag too: nothing but AUTH TLS is sent.
	fake2 := testserver.NewFTPFake(t, testserver.FTPFakeOptions{Files: map[string]string{"/d/x": "clear data"}})
	if _, errOut, status := runBinary(t, "", "mirror", "-q", "--ssl-reqd", "ftp://"+fake2.Addr+"/d/", t.TempDir()); status == 0 || slices.ContainsFunc(fake2.Commands(), func(c string) bool { return c != "AUTH TLS" }) {
		t.Errorf("mirror --ssl-reqd: %d %q; the server saw %q", status, errOut, fake2.Commands())
	}
	out, errOut, status := runBinary(t, "", "get", "--ssl", "ftp://"+fake.Addr+"/x")
	if status != 0 || out != "clear data" || !strings.Contains(errOut, "warning: AUTH TLS refused") {
		t.Errorf("--ssl: %d %q %q, want the data and a warning that the session is in clear", status, out, errOut)
	}
}

// TestGetFTPSWithoutFEAT: --ssl sends AUTH TLS whatever FEAT lists (RFC
// 4217 §4; curl does too): a server whose FEAT leaves AUTH TLS out gets
// AUTH TLS before USER, and the login goes inside TLS.
func TestGetFTPSWithoutFEAT(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the binary")
	}
	ca := testserver.NewCA(t)
	cert, _, _ := ca.Issue(t, time.Time{}, "127.0.0.1")
	fake := testserver.NewFTPFake(t, testserver.FTPFakeOptions{Files: map[string]string{"/x": "protected data"},
		TLS: &tls.Config{Certificates: []tls.Certificate{cert}},
		Handle: func(s *testserver.FTPSession, line string) bool {
			if line == "FEAT" {
				s.Reply("211-Features:", " SIZE", "211 End")
				return true
			}
			return false
		}})
	out, errOut, status := runBinary(t, "", "get", "--ssl", "--cacert", ca.WriteFile(t, t.TempDir()), "ftp://u:s3cret@"+fake.Addr+"/x")
	if status != 0 || out != "protected data" || strings.Contains(errOut, "warning") {
		t.Errorf("--ssl: %d %q %q", status, out, errOut)
	}
	got := fake.Commands()
	if i := slices.Index(got, "AUTH TLS"); i < 0 || i > slices.Index(got, "USER u") || slices.Index(got, "USER u") < 0 {
		t.Errorf("the server saw %q, want AUTH TLS before USER", got)
	}
}

// TestPlanFTPS: plan shows the TLS steps before the login.
func TestPlanFTPS(t *testing.T) {
	out, errOut, status := runCLI(t, "", "plan", "--ssl-reqd", "ftp://u:pw@h.example/f")
	if status != 0 || !strings.HasPrefix(out, "AUTH TLS\nPBSZ 0\nPROT P\nUSER u\nPASS <password>\n") || !strings.Contains(errOut, "TLS is required") {
		t.Errorf("plan --ssl-reqd: %d %q %q", status, out, errOut)
	}
	out, _, _ = runCLI(t, "", "plan", "--ssl", "ftp://h.example/f")
	if !strings.HasPrefix(out, "AUTH TLS\nPBSZ 0\nPROT P\nUSER anonymous\n") {
		t.Errorf("plan --ssl: %q", out)
	}
	out, _, _ = runCLI(t, "", "plan", "ftp://h.example/f")
	if !strings.HasPrefix(out, "USER anonymous\n") {
		t.Errorf("plan: %q", out)
	}
}
