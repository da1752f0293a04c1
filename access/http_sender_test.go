package access

import (
	"errors"
	"net/http"
	"net/http/httptest"
	"testing"
)

// TestNewHTTPSender: the client NewHTTPSender gives sends the handler's User-Agent and
// stored login, stops at a redirect to ftp with *FTPRedirectError (the
// Location as written), and shares one transport per setting.
func TestNewHTTPSender(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/ftp" {
			w.Header().Set("Location", "ftp://127.0.0.1:2121/a%20b")
			w.WriteHeader(http.StatusFound)
			return
		}
		user, pass, _ := r.BasicAuth()
		w.Header().Set("X-Seen", r.UserAgent()+" "+user+":"+pass)
	}))
	defer srv.Close()
	c := NewClient()
	setHTTP(c, func(h *HTTP) { h.UserAgent = "probe/1" })
	c.Credentials = func(scheme, host string) (string, string, bool) {
		return "joe", "s3cret", scheme == "http" && host == "127.0.0.1"
	}
	h := c.NewHTTPSender(HTTPOptions{PerHost: 2})
	defer h.CloseIdleConnections()
	req, _ := http.NewRequest(http.MethodHead, srv.URL+"/page", nil)
	resp, err := h.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if got := resp.Header.Get("X-Seen"); got != "probe/1 joe:s3cret" {
		t.Errorf("the server saw %q", got)
	}
	req, _ = http.NewRequest(http.MethodHead, srv.URL+"/ftp", nil)
	_, err = h.Do(req)
	var fr *FTPRedirectError
	if !errors.As(err, &fr) || fr.Location != "ftp://127.0.0.1:2121/a%20b" || fr.FromTLS {
		t.Errorf("redirect to ftp: %v (%+v)", err, fr)
	}
	if c.transportPerHost(HTTP{}, 2) != c.transportPerHost(HTTP{}, 2) || c.transportPerHost(HTTP{}, 2) == c.transportPerHost(HTTP{}, 3) || c.transportPerHost(HTTP{}, 2).MaxConnsPerHost != 2 {
		t.Error("the transports are not one per setting")
	}
	if c.transportPerHost(HTTP{}, 0) != httpTransport {
		t.Error("the default setting has a transport of its own")
	}
}
