package main

import (
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
)

// forwardProxy is a loopback http forward proxy (RFC 9112 §3.2.2: the
// request target in absolute form) that logs each request it forwards.
type forwardProxy struct {
	*httptest.Server
	mu  sync.Mutex
	log []string
}

func newForwardProxy(t *testing.T) *forwardProxy {
	p := &forwardProxy{}
	direct := &http.Transport{} // no proxy of its own
	t.Cleanup(direct.CloseIdleConnections)
	p.Server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		p.mu.Lock()
		p.log = append(p.log, r.Method+" "+r.URL.String()+" "+r.Header.Get("User-Agent"))
		p.mu.Unlock()
		if !r.URL.IsAbs() {
			http.Error(w, "not a proxy request", http.StatusBadRequest)
			return
		}
		out, err := http.NewRequestWithContext(r.Context(), r.Method, r.URL.String(), nil)
		if err != nil {
			http.Error(w, err.Error(), http.StatusBadGateway)
			return
		}
		out.Header = r.Header.Clone()
		resp, err := direct.RoundTrip(out)
		if err != nil {
			http.Error(w, err.Error(), http.StatusBadGateway)
			return
		}
		defer resp.Body.Close()
		for k, vs := range resp.Header {
			w.Header()[k] = vs
		}
		w.WriteHeader(resp.StatusCode)
		io.Copy(w, resp.Body)
	}))
	t.Cleanup(p.Close)
	return p
}

func (p *forwardProxy) String() string {
	p.mu.Lock()
	defer p.mu.Unlock()
	return strings.Join(p.log, "\n")
}

// TestLinkcheckAndGetShareTheProxy: linkcheck and get both go through the
// proxy -x names (one http stack, access's): the proxy sees get's GET and
// linkcheck's HEAD, each with the tool's User-Agent, and the origin sees
// them only through it.
func TestLinkcheckAndGetShareTheProxy(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the binary")
	}
	var direct []string
	var mu sync.Mutex
	origin := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		direct = append(direct, r.Method+" "+r.URL.Path)
		mu.Unlock()
		fmt.Fprint(w, "page")
	}))
	t.Cleanup(origin.Close)
	proxy := newForwardProxy(t)

	out, errOut, status := runBinary(t, "", "get", "-x", proxy.URL, origin.URL+"/g")
	if status != 0 || out != "page" {
		t.Fatalf("get -x: %d %q %q", status, out, errOut)
	}
	out, errOut, status = runBinary(t, "", "linkcheck", "-q", "-x", proxy.URL, origin.URL+"/l")
	if status != 0 {
		t.Fatalf("linkcheck -x: %d %q %q", status, out, errOut)
	}
	log := proxy.String()
	for _, want := range []string{"GET " + origin.URL + "/g rfc1738/", "HEAD " + origin.URL + "/l rfc1738/"} {
		if !strings.Contains(log, want) {
			t.Errorf("the proxy did not see %q; it saw\n%s", want, log)
		}
	}
	mu.Lock()
	seen := append([]string(nil), direct...)
	mu.Unlock()
	if len(seen) != 2 {
		t.Errorf("the origin saw %q, want the two requests the proxy forwarded", seen)
	}
	// --noproxy names the origin: linkcheck goes there directly.
	before := proxy.String()
	if _, errOut, status := runBinary(t, "", "linkcheck", "-q", "-x", proxy.URL, "--noproxy", "127.0.0.1", origin.URL+"/n"); status != 0 || proxy.String() != before {
		t.Errorf("linkcheck --noproxy: %d %q; the proxy saw\n%s", status, errOut, proxy.String())
	}
}

// TestLinkcheckNetrc: linkcheck --netrc-file sends the stored login to
// its own origin (RFC 7617 Basic), as get does, and to no hop once a
// redirect chain left that origin or left TLS: https://h/r → http://h/r2
// → http://h/auth carries it on the first hop only, and so does
// https://h/r → https://h:other/x → https://h/back.
func TestLinkcheckNetrc(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the binary")
	}
	chain := newLoginChain(t, "")
	rc, caFile, secure, log := chain.netrc, chain.caFile, chain.secure, &chain.log
	basic := `auth="Basic am9lOnMzY3JldA=="`
	for _, tt := range []struct {
		path string
		want []string
	}{
		{"/page", []string{"/page " + basic}},
		{"/r", []string{"/r " + basic, `/r2 auth=""`, `/auth auth=""`}},
		{"/away", []string{"/away " + basic, `/x auth=""`, `/back auth=""`}},
	} {
		log.reset()
		out, errOut, status := runBinary(t, "", "linkcheck", "-q", "--netrc-file", rc, "--cacert", caFile, secure.URL+tt.path)
		if status != 0 || log.String() != strings.Join(tt.want, "\n") {
			t.Errorf("%s: status %d; the hops carried\n%s\nwant\n%s\nstdout %q stderr %q", tt.path, status, log, strings.Join(tt.want, "\n"), out, errOut)
		}
	}
	// Without --netrc no login is sent.
	log.reset()
	if _, errOut, status := runBinary(t, "", "linkcheck", "-q", "--cacert", caFile, secure.URL+"/page"); status != 0 || log.String() != `/page auth=""` {
		t.Errorf("no --netrc: %d %q; the server saw\n%s", status, errOut, log)
	}
}

// TestPlanProxy: plan names the proxy hop the run takes, from -x or
// $HTTP_PROXY (its password redacted), and none for a host --noproxy
// names.
func TestPlanProxy(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the binary")
	}
	noEnv := []string{"HTTP_PROXY=", "http_proxy=", "HTTPS_PROXY=", "https_proxy=", "NO_PROXY=", "no_proxy="}
	for _, tt := range []struct {
		vars []string
		args []string
		want string // "" for no proxy note
	}{
		{noEnv, []string{"-x", "http://u:pw@127.0.0.1:3128", "https://example.org/x"}, "through the proxy http://u:****@127.0.0.1:3128"},
		{noEnv, []string{"-x", "127.0.0.1:3128", "http://example.org/x"}, "through the proxy http://127.0.0.1:3128"},
		{append(noEnv, "HTTP_PROXY=http://127.0.0.1:8080"), []string{"http://example.org/x"}, "through the proxy http://127.0.0.1:8080"},
		{noEnv, []string{"-x", "127.0.0.1:3128", "--noproxy", "example.org", "http://www.example.org/x"}, ""},
		{noEnv, []string{"http://example.org/x"}, ""},
	} {
		out, errOut, status := runEnvIn(t, "", tt.vars, "", append([]string{"plan"}, tt.args...)...)
		all := out + errOut // the notes are on stderr
		got := strings.Contains(all, "through the proxy")
		if status != 0 || got != (tt.want != "") || !strings.Contains(all, tt.want) || strings.Contains(all, "pw@") {
			t.Errorf("plan %q: %d, want %q in\n%s%s", tt.args, status, tt.want, out, errOut)
		}
	}
}
