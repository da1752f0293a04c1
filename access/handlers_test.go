package access

import (
	"errors"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/rfc1738/rfc1738/access/ftp"
)

// setNews changes the settings of c's news and nntp handler.
func setNews(c *Client, f func(n *News)) {
	n, _ := c.Handler("news").(News)
	f(&n)
	c.RegisterProtocol("news", n)
	c.RegisterProtocol("nntp", n)
}

// setHTTP changes the settings of c's http and https handler.
func setHTTP(c *Client, f func(h *HTTP)) {
	h := c.HTTPSettings()
	f(&h)
	c.SetHTTP(h)
}

// TestZeroClient: a zero Client has the default handlers and guards the
// default ports (§6): it plans an ftp URL and refuses a blocked port.
func TestZeroClient(t *testing.T) {
	var c Client
	p, err := c.Plan(mustParse(t, "ftp://ftp.example/pub/f.txt"))
	if err != nil {
		t.Fatalf("zero Client, ftp plan: %v", err)
	}
	if p.Connect != "ftp.example:21" || !strings.Contains(strings.Join(p.Lines(), "\n"), "RETR f.txt") {
		t.Errorf("zero Client, ftp plan: connect %q, lines %q", p.Connect, p.Lines())
	}
	_, err = c.Plan(mustParse(t, "http://mail.example:25/"))
	var ge *GuardError
	if !errors.As(err, &ge) {
		t.Errorf("zero Client, http to port 25: %v, want a *GuardError", err)
	}
	if h := c.HTTPSettings(); h.MaxRedirects != 10 || h.UserAgent != DefaultUserAgent {
		t.Errorf("zero Client's http settings %+v, want the default handler's", h)
	}
	// Registering on a zero Client keeps the other default handlers.
	c.RegisterProtocol("gopher", Gopher{Unstuff: true})
	if c.Handler("ftp") == nil || c.Handler("gopher") != (Gopher{Unstuff: true}) {
		t.Error("RegisterProtocol on a zero Client lost the default handlers")
	}
}

// TestCloneHandlers: a clone's handlers are copies: changing its news
// server changes not the original's; an ftp pool is shared.
func TestCloneHandlers(t *testing.T) {
	c := NewClient()
	setNews(c, func(n *News) { n.Server = "news.one.example" })
	pool := c.KeepFTPLogins(1, false)
	defer pool.Close()
	d := c.Clone()
	setNews(d, func(n *News) { n.Server = "news.two.example" })
	if n := c.Handler("news").(News); n.Server != "news.one.example" {
		t.Errorf("the clone's change reached the original: server %q", n.Server)
	}
	if n := d.Handler("nntp").(News); n.Server != "news.two.example" {
		t.Errorf("the clone's nntp handler has server %q", n.Server)
	}
	if c.Handler("ftp").(FTP).Pool != d.Handler("ftp").(FTP).Pool || c.Handler("ftp").(FTP).Pool != pool.(*ftp.Pool) {
		t.Error("the clone does not share the ftp pool KeepFTPLogins installed")
	}
}

// TestKeepFTPLoginsKeepsHandler: KeepFTPLogins installs the pool on the
// client's ftp handler and leaves a handler of the caller's own alone.
func TestKeepFTPLoginsKeepsHandler(t *testing.T) {
	c := NewClient()
	pool := c.KeepFTPLogins(2, true)
	defer pool.Close()
	if got := c.Handler("ftp").(FTP).Pool; got != pool || got.MaxIdlePerLogin != 2 || !got.StayInDirectory {
		t.Errorf("ftp handler's pool %v, want the one returned", got)
	}
	type wrapped struct{ FTP }
	c.RegisterProtocol("ftp", wrapped{})
	other := c.KeepFTPLogins(1, false)
	defer other.Close()
	if _, ok := c.Handler("ftp").(wrapped); !ok {
		t.Error("KeepFTPLogins replaced a handler of the caller's own")
	}
}

// TestSetHTTPNewTransport: settings installed after a request was sent
// are the ones the next request uses: transports are cached by setting,
// so the one built before (direct) is not used for a proxied client.
func TestSetHTTPNewTransport(t *testing.T) {
	var direct, proxied atomic.Int32
	origin := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { direct.Add(1) }))
	defer origin.Close()
	proxy := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.IsAbs() { // a proxy's request line carries the whole URL (RFC 9112 §3.2.2)
			proxied.Add(1)
		}
	}))
	defer proxy.Close()
	c := NewClient()
	c.AllowAnyPort = true
	// NoProxy "*" (not the environment): a transport of its own, cached.
	setHTTP(c, func(h *HTTP) { h.NoProxy, h.ConnsPerHost = "*", 3 })
	get := func() {
		t.Helper()
		resp, err := c.Get(t.Context(), mustParse(t, origin.URL+"/"))
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
	}
	get()
	setHTTP(c, func(h *HTTP) { h.Proxy, h.NoProxy = proxy.URL, "" })
	get()
	if direct.Load() != 1 || proxied.Load() != 1 {
		t.Errorf("direct %d, through the proxy %d; want 1 and 1 (the second request uses the new settings)", direct.Load(), proxied.Load())
	}
	if c.transport(c.HTTPSettings()).Proxy == nil {
		t.Error("the transport of the new settings has no proxy")
	}
}
