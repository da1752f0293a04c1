package access

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"strings"

	"github.com/rfc1738/rfc1738"
	"github.com/rfc1738/rfc1738/internal/safetext"
)

func init() { defaultHandlers["http"] = httpHandler{} }

// httpHandler is the access method of §3.3, through net/http: one GET,
// redirects followed only to http and ftp URLs, at most
// Client.MaxRedirects of them.
type httpHandler struct{}

// httpRequest is the http handler's own plan data: the request as sent.
type httpRequest struct {
	host       string // the Host header: host, and ":port" when written
	requestURI string // "/path?search", as written in the URL
}

// Plan gives the request line and the Host header of the GET (§3.3).
//
// The path and search are sent as written, still encoded, so an escaped
// CR or LF stays "%0D%0A" on the wire and cannot end the request line;
// §3.3 allows no user or password, so nothing is decoded into a line.
func (httpHandler) Plan(c *Client, u rfc1738.URL) (*Plan, error) {
	h, ok := u.HTTP()
	if !ok {
		return nil, fmt.Errorf("%s: not an http URL: %w", Redact(u.String()), ErrUnsupported)
	}
	p := &Plan{Connect: u.HostPort()}
	if err := c.guardPort(p, u); err != nil {
		return nil, err
	}
	req := httpRequest{host: u.Host(), requestURI: h.RequestURI()}
	if port, ok := u.Port(); ok {
		req.host += ":" + port
	}
	p.Steps = []Step{
		{Verb: "GET", Arg: req.requestURI + " HTTP/1.1", HasArg: true},
		{Verb: "Host:", Arg: req.host, HasArg: true},
	}
	p.Notes = []string{
		"net/http adds its own User-Agent and Accept-Encoding headers",
		fmt.Sprintf("redirects are followed to http and ftp URLs only, at most %d", c.MaxRedirects),
	}
	p.Data = req
	return p, nil
}

// errHTTPRedirectToFTP stops net/http at a redirect to an ftp URL, which the
// ftp handler then fetches.
var errHTTPRedirectToFTP = errors.New("redirect to ftp")

// Get sends the planned GET and follows redirects as Plan says.
func (httpHandler) Get(ctx context.Context, c *Client, p *Plan) (*Response, error) {
	req, ok := p.Data.(httpRequest)
	if !ok {
		return nil, fmt.Errorf("%s: the plan has no http request", p.URL)
	}
	// The request line must carry exactly the planned request-URI. net/url
	// keeps the path as written (RawPath) when it is a valid encoding, as
	// every RFC 1738 hpath is, and the query verbatim; should it differ
	// anyway, an Opaque starting with a single "/" is sent as it is.
	target, err := url.Parse("http://" + req.host + req.requestURI)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", p.URL, err)
	}
	if target.RequestURI() != req.requestURI {
		path, search, found := strings.Cut(req.requestURI, "?")
		target.Opaque, target.RawQuery, target.ForceQuery = path, search, found
	}
	hreq, err := http.NewRequestWithContext(ctx, http.MethodGet, "http://"+req.host+"/", nil)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", p.URL, err)
	}
	hreq.URL, hreq.Host = target, req.host

	hc := &http.Client{}
	if c.HTTPClient != nil {
		copied := *c.HTTPClient
		hc = &copied
	}
	if hc.Transport == nil {
		hc.Transport = httpTransport
	}
	var ftpTarget string
	hc.CheckRedirect = func(r *http.Request, via []*http.Request) error {
		loc := r.URL.String()
		if r.Response != nil {
			if l := r.Response.Header.Get("Location"); strings.HasPrefix(strings.ToLower(l), "ftp:") {
				loc = l // the Location as written, not net/url's re-encoding
			}
		}
		c.trace('!', fmt.Sprintf("redirect %d to %s", len(via), Redact(loc)))
		if len(via) > c.MaxRedirects {
			return fmt.Errorf("stopped after %d redirects (at most %d are followed)", len(via)-1, c.MaxRedirects)
		}
		switch strings.ToLower(r.URL.Scheme) {
		case "http":
			if err := c.CheckRedirectPort(r.URL); err != nil {
				return err
			}
			c.trace('>', "GET "+r.URL.RequestURI()+" HTTP/1.1")
			c.trace('>', "Host: "+r.URL.Host)
			return nil
		case "ftp":
			ftpTarget = loc
			return errHTTPRedirectToFTP
		}
		return fmt.Errorf("redirect to %s refused: only http and ftp URLs are followed", Redact(loc))
	}

	for _, s := range p.Steps {
		c.trace('>', s.Line())
	}
	resp, err := hc.Do(hreq)
	if err != nil {
		if ftpTarget != "" && errors.Is(err, errHTTPRedirectToFTP) {
			return httpGetRedirectedFTP(ctx, c, p, ftpTarget)
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
	if resp.StatusCode < 200 || resp.StatusCode > 299 {
		resp.Body.Close()
		// The status line is the server's text: escaped before any
		// terminal sees it.
		return nil, fmt.Errorf("%s: %s %s", final, resp.Proto, safetext.Escape(resp.Status))
	}
	return &Response{Body: resp.Body, Size: resp.ContentLength, Type: resp.Header.Get("Content-Type"), URL: final, Plan: p}, nil
}

// httpMaxHeaderBytes bounds the response headers: net/http's client
// default of 10 MiB (and more in memory while reading them) is far beyond
// what any real response sends.
const httpMaxHeaderBytes = 64 << 10

// httpTransport is the transport of a Client without its own HTTPClient
// (or whose HTTPClient has no Transport): net/http's default, with the
// response headers bounded.
var httpTransport = func() *http.Transport {
	t := http.DefaultTransport.(*http.Transport).Clone()
	t.MaxResponseHeaderBytes = httpMaxHeaderBytes
	return t
}()

// httpUnwrapURLError drops net/http's *url.Error wrapper, whose text repeats
// the URL (with any password) that the caller names already.
func httpUnwrapURLError(err error) error {
	var ue *url.Error
	if errors.As(err, &ue) {
		return ue.Err
	}
	return err
}

// CheckRedirectPort applies the §6 port guard to the target of an http
// redirect: a URL the peer chose passes the same guard as one the user
// typed.
func (c *Client) CheckRedirectPort(t *url.URL) error {
	if t.Port() == "" {
		return nil
	}
	u, err := rfc1738.Parse("http://" + t.Host + "/")
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
// guards and all.
func httpGetRedirectedFTP(ctx context.Context, c *Client, from *Plan, loc string) (*Response, error) {
	u, err := rfc1738.Parse(loc)
	if err != nil {
		return nil, fmt.Errorf("%s: redirect to %s refused: %w", from.URL, Redact(loc), err)
	}
	if u.Kind() != rfc1738.KindFTP {
		return nil, fmt.Errorf("%s: redirect to %s refused: not an ftp URL", from.URL, Redact(loc))
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
