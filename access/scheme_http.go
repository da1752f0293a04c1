package access

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"sort"
	"strings"

	"github.com/rfc1738/rfc1738"
	"github.com/rfc1738/rfc1738/access/ftp"
)

func init() {
	defaultHandlers["http"] = defaultHTTP
	defaultHandlers["https"] = defaultHTTP
}

// defaultHTTP is the http and https handler of NewClient and of a zero
// Client.
var defaultHTTP = HTTP{MaxRedirects: 10, UserAgent: DefaultUserAgent}

// HTTP is the handler of http URLs (RFC 1738 §3.3) and https URLs (RFC
// 2818: the same exchange inside TLS, with Client.TLS, on port 443 by
// default), through net/http: one GET, redirects followed only to http,
// https and ftp URLs. One value serves both schemes, telling them apart
// by the URL's; Client.SetHTTP installs it for both, Client.HTTPSettings
// reads it. Its fields are the settings of both schemes; the zero value
// follows no redirect (NewClient's follows 10).
type HTTP struct {
	// UserAgent is the User-Agent header of every request (RFC 9110
	// §10.1.5; curl -A); empty means DefaultUserAgent.
	UserAgent string

	// Header holds header fields sent with every request (curl's -H, -A,
	// -e), after the handler's own: a field here replaces the handler's
	// (an empty User-Agent sends none). Range is the handler's.
	Header http.Header

	// Compressed asks for a compressed body (Accept-Encoding: gzip) and
	// decodes a gzip one (curl's --compressed); Response.Size is then -1,
	// and Body counts decoded bytes. Without it nothing is asked and a
	// body is kept as sent (RFC 9110 §8.4), Content-Encoding and all.
	Compressed bool

	// Proxy is the proxy of http and https requests (curl's -x), a URL;
	// "" takes $HTTP_PROXY and $HTTPS_PROXY. NoProxy lists the hosts
	// reached directly (curl's --noproxy): comma-separated names, each
	// matching itself and its subdomains, or "*" for every host; "" takes
	// $NO_PROXY.
	Proxy, NoProxy string

	// ConnsPerHost, when above 0, is the most connections the transport
	// opens to one host, every one of them kept for reuse: a tool
	// fetching N URLs at once sets N, and N connections (one TLS
	// handshake each) serve every URL of the host. 0 keeps net/http's
	// defaults (no limit, 2 kept idle). A transport of the caller's own
	// (in Client) is not concerned.
	ConnsPerHost int

	// Client, when set, is the http.Client of the requests (its
	// Transport, Timeout, Jar); its CheckRedirect is replaced by the
	// handler's redirect policy. Nil, or one without a Transport: the
	// transport made for Client.TLS, Proxy, NoProxy and ConnsPerHost.
	Client *http.Client

	// MaxRedirects is the most redirects a request follows, to http,
	// https and ftp URLs only; 0 follows none.
	MaxRedirects int
}

// httpScheme is the scheme of u the handler serves, "http" or "https".
func httpScheme(u rfc1738.URL) string {
	if u.IsHTTPS() {
		return "https"
	}
	return "http"
}

// userAgent is the User-Agent the handler's requests carry.
func (hh HTTP) userAgent() string {
	if hh.UserAgent != "" {
		return hh.UserAgent
	}
	return DefaultUserAgent
}

// SetHTTP installs h as the handler of both http and https.
func (c *Client) SetHTTP(h HTTP) {
	c.RegisterProtocol("http", h)
	c.RegisterProtocol("https", h)
}

// HTTPSettings returns the http handler in force: the HTTP registered for
// http, else for https, else (a handler of the caller's own on both) the
// default one. A caller changes a setting with
//
//	h := c.HTTPSettings()
//	h.UserAgent = "probe/1"
//	c.SetHTTP(h)
func (c *Client) HTTPSettings() HTTP {
	for _, scheme := range []string{"http", "https"} {
		if h, ok := c.Handler(scheme).(HTTP); ok {
			return h
		}
	}
	return defaultHTTP
}

// httpRequest is the http handler's own plan data: the request as sent.
type httpRequest struct {
	scheme     string // "http" or "https"
	host       string // the Host header: host, and ":port" when written
	requestURI string // "/path?search", as written in the URL
	userAgent  string // the User-Agent header
}

