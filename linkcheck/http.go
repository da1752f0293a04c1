package linkcheck

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strings"

	"github.com/rfc1738/rfc1738"
	"github.com/rfc1738/rfc1738/access"
)

// errFTPRedirect stops net/http at a redirect to an ftp URL, which the
// ftp check then checks.
type errFTPRedirect struct{ loc string }

func (e *errFTPRedirect) Error() string { return "redirect to " + access.Redact(e.loc) }

// httpClient makes the client of the http checks: connections kept per
// host like the ftp logins, redirects only to http (with the §6 port
// guard) and ftp, at most Client.MaxRedirects.
func (k *Checker) httpClient() *http.Client {
	tr := http.DefaultTransport.(*http.Transport).Clone()
	tr.Proxy = nil // a check talks to the URL's own host
	tr.MaxIdleConnsPerHost = k.PerHost
	tr.MaxConnsPerHost = k.PerHost
	tr.DisableCompression = true
	return &http.Client{
		Transport: tr,
		CheckRedirect: func(r *http.Request, via []*http.Request) error {
			loc := r.URL.String()
			if r.Response != nil {
				if l := r.Response.Header.Get("Location"); strings.HasPrefix(strings.ToLower(l), "ftp:") {
					return &errFTPRedirect{loc: l}
				}
			}
			if len(via) > k.Client.MaxRedirects {
				return fmt.Errorf("stopped after %d redirects (at most %d are followed)", len(via)-1, k.Client.MaxRedirects)
			}
			if !strings.EqualFold(r.URL.Scheme, "http") {
				return fmt.Errorf("redirect to %s refused: only http and ftp URLs are followed", access.Redact(loc))
			}
			// §6: a redirect is a URL the peer chose; it passes the port
			// guard like one typed by the user.
			return k.Client.CheckRedirectPort(r.URL)
		},
	}
}

// checkHTTP sends HEAD (§3.3), and GET when the server refuses HEAD (405,
// 501); a GET's body is not read.
func (k *Checker) checkHTTP(ctx context.Context, u rfc1738.URL, depth int) outcome {
	h, _ := u.HTTP()
	host := u.Host()
	if port, ok := u.Port(); ok {
		host += ":" + port
	}
	target := "http://" + host + h.RequestURI()
	status, err := k.httpDo(ctx, http.MethodHead, target)
	if err == nil && (status.code == http.StatusMethodNotAllowed || status.code == http.StatusNotImplemented) {
		status, err = k.httpDo(ctx, http.MethodGet, target)
	}
	if err != nil {
		var fr *errFTPRedirect
		if errors.As(err, &fr) {
			if depth > 0 {
				return outcome{status: Broken, detail: "redirect loop between http and ftp"}
			}
			fu, perr := rfc1738.Parse(fr.loc)
			if perr != nil || fu.Kind() != rfc1738.KindFTP {
				return outcome{status: Broken, detail: fmt.Sprintf("redirect to %s refused: not a valid ftp URL", access.Redact(fr.loc))}
			}
			o := k.check(ctx, fu)
			o.detail = "redirect to " + access.Redact(fr.loc) + ": " + o.detail
			return o
		}
		return broken(err)
	}
	o := outcome{detail: status.text}
	switch {
	case status.code/100 == 2:
		o.status = OK
	case status.code == http.StatusTooManyRequests || status.code == http.StatusServiceUnavailable:
		o.status, o.transient = Broken, true
	default:
		o.status = Broken
	}
	if status.final != target {
		o.detail += " (at " + access.Redact(status.final) + ")"
	}
	return o
}

type httpStatus struct {
	code  int
	text  string
	final string // the URL that answered, after redirects
}

func (k *Checker) httpDo(ctx context.Context, method, target string) (httpStatus, error) {
	t, err := url.Parse(target)
	if err != nil {
		return httpStatus{}, err
	}
	req, err := http.NewRequestWithContext(ctx, method, target, nil)
	if err != nil {
		return httpStatus{}, err
	}
	req.URL = t
	resp, err := k.hc.Do(req)
	if err != nil {
		var ue *url.Error
		if errors.As(err, &ue) {
			err = ue.Err // the URL is printed beside the detail already
		}
		return httpStatus{}, err
	}
	// Enough of a body is read to let the connection be reused; a large
	// body is cut.
	io.CopyN(io.Discard, resp.Body, 4096)
	resp.Body.Close()
	return httpStatus{code: resp.StatusCode, text: resp.Status, final: resp.Request.URL.String()}, nil
}
