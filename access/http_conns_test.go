package access

import (
	"context"
	"crypto/tls"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/rfc1738/rfc1738"
	"github.com/rfc1738/rfc1738/internal/testserver"
)

// countedHTTPS starts an https server on 127.0.0.1 that counts the
// connections it accepts; h2 offers HTTP/2 in ALPN (RFC 7301).
func countedHTTPS(t *testing.T, ca *testserver.CA, h2 bool) (*httptest.Server, *atomic.Int64) {
	t.Helper()
	var conns atomic.Int64
	srv := httptest.NewUnstartedServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		time.Sleep(2 * time.Millisecond) // requests overlap
		io.WriteString(w, strings.Repeat("x", 5000)+r.URL.Path)
	}))
	cert, _, _ := ca.Issue(t, time.Time{}, "127.0.0.1")
	srv.TLS = &tls.Config{Certificates: []tls.Certificate{cert}, MinVersion: tls.VersionTLS12}
	srv.EnableHTTP2 = h2
	srv.Config.ConnState = func(_ net.Conn, s http.ConnState) {
		if s == http.StateNew {
			conns.Add(1)
		}
	}
	srv.StartTLS()
	t.Cleanup(srv.Close)
	return srv, &conns
}

// getAll fetches n URLs of srv from workers goroutines and returns the
// protocols the responses came in.
func getAll(t *testing.T, c *Client, base string, n, workers int) map[string]bool {
	t.Helper()
	var mu sync.Mutex
	protos := map[string]bool{}
	next := make(chan int)
	var wg sync.WaitGroup
	for range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range next {
				u, err := rfc1738.Parse(base + "/f" + string(rune('a'+i%26)) + strings.Repeat("z", i/26))
				if err != nil {
					t.Error(err)
					continue
				}
				resp, err := c.Get(context.Background(), u)
				if err != nil {
					t.Error(err)
					continue
				}
				b, err := io.ReadAll(resp.Body)
				resp.Body.Close()
				if err != nil || len(b) < 5000 {
					t.Errorf("%s: %d bytes, %v", u, len(b), err)
				}
				mu.Lock()
				protos[strings.Fields(resp.Status)[0]] = true
				mu.Unlock()
			}
		}()
	}
	for i := range n {
		next <- i
	}
	close(next)
	wg.Wait()
	return protos
}

// TestHTTPConnsPerHost: with HTTP.ConnsPerHost 4, 40 URLs of one https
// host, asked for by 8 goroutines, travel over at most 4 connections,
// every one reused (net/http keeps 2 idle and dials again beyond them);
// the transport is one per setting, shared by the clients that have it.
func TestHTTPConnsPerHost(t *testing.T) {
	ca := testserver.NewCA(t)
	srv, conns := countedHTTPS(t, ca, false)
	c, _ := httpsClient(ca)
	setHTTP(c, func(h *HTTP) { h.ConnsPerHost = 4 })
	protos := getAll(t, c, srv.URL, 40, 8)
	if n := conns.Load(); n > 4 || n < 1 {
		t.Errorf("ConnsPerHost 4: the server accepted %d connections for 40 URLs", n)
	}
	if !protos["HTTP/1.1"] || len(protos) != 1 {
		t.Errorf("protocols %v, want HTTP/1.1 (the server offers no other)", protos)
	}

	tr := c.transport(c.HTTPSettings())
	if tr.MaxIdleConnsPerHost < 4 || tr.MaxConnsPerHost != 4 {
		t.Errorf("transport keeps %d idle and opens %d per host, want 4 and 4", tr.MaxIdleConnsPerHost, tr.MaxConnsPerHost)
	}
	d, _ := httpsClient(ca)
	d.TLS.Roots = c.TLS.Roots
	setHTTP(d, func(h *HTTP) { h.ConnsPerHost = 4 })
	if d.transport(d.HTTPSettings()) != tr {
		t.Error("two clients with the same setting have two transports")
	}
	setHTTP(d, func(h *HTTP) { h.ConnsPerHost = 0 })
	if d.transport(d.HTTPSettings()) == tr || d.transport(d.HTTPSettings()).MaxConnsPerHost != 0 {
		t.Error("ConnsPerHost 0 shares the limited transport")
	}
	if NewClient().transport(NewClient().HTTPSettings()) != httpTransport || httpTransport.MaxConnsPerHost != 0 {
		t.Error("the default transport was changed")
	}
}

// TestHTTP2WithOurTLS: our TLS config (roots of our own, TLS 1.2 at
// least) keeps net/http's HTTP/2: a server that offers h2 in ALPN is
// spoken to in HTTP/2 (RFC 9113 §3.2), its streams on few connections.
func TestHTTP2WithOurTLS(t *testing.T) {
	ca := testserver.NewCA(t)
	srv, conns := countedHTTPS(t, ca, true)
	c, _ := httpsClient(ca)
	setHTTP(c, func(h *HTTP) { h.ConnsPerHost = 4 })
	protos := getAll(t, c, srv.URL, 40, 8)
	if !protos["HTTP/2.0"] || len(protos) != 1 {
		t.Errorf("protocols %v, want HTTP/2.0", protos)
	}
	if n := conns.Load(); n > 4 {
		t.Errorf("HTTP/2: %d connections for 40 URLs", n)
	}
	if !httpTransport.ForceAttemptHTTP2 {
		t.Error("the default transport does not attempt HTTP/2 with its TLS config")
	}
}
