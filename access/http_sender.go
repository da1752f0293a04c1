package access

import (
	"context"
	"fmt"
	"net"
	"net/http"
	"net/url"
	"strings"
)

// HTTPOptions are what a caller of Client.NewHTTPSender adds to the
// Client's own http settings (TLS, login, and the http handler's proxy,
// User-Agent and redirects).
type HTTPOptions struct {
	// PerHost, when positive, bounds the connections to one host, and
	// as many are kept idle for the next request (HTTP/1.1 keep-alive);
	// 0 takes the http handler's ConnsPerHost.
	PerHost int
	// DialContext, when set, opens the TCP connections (a resolver of
	// the caller's own, say); the transport is then the HTTP's alone.
	DialContext func(ctx context.Context, network, addr string) (net.Conn, error)
	// BeforeRequest, when set, is called before each request is sent,
	// each redirect's included; an error is the request's (a crawler's
	// per-host spacing, say: it returns when the request may go).
	BeforeRequest func(req *http.Request) error
}

// HTTPSender sends http and https requests as the http handler does: the
// same transport (Client.TLS, the handler's Proxy and NoProxy or the
// environment, the response headers bounded, no content coding asked
// for), the same redirect policy, the stored login (Client.Credentials)
// for a request's own origin only, and the handler's UserAgent. It takes
// the settings in force when it is made (Client.HTTPSettings).
type HTTPSender struct {
	c  *Client
	h  HTTP
	hc *http.Client
}

// NewHTTPSender returns the http client of c for a caller that sends its
// own requests (a link checker's HEAD). A redirect to an ftp URL stops
// the request with an error wrapping *FTPRedirectError, for the caller
// to follow as it sees fit.
func (c *Client) NewHTTPSender(o HTTPOptions) *HTTPSender {
	h := c.HTTPSettings()
	hc := &http.Client{}
	if h.Client != nil {
		copied := *h.Client
		hc = &copied
	}
	perHost := o.PerHost
	if perHost <= 0 {
		perHost = h.ConnsPerHost
	}
	if hc.Transport == nil {
		if o.DialContext != nil {
			t := c.newTransport(h, perHost)
			t.DialContext = o.DialContext
			hc.Transport = t
		} else {
			hc.Transport = c.transportPerHost(h, perHost)
		}
	}
	hc.CheckRedirect = c.redirectPolicy(h.MaxRedirects)
	if o.BeforeRequest != nil {
		hc.Transport = &gatedTransport{next: hc.Transport, before: o.BeforeRequest}
	}
	return &HTTPSender{c: c, h: h, hc: hc}
}

// gatedTransport asks before each request it sends, a redirect's
// included.
type gatedTransport struct {
	next   http.RoundTripper
	before func(*http.Request) error
}

func (t *gatedTransport) RoundTrip(req *http.Request) (*http.Response, error) {
	if err := t.before(req); err != nil {
		if req.Body != nil {
			req.Body.Close() // a RoundTripper closes the body, even on error
		}
		return nil, err
	}
	return t.next.RoundTrip(req)
}

// CloseIdleConnections closes the idle connections of the transport it
// gates.
func (t *gatedTransport) CloseIdleConnections() {
	if c, ok := t.next.(interface{ CloseIdleConnections() }); ok {
		c.CloseIdleConnections()
	}
}

// Do sends req, with the handler's User-Agent unless req has one, and
// the stored login of its host unless it has an Authorization field.
func (h *HTTPSender) Do(req *http.Request) (*http.Response, error) {
	if req.Header.Get("User-Agent") == "" {
		req.Header.Set("User-Agent", h.h.userAgent())
	}
	if req.Header.Get("Authorization") == "" {
		h.c.httpLogin(req, strings.ToLower(req.URL.Scheme), req.URL.Hostname())
	}
	return h.hc.Do(req)
}

// CloseIdleConnections closes the connections kept for later requests.
func (h *HTTPSender) CloseIdleConnections() { h.hc.CloseIdleConnections() }

// httpLogin sets the stored login of host (Client.Credentials, netrc) on
// req as Basic authentication (RFC 7617), and reports whether it did.
func (c *Client) httpLogin(req *http.Request, scheme, host string) bool {
	if c.Credentials == nil {
		return false
	}
	user, pass, ok := c.Credentials(scheme, host)
	if !ok {
		return false
	}
	req.SetBasicAuth(user, pass)
	c.trace('!', "Authorization: Basic **** (the login stored for "+host+", netrc)")
	return true
}

