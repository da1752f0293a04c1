package access

import (
	"crypto/tls"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"os/exec"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/rfc1738/rfc1738/internal/testserver"
)

// httpsClient is a Client that trusts only ca, and collects its warnings.
func httpsClient(ca *testserver.CA) (*Client, *[]string) {
	c := NewClient()
	c.TLS.Roots, c.TLS.RootsFrom = ca.Pool(), "ca.pem"
	var mu sync.Mutex
	var warnings []string
	c.Warn = func(m string) { mu.Lock(); warnings = append(warnings, m); mu.Unlock() }
	return c, &warnings
}

func TestHTTPSPlanAndGet(t *testing.T) {
	ca := testserver.NewCA(t)
	var gotURI atomic.Value
	srv := testserver.HTTPS(t, ca, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		gotURI.Store(r.RequestURI)
		io.WriteString(w, "secret page")
	}))
	hostport := strings.TrimPrefix(srv.URL, "https://")
	c, warnings := httpsClient(ca)
	u := mustParse(t, srv.URL+"/a%2Fb?q=1")
	p, err := c.Plan(u)
	if err != nil {
		t.Fatal(err)
	}
	// RFC 2818: the http exchange of §3.3, inside TLS, checked against the
	// URL's host.
	want := []string{"GET /a%2Fb?q=1 HTTP/1.1", "Host: " + hostport, "User-Agent: " + DefaultUserAgent}
	if !slices.Equal(p.Lines(), want) || p.Connect != hostport || p.Scheme != "https" {
		t.Errorf("plan %q connect %q scheme %q", p.Lines(), p.Connect, p.Scheme)
	}
	if len(p.Notes) == 0 || !strings.Contains(p.Notes[0], "TLS 1.2 or later, no SNI for an IP address") || !strings.Contains(p.Notes[0], "ca.pem") {
		t.Errorf("notes %q", p.Notes)
	}
	resp, err := c.Get(ftpTestCtx(t), u)
	if err != nil {
		t.Fatal(err)
	}
	b, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if string(b) != "secret page" || gotURI.Load() != "/a%2Fb?q=1" || len(*warnings) != 0 {
		t.Errorf("body %q, the server saw %v, warnings %q", b, gotURI.Load(), *warnings)
	}
	// The default port is RFC 2818's 443.
	if p, err := c.Plan(mustParse(t, "https://example.org/")); err != nil || p.Connect != "example.org:443" {
		t.Errorf("https://example.org/: connect %q, %v", p.Connect, err)
	}
	// §3.3 has no login; an https URL with one is not read as http.
	if _, err := c.Plan(mustParse(t, "https://u:pw@example.org/")); !errors.Is(err, ErrUnsupported) || strings.Contains(err.Error(), "pw") {
		t.Errorf("https with a login: %v", err)
	}
}

// TestHTTPSCertificateFailures: each failed verification is one line that
// names the host and the reason.
func TestHTTPSCertificateFailures(t *testing.T) {
	ca := testserver.NewCA(t)
	ok := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { io.WriteString(w, "x") })
	other, _, _ := ca.Issue(t, time.Time{}, "other.example")
	expired, _, _ := ca.Issue(t, time.Now().Add(-time.Hour), "127.0.0.1")
	cases := []struct {
		name   string
		srv    *httptest.Server
		host   string
		roots  bool
		reason string
	}{
		{"unknown authority", testserver.HTTPS(t, ca, ok), "127.0.0.1", false, "unknown authority"},
		{"wrong name", testserver.HTTPSWith(t, other, ok), "localhost", true, "valid for other.example, not localhost"},
		{"expired", testserver.HTTPSWith(t, expired, ok), "127.0.0.1", true, "expired"},
	}
	for _, tc := range cases {
		c := NewClient()
		if tc.roots {
			c.TLS.Roots = ca.Pool()
		}
		port := tc.srv.URL[strings.LastIndexByte(tc.srv.URL, ':'):]
		_, err := c.Get(ftpTestCtx(t), mustParse(t, "https://"+tc.host+port+"/"))
		var ce *CertificateError
		if !errors.As(err, &ce) || ce.Host != tc.host {
			t.Errorf("%s: %v (%T), want a *CertificateError for %s", tc.name, err, err, tc.host)
			continue
		}
		msg := err.Error()
		if strings.Contains(msg, "\n") || !strings.Contains(msg, "the certificate of "+tc.host+" is not trusted") || !strings.Contains(msg, tc.reason) {
			t.Errorf("%s: message %q", tc.name, msg)
		}
		if Transient(err) {
			t.Errorf("%s: a certificate failure is not worth a retry", tc.name)
		}
	}
}