// Plan gives the request line and the Host header of the GET (§3.3).
//
// The path and search are sent as written, still encoded, so an escaped
// CR or LF stays "%0D%0A" on the wire and cannot end the request line;
// §3.3 allows no user or password, so nothing is decoded into a line.
func (hh HTTP) Plan(c *Client, u rfc1738.URL) (*Plan, error) {
	scheme := httpScheme(u)
	h, ok := u.HTTP()
	if !ok {
		why := ""
		if u.IsHTTPS() && u.HasAuthority() {
			why = " (§3.3: no user or password)"
		}
		return nil, fmt.Errorf("%s: not an %s URL%s: %w", Redact(u.String()), scheme, why, ErrUnsupported)
	}
	p := &Plan{Connect: u.HostPort()}
	if err := c.guardPort(p, u); err != nil {
		return nil, err
	}
	req := httpRequest{scheme: scheme, host: u.Host(), requestURI: h.RequestURI(), userAgent: hh.userAgent()}
	if port, ok := u.Port(); ok {
		req.host += ":" + port
	}
	p.Steps = []Step{
		{Verb: "GET", Arg: req.requestURI + " HTTP/1.1", HasArg: true},
		{Verb: "Host:", Arg: req.host, HasArg: true},
	}
	if !hasHeader(hh.Header, "User-Agent") {
		p.Steps = append(p.Steps, Step{Verb: "User-Agent:", Arg: req.userAgent, HasArg: true})
	}
	for _, k := range sortedKeys(hh.Header) {
		for _, v := range hh.Header[k] {
			p.Steps = append(p.Steps, Step{Verb: k + ":", Arg: v, HasArg: true})
		}
	}
	if hh.Compressed {
		p.Steps = append(p.Steps, Step{Verb: "Accept-Encoding:", Arg: "gzip", HasArg: true})
	}
	p.Notes = []string{
		httpEncodingNote(hh.Compressed),
		fmt.Sprintf("redirects are followed to http, https and ftp URLs only, at most %d; one from https to http or ftp with a warning; a stored login goes to its own origin only, and to no hop after the chain left it", hh.MaxRedirects),
	}
	if proxy := c.httpProxyFor(hh, scheme, req.host); proxy != "" {
		how := "the request line carries the whole URL (RFC 9112 §3.2.2)"
		if scheme == "https" {
			how = "a CONNECT tunnel (RFC 9110 §9.3.6), TLS end to end with the server"
		}
		p.Notes = append(p.Notes, "through the proxy "+proxy+" (-x, $HTTP_PROXY, $HTTPS_PROXY; --noproxy, $NO_PROXY): "+how)
	}
	if scheme == "https" {
		// RFC 2818 §3.1: the server's identity is checked against the
		// host of the URL.
		p.Notes = append([]string{c.TLS.describe(u.Host())}, p.Notes...)
		if c.TLS.Insecure {
			p.Warnings = append(p.Warnings, insecureWarning)
		}
	}
	p.Data = req
	return p, nil
}

// planRequest makes the request a HEAD, or adds the Range header of a
// resume (RFC 9110 §14.2), to the plan.
func (HTTP) planRequest(c *Client, p *Plan, r Request) error {
	if r.Head && len(p.Steps) > 0 {
		p.Steps[0].Verb = http.MethodHead
	}
	if r.Offset > 0 {
		p.Steps = append(p.Steps, Step{Verb: "Range:", Arg: fmt.Sprintf("bytes=%d-", r.Offset), HasArg: true})
		p.Notes = append(p.Notes, fmt.Sprintf("resuming at byte %d: a 206 whose Content-Range starts there is appended; a 200 is the whole resource", r.Offset))
	}
	return nil
}

// Get sends the planned GET and follows redirects as Plan says
// (Client.redirectPolicy); a redirect to ftp is fetched by the ftp
// handler.
func (hh HTTP) Get(ctx context.Context, c *Client, p *Plan) (*Response, error) {
	req, ok := p.Data.(httpRequest)
	if !ok {
		return nil, fmt.Errorf("%s: the plan has no http request", p.URL)
	}
	// The request line must carry exactly the planned request-URI. net/url
	// keeps the path as written (RawPath) when it is a valid encoding, as
	// every RFC 1738 hpath is, and the query verbatim; should it differ
	// anyway, an Opaque starting with a single "/" is sent as it is.
	target, err := url.Parse(req.scheme + "://" + req.host + req.requestURI)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", p.URL, err)
	}
	if target.RequestURI() != req.requestURI {
		path, search, found := strings.Cut(req.requestURI, "?")
		target.Opaque, target.RawQuery, target.ForceQuery = path, search, found
	}
	method := http.MethodGet
	if p.Head {
		method = http.MethodHead
	}
	hreq, err := http.NewRequestWithContext(ctx, method, req.scheme+"://"+req.host+"/", nil)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", p.URL, err)
	}
	hreq.URL, hreq.Host = target, req.host
	// RFC 9110 §10.1.5: the product that sends the request; net/http
	// copies it to every redirect it follows. -A and -H replace it.
	hreq.Header.Set("User-Agent", req.userAgent)
	for k, vs := range hh.Header {
		if len(vs) == 1 && vs[0] == "" && http.CanonicalHeaderKey(k) != "User-Agent" {
			continue // curl's -H "Name:": the field is not sent
		}
		hreq.Header[http.CanonicalHeaderKey(k)] = vs
	}
	// A resumed body is the encoded bytes from Offset on: it asks for
	// none, whose bytes are the resource's own.
	gzipped := hh.Compressed && p.Offset == 0 && !p.Head
	if gzipped {
		hreq.Header.Set("Accept-Encoding", "gzip")
	}
	if p.Offset > 0 {
		hreq.Header.Set("Range", fmt.Sprintf("bytes=%d-", p.Offset))
	}
	c.httpLogin(hreq, req.scheme, p.Parsed.Host())

	hc := &http.Client{}
	if hh.Client != nil {
		copied := *hh.Client
		hc = &copied
	}
	if hc.Transport == nil {
		hc.Transport = c.transport(hh)
	}
	if req.scheme == "https" && c.TLS.Insecure {
		c.warn(ctx, p.URL+": "+insecureWarning)
	}
	hc.CheckRedirect = c.redirectPolicy(hh.MaxRedirects)

	for _, s := range p.Steps {
		c.trace('>', s.Line())
	}
	resp, err := hc.Do(hreq)
	if err != nil {
		var fr *FTPRedirectError
		if errors.As(err, &fr) {
			return httpGetRedirectedFTP(ctx, c, p, fr.Location, fr.FromTLS)
		}
		err = httpUnwrapURLError(err)
		if strings.Contains(err.Error(), "server response headers exceeded") {
			err = fmt.Errorf("the response headers are longer than the %d KiB allowed: %w", httpMaxHeaderBytes>>10, err)
		}
		return nil, fmt.Errorf("%s: GET %s: %w", p.URL, req.requestURI, err)
	}
	c.trace('<', resp.Proto+" "+resp.Status)
	final := p.URL
	if resp.Request != hreq {
		final = Redact(resp.Request.URL.String())
	}
	out := &Response{Body: resp.Body, Size: resp.ContentLength, Type: resp.Header.Get("Content-Type"), URL: final, Plan: p,
		Status: resp.Proto + " " + resp.Status, Header: resp.Header}
	if p.Offset > 0 {
		if done, err := httpResumed(out, resp, p.Offset); done || err != nil {
			return out, err
		}
	}
	if gzipped && httpGzipped(resp.Header) {
		out.Body, out.Size = &gzipBody{raw: resp.Body}, -1
	}
	if resp.StatusCode < 200 || resp.StatusCode > 299 {
		herr := &HTTPStatusError{URL: final, Proto: resp.Proto, Status: resp.Status, Code: resp.StatusCode, Header: resp.Header}
		if p.KeepErrorBody {
			herr.Response = out
		} else {
			resp.Body.Close()
		}
		return nil, herr
	}
	return out, nil
}

