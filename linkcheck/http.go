package linkcheck

import (
	"context"
	"errors"
	"fmt"
	"io"
	"mime"
	"net"
	"net/http"
	"net/url"
	"strings"
	"time"

	"github.com/rfc1738/rfc1738"
	"github.com/rfc1738/rfc1738/access"
)

// userAgent is the User-Agent of the checker's http and https requests,
// robots.txt's included: the http handler's UserAgent
// (access.DefaultUserAgent, "rfc1738/VERSION", unless set). Its product
// token is the name a robots.txt group addresses (RFC 9309 §2.2.1).
func (k *Checker) userAgent() string {
	if ua := k.Client.HTTPSettings().UserAgent; ua != "" {
		return ua
	}
	return access.DefaultUserAgent
}

// httpClient makes the client of the http and https checks: the access
// package's (its transport, TLS policy, proxy, stored logins, User-Agent
// and redirect policy: http, https and ftp only, the §6 port guard on
// each hop, at most the handler's MaxRedirects), with connections kept
// per host like the ftp logins (HTTP/1.1 keep-alive, and HTTP/2 when a
// server offers it in the TLS handshake, RFC 9113 §3.2) and each host
// name resolved once for all its URLs.
func (k *Checker) httpClient() *access.HTTPSender {
	dns := &dnsCache{resolver: net.DefaultResolver}
	return k.Client.NewHTTPSender(access.HTTPOptions{
		PerHost:       k.PerHost,
		DialContext:   dns.dial(&net.Dialer{Timeout: 30 * time.Second, KeepAlive: 30 * time.Second}),
		BeforeRequest: beforeRequest,
	})
}

// httpTarget returns the URL a request for u is sent to: §3.3's host,
// port, path and search, over TLS for https (RFC 2818).
func httpTarget(u rfc1738.URL) string {
	h, _ := u.HTTP()
	return httpOrigin(u) + h.RequestURI()
}

// httpOrigin returns the scheme, host and port of an http or https URL
// as written, "https://host:port".
func httpOrigin(u rfc1738.URL) string {
	host := u.Host()
	if port, ok := u.Port(); ok {
		host += ":" + port
	}
	scheme := "http"
	if u.IsHTTPS() {
		scheme = "https"
	}
	return scheme + "://" + host
}

// A document is what a check read of a page to find its links: its body
// (at most Checker.MaxPage bytes), the URL that answered (the base of its
// relative references), whether it is HTML, and whether the page was
// longer (cut; total is its Content-Length, -1 when not sent).
type document struct {
	body  []byte
	base  string
	html  bool
	cut   bool
	total int64
}

// checkHTTP sends HEAD (§3.3), and GET when the server refuses HEAD (405,
// 501); a GET's body is not read.
func (k *Checker) checkHTTP(ctx context.Context, u rfc1738.URL, depth int) outcome {
	o, _ := k.checkHTTPRead(ctx, u, depth, false)
	return o
}

// checkHTTPRead is checkHTTP; with read it sends one GET and, when the
// answer is a 2xx HTML or text document, returns its body as well.
func (k *Checker) checkHTTPRead(ctx context.Context, u rfc1738.URL, depth int, read bool) (outcome, *document) {
	target := httpTarget(u)
	var status httpStatus
	var err error
	if read {
		status, err = k.httpDo(ctx, http.MethodGet, target, true)
	} else {
		status, err = k.httpDo(ctx, http.MethodHead, target, false)
		if err == nil && (status.code == http.StatusMethodNotAllowed || status.code == http.StatusNotImplemented) {
			status, err = k.httpDo(ctx, http.MethodGet, target, false)
		}
	}
	if err != nil {
		var fr *access.FTPRedirectError
		if errors.As(err, &fr) {
			if depth > 0 {
				return outcome{status: Broken, detail: "redirect loop between http and ftp"}, nil
			}
			fu, perr := rfc1738.Parse(fr.Location)
			if perr != nil || fu.Kind() != rfc1738.KindFTP {
				return outcome{status: Broken, detail: fmt.Sprintf("redirect to %s refused: not a valid ftp URL", access.Redact(fr.Location))}, nil
			}
			o := k.check(ctx, fu)
			o.detail = "redirect to " + access.Redact(fr.Location) + ": " + o.detail
			return o, nil
		}
		return broken(err), nil
	}
	o := outcome{detail: status.text, code: status.code}
	switch {
	case k.accepts(status.code):
		o.status = OK
	case status.code == http.StatusTooManyRequests || status.code == http.StatusServiceUnavailable:
		o.status, o.transient, o.wait = Broken, true, status.retryAfter
	default:
		o.status = Broken
	}
	if status.final != target {
		o.detail += " (at " + access.Redact(status.final) + ")"
	}
	if o.status != OK || status.doc == nil {
		return o, nil
	}
	status.doc.base = status.final
	return o, status.doc
}

type httpStatus struct {
	code  int
	text  string
	final string    // the URL that answered, after redirects
	doc   *document // the body, when asked for and a document
	// retryAfter is what a 429 or 503 answer's Retry-After asks for.
	retryAfter time.Duration
}

// httpDo sends one request. With read, the body of a 2xx text answer is
// read whole (at most Checker.MaxPage bytes); otherwise enough of it is read
// to let the connection be reused.
func (k *Checker) httpDo(ctx context.Context, method, target string, read bool) (httpStatus, error) {
	t, err := url.Parse(target)
	if err != nil {
		return httpStatus{}, err
	}
	req, err := http.NewRequestWithContext(ctx, method, target, nil)
	if err != nil {
		return httpStatus{}, err
	}
	req.URL = t
	req.Header.Set("User-Agent", k.userAgent())
	resp, err := k.hc.Do(req)
	if err != nil {
		return httpStatus{}, unwrapURLError(err)
	}
	defer resp.Body.Close()
	st := httpStatus{code: resp.StatusCode, text: resp.Status, final: resp.Request.URL.String(),
		retryAfter: retryAfter(resp.Header, time.Now())}
	mt, _, _ := mime.ParseMediaType(resp.Header.Get("Content-Type"))
	if read && resp.StatusCode/100 == 2 && (mt == "" || strings.HasPrefix(mt, "text/") || mt == "application/xhtml+xml") {
		b, cut, err := readDocument(resp.Body, k.maxPage())
		if err != nil {
			return httpStatus{}, err
		}
		st.doc = &document{body: b, html: mt == "text/html" || mt == "application/xhtml+xml" || (mt == "" && isHTML("", b)),
			cut: cut, total: resp.ContentLength}
		return st, nil
	}
	// A large body is cut.
	io.CopyN(io.Discard, resp.Body, 4096)
	return st, nil
}

// unwrapURLError drops net/http's *url.Error wrapper: the URL is printed
// beside the detail already.
func unwrapURLError(err error) error {
	var ue *url.Error
	if errors.As(err, &ue) {
		return ue.Err
	}
	return err
}