// TestHTTPSInsecure: -k fetches from a server no root vouches for, and
// says so.
func TestHTTPSInsecure(t *testing.T) {
	srv := testserver.HTTPS(t, testserver.NewCA(t), http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { io.WriteString(w, "x") }))
	c := NewClient()
	c.TLS.Insecure = true
	var warned []string
	c.Warn = func(m string) { warned = append(warned, m) }
	u := mustParse(t, srv.URL+"/")
	p, err := c.Plan(u)
	if err != nil || !slices.Contains(p.Warnings, insecureWarning) || !strings.Contains(p.Notes[0], "NOT verified") {
		t.Fatalf("plan %+v, %v", p, err)
	}
	resp, err := c.Get(ftpTestCtx(t), u)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if len(warned) != 1 || !strings.Contains(warned[0], "verification is off") {
		t.Errorf("warnings %q", warned)
	}

	// A request's own warn (WithWarn) is told in place of Client.Warn.
	var own []string
	resp, err = c.Get(WithWarn(ftpTestCtx(t), func(m string) { own = append(own, m) }), u)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if len(own) != 1 || !strings.Contains(own[0], "verification is off") || len(warned) != 1 {
		t.Errorf("WithWarn: the request's warnings %q, the Client's %q", own, warned)
	}
}

// TestHTTPSVersionAndSNI: TLS 1.2 at least; the host name is sent as SNI.
func TestHTTPSVersionAndSNI(t *testing.T) {
	ca := testserver.NewCA(t)
	cert, _, _ := ca.Issue(t, time.Time{}, "127.0.0.1", "localhost")
	var sni atomic.Value
	s := httptest.NewUnstartedServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { io.WriteString(w, "x") }))
	s.TLS = &tls.Config{Certificates: []tls.Certificate{cert}, GetConfigForClient: func(h *tls.ClientHelloInfo) (*tls.Config, error) {
		sni.Store(h.ServerName)
		return nil, nil
	}}
	s.StartTLS()
	defer s.Close()
	c, _ := httpsClient(ca)
	port := s.URL[strings.LastIndexByte(s.URL, ':'):]
	resp, err := c.Get(ftpTestCtx(t), mustParse(t, "https://localhost"+port+"/"))
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if sni.Load() != "localhost" {
		t.Errorf("SNI %q, want localhost", sni.Load())
	}

	old := httptest.NewUnstartedServer(s.Config.Handler)
	old.TLS = &tls.Config{Certificates: []tls.Certificate{cert}, MinVersion: tls.VersionTLS10, MaxVersion: tls.VersionTLS11}
	old.StartTLS()
	defer old.Close()
	if _, err := c.Get(ftpTestCtx(t), mustParse(t, old.URL+"/")); err == nil || !strings.Contains(err.Error(), "version") {
		t.Errorf("a TLS 1.1 server: %v, want a protocol version failure", err)
	}
}

