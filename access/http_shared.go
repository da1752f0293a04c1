package access

// What the http handler (scheme_http.go) and HTTPSender (http_sender.go)
// share: the base transport, the origin a login belongs to, and the §6
// guard on a redirect's port.

import (
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"strings"

	"github.com/rfc1738/rfc1738"
)

// httpTransport is the transport of an HTTP handler without its own
// Client (or whose Client has no Transport): net/http's default, with the
// response headers bounded, and https with the zero TLS policy.
var httpTransport = func() *http.Transport {
	t := http.DefaultTransport.(*http.Transport).Clone()
	t.MaxResponseHeaderBytes = httpMaxHeaderBytes
	// A body is kept as the server sent it (RFC 9110 §8.4): net/http
	// would ask for gzip and decode it, a .tar.gz saved unpacked and a
	// small body on the wire a huge one on disk. HTTP.Compressed
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
