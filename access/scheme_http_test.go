package access

import (
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/rfc1738/rfc1738/internal/testserver"
)

func TestHTTPPlanAndGet(t *testing.T) {
	var gotURI, gotHost atomic.Value
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		gotURI.Store(r.RequestURI)
		gotHost.Store(r.Host)
		w.Header().Set("Content-Type", "text/plain")
		io.WriteString(w, "hello")
	}))
	defer srv.Close()
	hostport := strings.TrimPrefix(srv.URL, "http://")
	c := NewClient()
	// §3.3: the path and search are sent as written, escapes and all.
	u := mustParse(t, srv.URL+"/a%2Fb/c;p?q=%41&r")
	p, err := c.Plan(u)
	if err != nil {
		t.Fatal(err)
	}
	want := []string{"GET /a%2Fb/c;p?q=%41&r HTTP/1.1", "Host: " + hostport, "User-Agent: " + DefaultUserAgent}
	if !slices.Equal(p.Lines(), want) || p.Connect != hostport || len(p.Warnings) != 1 {
		t.Errorf("plan %q connect %q warnings %q", p.Lines(), p.Connect, p.Warnings)
	}
	resp, err := c.Get(ftpTestCtx(t), u)
	if err != nil {
		t.Fatal(err)
	}
	b, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if string(b) != "hello" || resp.Size != 5 || resp.Type != "text/plain" || resp.URL != u.String() {
		t.Errorf("response %q %+v", b, resp)
	}
	if gotURI.Load() != "/a%2Fb/c;p?q=%41&r" || gotHost.Load() != hostport {
		t.Errorf("the server saw %v, Host %v", gotURI.Load(), gotHost.Load())
	}
	// No path at all: "/".
	p, _ = c.Plan(mustParse(t, srv.URL))
	if p.Lines()[0] != "GET / HTTP/1.1" {
		t.Errorf("plan %q", p.Lines())
	}
}

func TestHTTPErrors(t *testing.T) {
	var hits atomic.Int32
	var target string
	mux := http.NewServeMux()
	mux.HandleFunc("/missing", http.NotFound)
	mux.HandleFunc("/loop", func(w http.ResponseWriter, r *http.Request) {
		hits.Add(1)
		http.Redirect(w, r, "/loop", http.StatusFound)
	})
	mux.HandleFunc("/to", func(w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, target, http.StatusMovedPermanently)
	})
	srv := httptest.NewServer(mux)
	defer srv.Close()
	c := NewClient()

	_, err := c.Get(ftpTestCtx(t), mustParse(t, srv.URL+"/missing"))
	if err == nil || !strings.Contains(err.Error(), "404 Not Found") || !strings.Contains(err.Error(), "HTTP/1.1") {
		t.Errorf("404: %v", err)
	}

	setHTTP(c, func(h *HTTP) { h.MaxRedirects = 3 })
	_, err = c.Get(ftpTestCtx(t), mustParse(t, srv.URL+"/loop"))
	if err == nil || !strings.Contains(err.Error(), "stopped after 3 redirects") || hits.Load() != 4 {
		t.Errorf("loop: %v after %d requests", err, hits.Load())
	}

	for _, to := range []string{"file:///etc/passwd", "gopher://127.0.0.1:70/0x", "telnet://127.0.0.1/"} {
		target = to
		_, err = c.Get(ftpTestCtx(t), mustParse(t, srv.URL+"/to"))
		if err == nil || !strings.Contains(err.Error(), "refused") || !strings.Contains(err.Error(), to) {
			t.Errorf("redirect to %s: %v", to, err)
		}
	}
	// The §6 port guard holds for redirect targets.
	target = "http://127.0.0.1:25/"
	if _, err = c.Get(ftpTestCtx(t), mustParse(t, srv.URL+"/to")); err == nil || !strings.Contains(err.Error(), "smtp") {
		t.Errorf("redirect to port 25: %v", err)
	}
}

// TestHTTPRedirectToFTP: an http server's redirect to an ftp URL is
// parsed strictly and fetched by the ftp handler.
func TestHTTPRedirectToFTP(t *testing.T) {
	fake := testserver.NewFTPFake(t, testserver.FTPFakeOptions{Files: ftpTestFiles})
	var target string
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Location", target)
		w.WriteHeader(http.StatusFound)
	}))
	defer srv.Close()
	c, _ := ftpTestClient()

	target = "ftp://" + fake.Addr + "/pub/a%20b%3Bc.txt"
	resp, err := c.Get(ftpTestCtx(t), mustParse(t, srv.URL+"/x"))
	if err != nil {
		t.Fatal(err)
	}
	b, _ := io.ReadAll(resp.Body)
	if err := resp.Body.Close(); err != nil {
		t.Fatal(err)
	}
	if string(b) != "weird; name\n" || resp.URL != target || resp.Plan.Scheme != "ftp" {
		t.Errorf("body %q, URL %q, plan %+v", b, resp.URL, resp.Plan)
	}
	if got := ftpControl(fake.Commands()); !slices.Equal(got, ftpWire(resp.Plan.Lines())) {
		t.Errorf("the ftp server received %q", got)
	}

	// A target that the strict grammar refuses, and one the §6 guard
	// refuses, are never dialled.
	before := len(fake.Commands())
	for _, to := range []string{"ftp://" + fake.Addr + "/a b", "ftp://" + fake.Addr + "/a%0D%0ADELE%20x/y"} {
		target = to
		if _, err := c.Get(ftpTestCtx(t), mustParse(t, srv.URL+"/x")); err == nil {
			t.Errorf("redirect to %q was followed", to)
		}
	}
	var g *GuardError
	if _, err := c.Get(ftpTestCtx(t), mustParse(t, srv.URL+"/x")); !errors.As(err, &g) {
		t.Errorf("redirect to a CRLF path: %v", err)
	}
	if got := fake.Commands(); len(got) != before {
		t.Errorf("the ftp server received %q", got[before:])
	}
}