// TestHTTPSRedirects: https → http is followed with a warning and without
// the credentials; every hop passes the §6 port guard; http → https is
// followed.
func TestHTTPSRedirects(t *testing.T) {
	ca := testserver.NewCA(t)
	var plainAuth, secureAuth atomic.Value
	plain := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		plainAuth.Store(r.Header.Get("Authorization"))
		io.WriteString(w, "in clear")
	}))
	defer plain.Close()
	var target atomic.Value
	secure := testserver.HTTPS(t, ca, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		secureAuth.Store(r.Header.Get("Authorization"))
		if r.URL.Path == "/final" {
			io.WriteString(w, "secure")
			return
		}
		http.Redirect(w, r, target.Load().(string), http.StatusFound)
	}))
	c, warnings := httpsClient(ca)
	c.Credentials = func(scheme, host string) (string, string, bool) { return "me", "pw", scheme == "https" }

	// Same host, so net/http alone would keep the Authorization header.
	target.Store(plain.URL + "/page")
	resp, err := c.Get(ftpTestCtx(t), mustParse(t, secure.URL+"/start"))
	if err != nil {
		t.Fatal(err)
	}
	b, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if string(b) != "in clear" || resp.URL != plain.URL+"/page" {
		t.Errorf("body %q at %s", b, resp.URL)
	}
	if secureAuth.Load() == "" || plainAuth.Load() != "" {
		t.Errorf("Authorization: %q over TLS, %q in clear (want none)", secureAuth.Load(), plainAuth.Load())
	}
	if len(*warnings) != 1 || !strings.Contains((*warnings)[0], "from https to http") || !strings.Contains((*warnings)[0], plain.URL) {
		t.Errorf("warnings %q", *warnings)
	}

	// http → https: followed, no warning.
	*warnings = nil
	up := httptest.NewServer(http.RedirectHandler(secure.URL+"/final", http.StatusFound))
	defer up.Close()
	resp, err = c.Get(ftpTestCtx(t), mustParse(t, up.URL+"/"))
	if err != nil {
		t.Fatal(err)
	}
	b, _ = io.ReadAll(resp.Body)
	resp.Body.Close()
	if string(b) != "secure" || len(*warnings) != 0 {
		t.Errorf("http → https: %q, warnings %q", b, *warnings)
	}

	// §6 on every hop, with https's own default port.
	for _, to := range []string{"https://127.0.0.1:25/", "http://127.0.0.1:110/"} {
		target.Store(to)
		if _, err := c.Get(ftpTestCtx(t), mustParse(t, secure.URL+"/start")); err == nil || !strings.Contains(err.Error(), "refused") {
			t.Errorf("redirect to %s: %v", to, err)
		}
	}
	if err := c.CheckRedirectPort(&url.URL{Scheme: "https", Host: "127.0.0.1:443"}); err != nil {
		t.Errorf("https's own default port: %v", err)
	}
	if err := c.CheckRedirectPort(&url.URL{Scheme: "http", Host: "127.0.0.1:443"}); err != nil {
		t.Errorf("443 in an http redirect is a caution, not a refusal: %v", err)
	}
}

// TestHTTPSResumeAndHead: Range and HEAD are http's, over TLS too.
func TestHTTPSResumeAndHead(t *testing.T) {
	ca := testserver.NewCA(t)
	content := strings.Repeat("0123456789", 1000)
	srv := testserver.HTTPS(t, ca, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		http.ServeContent(w, r, "f.txt", time.Unix(0, 0), strings.NewReader(content))
	}))
	c, _ := httpsClient(ca)
	u := mustParse(t, srv.URL+"/f.txt")
	resp, err := c.Do(ftpTestCtx(t), Request{URL: u, Offset: 9000})
	if err != nil {
		t.Fatal(err)
	}
	b, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.Offset != 9000 || string(b) != content[9000:] {
		t.Errorf("resume: offset %d, %d bytes", resp.Offset, len(b))
	}
	resp, err = c.Do(ftpTestCtx(t), Request{URL: u, Head: true})
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if !strings.Contains(resp.Status, "200") || resp.Header.Get("Content-Length") != "10000" {
		t.Errorf("HEAD: %s %v", resp.Status, resp.Header)
	}
}

// TestHTTPSSSLCertFile: with no roots given, the system's are used, and
// crypto/x509 reads SSL_CERT_FILE for them. It loads them once per
// process, so the check runs in a child process.
func TestHTTPSSSLCertFile(t *testing.T) {
	if url := os.Getenv("RFC1738_TEST_HTTPS_URL"); url != "" {
		resp, err := NewClient().Get(ftpTestCtx(t), mustParse(t, url))
		if err != nil {
			t.Fatal(err)
		}
		b, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		if string(b) != "trusted" {
			t.Fatalf("body %q", b)
		}
		return
	}
	ca := testserver.NewCA(t)
	srv := testserver.HTTPS(t, ca, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { io.WriteString(w, "trusted") }))
	caFile := ca.WriteFile(t, t.TempDir())
	for _, withFile := range []bool{true, false} {
		cmd := exec.Command(os.Args[0], "-test.run=^TestHTTPSSSLCertFile$", "-test.count=1")
		cmd.Env = append(os.Environ(), "RFC1738_TEST_HTTPS_URL="+srv.URL+"/", "SSL_CERT_DIR=/nonexistent")
		if withFile {
			cmd.Env = append(cmd.Env, "SSL_CERT_FILE="+caFile)
		} else {
			cmd.Env = append(cmd.Env, "SSL_CERT_FILE=/nonexistent")
		}
		out, err := cmd.CombinedOutput()
		if withFile && err != nil {
			t.Errorf("SSL_CERT_FILE=%s: %v\n%s", caFile, err, out)
		}
		if !withFile && (err == nil || !strings.Contains(string(out), "not trusted")) {
			t.Errorf("without SSL_CERT_FILE the CA is unknown: %v\n%s", err, out)
		}
	}
}