// FTPRedirectError is a redirect from http or https to an ftp URL, which
// net/http does not follow: the http handler fetches it through the ftp
// handler; a caller of HTTPSender.Do gets it inside net/http's *url.Error.
type FTPRedirectError struct {
	Location string // the Location field as the server wrote it
	FromTLS  bool   // a hop of the chain was https: ftp would be a downgrade
}

func (e *FTPRedirectError) Error() string { return "redirect to " + Redact(e.Location) }

// redirectPolicy is the redirect policy of every http request: at most
// maxRedirects hops (HTTP.MaxRedirects), to http, https and ftp URLs
// only, each passing the §6 port guard as a URL the user typed; an https
// to http hop is followed with a warning; the Authorization field goes
// to the first request's origin only, and to no hop once the chain left
// it. It keeps no state of its own (the chain is in via), so one
// http.Client serves many requests at once.
func (c *Client) redirectPolicy(maxRedirects int) func(*http.Request, []*http.Request) error {
	return func(r *http.Request, via []*http.Request) error { return c.checkRedirect(maxRedirects, r, via) }
}

func (c *Client) checkRedirect(maxRedirects int, r *http.Request, via []*http.Request) error {
	loc := r.URL.String()
	if r.Response != nil {
		if l := r.Response.Header.Get("Location"); strings.HasPrefix(strings.ToLower(l), "ftp:") {
			loc = l // the Location as written, not net/url's re-encoding
		}
	}
	c.trace('!', fmt.Sprintf("redirect %d to %s", len(via), Redact(loc)))
	if len(via) > maxRedirects {
		return fmt.Errorf("stopped after %d redirects (at most %d are followed)", len(via)-1, maxRedirects)
	}
	origin := httpOrigin(via[0].URL)
	switch strings.ToLower(r.URL.Scheme) {
	case "http", "https":
		if err := c.CheckRedirectPort(r.URL); err != nil {
			return err
		}
		// The chain left the login's origin (the first request's
		// scheme, host and port) at an earlier hop, or at this one:
		// net/http copies the first request's header fields to every
		// hop, so the login is taken off each hop from then on, even
		// one back to that origin.
		leftBefore := false
		for _, v := range via[1:] {
			if httpOrigin(v.URL) != origin {
				leftBefore = true
				break
			}
		}
		left := leftBefore || httpOrigin(r.URL) != origin
		if left && !leftBefore && via[0].Header.Get("Authorization") != "" {
			c.trace('!', "the chain left "+origin+": the stored login is not sent again, on this hop or any later one")
		}
		if left {
			// RFC 9110 §11.6.2 leaves it to the client which origins
			// get credentials: only the login's own, and only while
			// the chain never left it (nor TLS).
			r.Header.Del("Authorization")
		}
		if prev := via[len(via)-1].URL; strings.EqualFold(prev.Scheme, "https") && strings.EqualFold(r.URL.Scheme, "http") {
			// A downgrade: what follows is in clear. Followed, as
			// browsers and curl do, but the user is told, and no
			// credentials go along (an http origin is never the https
			// one the login was sent to).
			c.warn(r.Context(), fmt.Sprintf("redirect from https to http: %s is fetched without TLS, and without credentials", Redact(loc)))
		}
		c.trace('>', r.Method+" "+r.URL.RequestURI()+" HTTP/1.1")
		c.trace('>', "Host: "+r.URL.Host)
		return nil
	case "ftp":
		fromTLS := false
		for _, v := range via {
			fromTLS = fromTLS || strings.EqualFold(v.URL.Scheme, "https")
		}
		return &FTPRedirectError{Location: loc, FromTLS: fromTLS}
	}
	return fmt.Errorf("redirect to %s refused: only http, https and ftp URLs are followed", Redact(loc))
}

// httpProxyFor is the proxy (redacted) a request of the handler h for
// scheme://host goes through, as its transport chooses it; "" for none.
func (c *Client) httpProxyFor(h HTTP, scheme, host string) string {
	if h.Client != nil && h.Client.Transport != nil {
		return "" // the caller's transport: its proxy is its own
	}
	t := c.transport(h)
	if t.Proxy == nil {
		return ""
	}
	u, err := t.Proxy(&http.Request{URL: &url.URL{Scheme: scheme, Host: host}})
	if err != nil || u == nil {
		return ""
	}
	return Redact(u.String())
}
