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
	defaultHandlers["http"] = httpHandler{}
	defaultHandlers["https"] = httpHandler{tls: true}
}

// httpHandler is the access method of §3.3, through net/http: one GET,
// redirects followed only to http, https and ftp URLs, at most
// Client.MaxRedirects of them. With tls it is https (RFC 2818): the same
// exchange inside TLS, with the Client's TLS policy, on port 443 by
// default.
type httpHandler struct {
	tls bool
}

// scheme is the scheme the handler serves.
func (h httpHandler) scheme() string {
	if h.tls {
		return "https"
	}
	return "http"
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
func (hh httpHandler) Plan(c *Client, u rfc1738.URL) (*Plan, error) {
	h, ok := u.HTTP()
	if !ok || u.IsHTTPS() != hh.tls {
		why := ""
		if u.IsHTTPS() && u.HasAuthority() {
			why = " (§3.3: no user or password)"
		}
		return nil, fmt.Errorf("%s: not an %s URL%s: %w", Redact(u.String()), hh.scheme(), why, ErrUnsupported)
	}
	p := &Plan{Connect: u.HostPort()}
	if err := c.guardPort(p, u); err != nil {
		return nil, err
	}
	req := httpRequest{scheme: hh.scheme(), host: u.Host(), requestURI: h.RequestURI(), userAgent: c.userAgent()}
	if port, ok := u.Port(); ok {
		req.host += ":" + port
	}
	p.Steps = []Step{
		{Verb: "GET", Arg: req.requestURI + " HTTP/1.1", HasArg: true},
		{Verb: "Host:", Arg: req.host, HasArg: true},
	}
	if !hasHeader(c.HTTPHeader, "User-Agent") {
		p.Steps = append(p.Steps, Step{Verb: "User-Agent:", Arg: req.userAgent, HasArg: true})
	}
	for _, k := range sortedKeys(c.HTTPHeader) {
		for _, v := range c.HTTPHeader[k] {
			p.Steps = append(p.Steps, Step{Verb: k + ":", Arg: v, HasArg: true})
		}
	}
	if c.HTTPCompressed {
		p.Steps = append(p.Steps, Step{Verb: "Accept-Encoding:", Arg: "gzip", HasArg: true})
	}
	p.Notes = []string{
		httpEncodingNote(c.HTTPCompressed),
		fmt.Sprintf("redirects are followed to http, https and ftp URLs only, at most %d; one from https to http or ftp with a warning; a stored login goes to its own origin only, and to no hop after the chain left it", c.MaxRedirects),
	}
	if proxy := c.httpProxyFor(hh.scheme(), req.host); proxy != "" {
		how := "the request line carries the whole URL (RFC 9112 §3.2.2)"
		if hh.tls {
			how = "a CONNECT tunnel (RFC 9110 §9.3.6), TLS end to end with the server"
		}
		p.Notes = append(p.Notes, "through the proxy "+proxy+" (-x, $HTTP_PROXY, $HTTPS_PROXY; --noproxy, $NO_PROXY): "+how)
	}
	if hh.tls {
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
func (httpHandler) planRequest(c *Client, p *Plan, r Request) error {
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
// (Client.checkRedirect); a redirect to ftp is fetched by the ftp handler.
func (httpHandler) Get(ctx context.Context, c *Client, p *Plan) (*Response, error) {
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
	for k, vs := range c.HTTPHeader {
		if len(vs) == 1 && vs[0] == "" && http.CanonicalHeaderKey(k) != "User-Agent" {
			continue // curl's -H "Name:": the field is not sent
		}
		hreq.Header[http.CanonicalHeaderKey(k)] = vs
	}
	// A resumed body is the encoded bytes from Offset on: it asks for
	// none, whose bytes are the resource's own.
	gzipped := c.HTTPCompressed && p.Offset == 0 && !p.Head
	if gzipped {
		hreq.Header.Set("Accept-Encoding", "gzip")
	}
	if p.Offset > 0 {
		hreq.Header.Set("Range", fmt.Sprintf("bytes=%d-", p.Offset))
	}
	c.httpLogin(hreq, req.scheme, p.Parsed.Host())

	hc := &http.Client{}
	if c.HTTPClient != nil {
		copied := *c.HTTPClient
		hc = &copied
	}
	if hc.Transport == nil {
		hc.Transport = c.transport()
	}
	if req.scheme == "https" && c.TLS.Insecure {
		c.warn(p.URL + ": " + insecureWarning)
	}
	hc.CheckRedirect = c.checkRedirect

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

// httpTransport is the transport of a Client without its own HTTPClient
// (or whose HTTPClient has no Transport): net/http's default, with the
// response headers bounded, and https with the zero TLS policy.
var httpTransport = func() *http.Transport {
	t := http.DefaultTransport.(*http.Transport).Clone()
	t.MaxResponseHeaderBytes = httpMaxHeaderBytes
	// A body is kept as the server sent it (RFC 9110 §8.4): net/http
	// would ask for gzip and decode it, a .tar.gz saved unpacked and a
	// small body on the wire a huge one on disk. Client.HTTPCompressed
	// asks for it instead.
	t.DisableCompression = true
	t.TLSClientConfig = TLS{}.Config("") // https: TLS 1.2 at least, the system's roots
	return t
}()

// httpUnwrapURLError drops net/http's *url.Error wrapper, whose text repeats
// the URL (with any password) that the caller names already. A failed
// certificate check becomes a *CertificateError naming the host of the
// request that failed, which may be a redirect's.
func httpUnwrapURLError(err error) error {
	var ue *url.Error
	if errors.As(err, &ue) {
		host := ue.URL
		if t, perr := url.Parse(ue.URL); perr == nil {
			host = t.Hostname()
		}
		return certificateError(host, ue.Err)
	}
	return err
}

// httpOrigin is the origin of an http or https URL (RFC 6454 §4):
// scheme, host and port, the port written out when it is the default.
func httpOrigin(t *url.URL) string {
	scheme := strings.ToLower(t.Scheme)
	port := t.Port()
	if port == "" {
		port = "80"
		if scheme == "https" {
			port = "443"
		}
	}
	return scheme + "://" + strings.ToLower(t.Hostname()) + ":" + port
}

// CheckRedirectPort applies the §6 port guard to the target of an http
// or https redirect: a URL the peer chose passes the same guard as one the
// user typed, with its own scheme's default port.
func (c *Client) CheckRedirectPort(t *url.URL) error {
	if t.Port() == "" {
		return nil
	}
	scheme := "http"
	if strings.EqualFold(t.Scheme, "https") {
		scheme = "https"
	}
	u, err := rfc1738.Parse(scheme + "://" + t.Host + "/")
	if err != nil {
		return fmt.Errorf("redirect to %s refused: %w", Redact(t.String()), err)
	}
	if _, err := c.CheckPort(u); err != nil {
		return fmt.Errorf("redirect to %s: %w", Redact(t.String()), err)
	}
	return nil
}

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
		c.warn(fmt.Sprintf("redirect from https to ftp: %s is fetched %s, and without the stored login", Redact(loc), why))
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