// httpMaxHeaderBytes bounds the response headers: net/http's client
// default of 10 MiB (and more in memory while reading them) is far beyond
// what any real response sends.
const httpMaxHeaderBytes = 64 << 10

// httpGetRedirectedFTP fetches the ftp URL an http server redirected to: it
// is parsed strictly (RFC 1738 §5) and fetched through the ftp handler,
// guards and all. fromTLS says a hop of the chain was https:
// unless ftp must be TLS (Client.TLS.FTP is ftp.SecurityRequire), that is
// a downgrade, followed with a warning and without the stored login
// (RFC 1738 §6: passwords are not sent where they can be read).
func httpGetRedirectedFTP(ctx context.Context, c *Client, from *Plan, loc string, fromTLS bool) (*Response, error) {
	u, err := rfc1738.Parse(loc)
	if err != nil {
		return nil, fmt.Errorf("%s: redirect to %s refused: %w", from.URL, Redact(loc), err)
	}
	if u.Kind() != rfc1738.KindFTP {
		return nil, fmt.Errorf("%s: redirect to %s refused: not an ftp URL", from.URL, Redact(loc))
	}
	if fromTLS && c.TLS.FTP != ftp.SecurityRequire {
		why := "without TLS"
		if c.TLS.FTP == ftp.SecurityTry {
			why = "with TLS only if the server agrees (--ssl-reqd requires it)"
		}
		c.warn(ctx, fmt.Sprintf("redirect from https to ftp: %s is fetched %s, and without the stored login", Redact(loc), why))
		c = c.Clone()
		c.Credentials = nil
	}
	h := c.Handler("ftp")
	if h == nil {
		return nil, fmt.Errorf("%s: redirect to %s: %w for the ftp scheme", from.URL, Redact(loc), ErrUnsupported)
	}
	p, err := c.Plan(u)
	if err != nil {
		return nil, fmt.Errorf("%s: redirect: %w", from.URL, err)
	}
	resp, err := h.Get(ctx, c, p)
	if err != nil {
		return nil, fmt.Errorf("%s: redirect: %w", from.URL, err)
	}
	if resp.Plan == nil {
		resp.Plan = p
	}
	if resp.URL == "" {
		resp.URL = p.URL
	}
	return resp, nil
}

// httpEncodingNote is the plan's note on content codings.
func httpEncodingNote(compressed bool) string {
	if compressed {
		return "Accept-Encoding: gzip (--compressed): a gzip body is decoded, and limits count the decoded bytes"
	}
	return "no Accept-Encoding is sent: the body is kept as the server sends it (RFC 9110 §8.4)"
}

func sortedKeys(h http.Header) []string {
	keys := make([]string, 0, len(h))
	for k := range h {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}

// hasHeader reports whether h names the field, in any case (RFC 9110
// §5.1: field names are case-insensitive).
func hasHeader(h http.Header, name string) bool {
	for k := range h {
		if strings.EqualFold(k, name) {
			return true
		}
	}
	return false
}
