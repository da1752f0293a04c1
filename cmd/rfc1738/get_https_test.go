package main

import (
	"bytes"
	"crypto/rand"
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
)

// TestGetHTTPS: get over https (RFC 2818) with --cacert writes what curl
// --cacert writes, byte for byte; resume, -I, --include and netrc work as
// for http; a certificate nobody vouches for fails in one line, exit 1.
func TestGetHTTPS(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the binary")
	}
	content := make([]byte, 300000)
	rand.Read(content)
	ca := testserver.NewCA(t)
	var auth atomic.Value
	srv := testserver.HTTPS(t, ca, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		u, p, _ := r.BasicAuth()
		auth.Store(u + ":" + p)
		http.ServeContent(w, r, "f.bin", time.Unix(0, 0), bytes.NewReader(content))
	}))
	dir := t.TempDir()
	caFile := ca.WriteFile(t, dir)
	url := srv.URL + "/f.bin"

	out, errOut, status := runBinary(t, "", "get", "-q", "--cacert", caFile, url)
	if status != 0 || out != string(content) {
		t.Fatalf("get --cacert: status %d, %d bytes, stderr %q", status, len(out), errOut)
	}
	if ref := curlBytes(t, url, "--cacert", caFile); ref != nil && !bytes.Equal(ref, []byte(out)) {
		t.Errorf("curl --cacert wrote %d bytes, get %d, and they differ", len(ref), len(out))
	}

	// The system's roots do not know the test's CA: one line naming the
	// host and the reason, exit 5, and no file left behind.
	out, errOut, status = runIn(t, dir, "", "get", "-O", url)
	if status != exitTLS || out != "" || strings.Count(errOut, "\n") != 1 ||
		!strings.Contains(errOut, "the certificate of 127.0.0.1 is not trusted: x509: certificate signed by unknown authority") {
		t.Errorf("unknown CA: status %d, stderr %q", status, errOut)
	}
	if names := dirNames(t, dir); len(names) != 1 {
		t.Errorf("folder after a refused certificate: %q", names)
	}

	// -k: fetched, with a warning.
	out, errOut, status = runBinary(t, "", "get", "-q", "-k", url)
	if status != 0 || out != string(content) || !strings.Contains(errOut, "rfc1738 get: warning: "+url+": certificate verification is off") {
		t.Errorf("-k: status %d, stderr %q", status, errOut)
	}

	// Range resume from a .part file.
	os.WriteFile(filepath.Join(dir, ".f.bin.part"), content[:100000], 0o600)
	_, errOut, status = runIn(t, dir, "", "get", "-q", "--cacert", caFile, "-C", "-", "-O", url)
	if got, _ := os.ReadFile(filepath.Join(dir, "f.bin")); status != 0 || !bytes.Equal(got, content) {
		t.Errorf("resume: status %d, %d bytes, stderr %q", status, len(got), errOut)
	}

	out, _, status = runBinary(t, "", "get", "--cacert", caFile, "-I", url)
	if status != 0 || !strings.HasPrefix(out, "HTTP/1.1 200 OK\r\n") || !strings.Contains(out, "Content-Length: 300000\r\n") {
		t.Errorf("-I: %d %q", status, out)
	}
	out, _, _ = runBinary(t, "", "get", "-q", "--cacert", caFile, "--include", url)
	if !strings.HasPrefix(out, "HTTP/1.1 200 OK\r\n") || !strings.HasSuffix(out, "\r\n\r\n"+string(content)) {
		t.Errorf("--include: %q…", out[:min(len(out), 200)])
	}

	rc := filepath.Join(dir, "netrc")
	os.WriteFile(rc, []byte("machine 127.0.0.1 login joe password s3cret\n"), 0o600)
	if _, errOut, status := runBinary(t, "", "get", "-q", "--cacert", caFile, "--netrc-file", rc, url); status != 0 || auth.Load() != "joe:s3cret" {
		t.Errorf("netrc: %d %q %v", status, errOut, auth.Load())
	}

	// A --cacert that holds no certificate is a usage error.
	if _, errOut, status := runBinary(t, "", "get", "--cacert", rc, url); status != exitUsage || !strings.Contains(errOut, "no PEM certificate") {
		t.Errorf("--cacert of a netrc file: %d %q", status, errOut)
	}
}

// TestGetHTTPSDowngrade: an https page that redirects to http is followed
// with a warning on stderr, and the netrc login does not go along.
func TestGetHTTPSDowngrade(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the binary")
	}
	var plainAuth atomic.Value
	plainAuth.Store("unset")
	plain := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		plainAuth.Store(r.Header.Get("Authorization"))
		w.Write([]byte("clear"))
	}))
	defer plain.Close()
	ca := testserver.NewCA(t)
	srv := testserver.HTTPS(t, ca, http.RedirectHandler(plain.URL+"/x", http.StatusFound))
	dir := t.TempDir()
	rc := filepath.Join(dir, "netrc")
	os.WriteFile(rc, []byte("machine 127.0.0.1 login joe password s3cret\n"), 0o600)
	out, errOut, status := runBinary(t, "", "get", "--cacert", ca.WriteFile(t, dir), "--netrc-file", rc, srv.URL+"/")
	if status != 0 || out != "clear" || plainAuth.Load() != "" {
		t.Errorf("status %d, out %q, Authorization in clear %q", status, out, plainAuth.Load())
	}
	if !strings.Contains(errOut, "rfc1738 get: warning: redirect from https to http: "+plain.URL+"/x is fetched without TLS") {
		t.Errorf("stderr %q", errOut)
	}
}

// TestPlanHTTPS: the plan names the TLS policy it will apply.
func TestPlanHTTPS(t *testing.T) {
	out, errOut, status := runCLI(t, "", "plan", "https://example.org/a?b")
	if status != 0 || out != "GET /a?b HTTP/1.1\nHost: example.org\nUser-Agent: "+access.DefaultUserAgent+"\n" || !strings.Contains(errOut, "example.org:443") ||
		!strings.Contains(errOut, "TLS 1.2 or later, SNI example.org") {
		t.Errorf("plan: %d %q %q", status, out, errOut)
	}
	_, errOut, _ = runCLI(t, "", "plan", "-k", "https://example.org/")
	if !strings.Contains(errOut, "NOT verified") || !strings.Contains(errOut, "verification is off") {
		t.Errorf("plan -k: %q", errOut)
	}
}
