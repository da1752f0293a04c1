package linkcheck

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/rfc1738/rfc1738/internal/testserver"
)

// politeRun checks urls with p and returns their verdicts by index.
func politeRun(t *testing.T, p *Polite, urls []string) []Verdict {
	t.Helper()
	out := make([]Verdict, len(urls))
	seen := make([]bool, len(urls))
	p.CheckHost(context.Background(), urls, func(i int, v Verdict) {
		if seen[i] {
			t.Errorf("%s: told twice", urls[i])
		}
		seen[i] = true
		out[i] = v
	})
	for i, ok := range seen {
		if !ok {
			t.Errorf("%s: no verdict", urls[i])
		}
	}
	return out
}

// TestPoliteSpacing: never more than PerHost requests at the host at
// once, never two starting closer than Delay, robots.txt included.
func TestPoliteSpacing(t *testing.T) {
	net := testserver.NewInternet(t)
	host := net.HTTP(func(w http.ResponseWriter, r *http.Request) {
		time.Sleep(150 * time.Millisecond)
		if r.URL.Path == "/robots.txt" {
			http.NotFound(w, r)
		}
	})
	var urls []string
	for i := range 8 {
		urls = append(urls, fmt.Sprintf("http://%s/page%d", host, i))
	}
	const delay = 60 * time.Millisecond
	k := &Checker{}
	defer k.Close()
	start := time.Now()
	vs := politeRun(t, &Polite{Checker: k, PerHost: 2, Delay: delay}, urls)
	for i, v := range vs {
		if v.Status != OK || v.Code != 200 {
			t.Errorf("%s: %v %d %q", urls[i], v.Status, v.Code, v.Detail)
		}
	}
	hits := net.Hits(host)
	if len(hits) != 9 || hits[0].Request != "GET /robots.txt" {
		t.Fatalf("hits: %d, first %+v; want robots.txt then 8 HEADs", len(hits), hits[0])
	}
	if p := net.Peak(host); p != 2 {
		t.Errorf("peak %d requests at once, want 2 (PerHost)", p)
	}
	// The server sees a request a little after it is sent.
	if short := net.CheckSpacing(host, delay); short != "" {
		t.Errorf("requests %s, want at least %v", short, delay)
	}
	// 9 requests, 2 at a time, 150 ms each: at least 5 rounds.
	if el := time.Since(start); el < 5*150*time.Millisecond {
		t.Errorf("done in %v: the requests were not served as said", el)
	}
}

// TestPoliteGivesUp: a host that refuses MaxFailures attempts in a row is
// given up; its other URLs are broken without a connection. With
// robots.txt asked for, the first refusal keeps the site from being
// checked at all (RFC 9309 §2.3.1.4).
func TestPoliteGivesUp(t *testing.T) {
	net := testserver.NewInternet(t)
	closed := net.Closed()
	var urls []string
	for i := range 10 {
		urls = append(urls, fmt.Sprintf("http://%s/%d", closed, i))
	}
	k := &Checker{}
	defer k.Close()
	vs := politeRun(t, &Polite{Checker: k, NoRobots: true, MaxFailures: 3}, urls)
	refused, given := 0, 0
	for _, v := range vs {
		switch {
		case v.Status == Broken && strings.Contains(v.Detail, "connection refused") && !strings.HasPrefix(v.Detail, "host unreachable"):
			refused++
		case v.Status == Broken && strings.HasPrefix(v.Detail, "host unreachable: 3 attempts in a row refused or timed out"):
			given++
		default:
			t.Errorf("verdict %v %q", v.Status, v.Detail)
		}
	}
	if refused != 3 || given != 7 {
		t.Errorf("%d refused, %d given up; want 3 and 7", refused, given)
	}

	vs = politeRun(t, &Polite{Checker: k}, urls)
	for _, v := range vs {
		if v.Status != Broken || !strings.HasPrefix(v.Detail, "robots.txt unreachable") || !strings.Contains(v.Detail, "§2.3.1.4") {
			t.Errorf("with robots.txt: %v %q", v.Status, v.Detail)
		}
	}

	// A host that takes the connection and never answers: timeouts count
	// as refusals do, each attempt one request.
	slow := net.HTTP(func(w http.ResponseWriter, r *http.Request) {
		<-r.Context().Done()
	})
	k2 := &Checker{Timeout: 100 * time.Millisecond}
	defer k2.Close()
	urls = urls[:0]
	for i := range 6 {
		urls = append(urls, fmt.Sprintf("http://%s/%d", slow, i))
	}
	vs = politeRun(t, &Polite{Checker: k2, NoRobots: true, MaxFailures: 2}, urls)
	if n := len(net.Hits(slow)); n != 2 {
		t.Errorf("%d requests to a host that times out, want 2 (MaxFailures)", n)
	}
	for i, v := range vs[2:] {
		if !strings.HasPrefix(v.Detail, "host unreachable: 2 attempts") {
			t.Errorf("%s: %q", urls[i+2], v.Detail)
		}
	}
}

// TestPoliteRetryAfter: a 429's Retry-After holds back every request to
// the site sent after it came, the retry's and another URL's.
func TestPoliteRetryAfter(t *testing.T) {
	net := testserver.NewInternet(t)
	var mu sync.Mutex
	first := true
	host := net.HTTP(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/b" {
			// Busy while the 429 comes: /c is asked for after it.
			time.Sleep(300 * time.Millisecond)
			return
		}
		mu.Lock()
		defer mu.Unlock()
		if first && r.URL.Path == "/a" {
			first = false
			w.Header().Set("Retry-After", "1")
			w.WriteHeader(http.StatusTooManyRequests)
		}
	})
	urls := []string{"http://" + host + "/a", "http://" + host + "/b", "http://" + host + "/c"}
	k := &Checker{Retries: 2, Backoff: time.Millisecond}
	defer k.Close()
	vs := politeRun(t, &Polite{Checker: k, PerHost: 2, NoRobots: true}, urls)
	for i, v := range vs {
		if v.Status != OK {
			t.Errorf("%s: %v %q", urls[i], v.Status, v.Detail)
		}
	}
	hits := net.Hits(host)
	if len(hits) != 4 {
		t.Fatalf("%d requests, want 4 (one refused with 429, then 3)", len(hits))
	}
	var refused testserver.Hit
	for _, h := range hits {
		if h.Request == "HEAD /a" {
			refused = h
			break
		}
	}
	for _, h := range hits {
		if h.Request == "HEAD /b" || h == refused {
			continue
		}
		if d := h.Start.Sub(refused.Start); d < 950*time.Millisecond {
			t.Errorf("%s %v after the 429 asked for 1 s", h.Request, d)
		}
	}
}

// TestPoliteRobots: what robots.txt disallows is skipped and never
// asked for; the verdicts of the rest are the Checker's own.
func TestPoliteRobots(t *testing.T) {
	net := testserver.NewInternet(t)
	host := net.HTTP(func(w http.ResponseWriter, r *http.Request) {
		switch r.URL.Path {
		case "/robots.txt":
			fmt.Fprint(w, "User-agent: *\nDisallow: /private\n")
		case "/gone":
			w.WriteHeader(http.StatusGone)
		case "/hop1":
			http.Redirect(w, r, "/hop2", http.StatusFound)
		case "/hop2":
			http.Redirect(w, r, "/public", http.StatusMovedPermanently)
		case "/missing":
			http.NotFound(w, r)
		}
	})
	urls := []string{"http://" + host + "/private/x", "http://" + host + "/public", "http://" + host + "/gone",
		"http://" + host + "/hop1", "http://" + host + "/missing"}
	k := &Checker{}
	defer k.Close()
	vs := politeRun(t, &Polite{Checker: k}, urls)
	if v := vs[0]; v.Status != Skipped || !strings.Contains(v.Detail, "robots.txt disallows it (Disallow: /private") {
		t.Errorf("disallowed: %v %q", v.Status, v.Detail)
	}
	for _, h := range net.Hits(host) {
		if strings.Contains(h.Request, "/private") {
			t.Errorf("asked for %s", h.Request)
		}
	}
	for i, u := range urls[1:] {
		st, detail := k.Check(context.Background(), u)
		if v := vs[i+1]; v.Status != st || v.Detail != detail {
			t.Errorf("%s: %v %q; Check says %v %q", u, v.Status, v.Detail, st, detail)
		}
	}
	if vs[2].Code != 410 || vs[4].Code != 404 || vs[3].Code != 200 {
		t.Errorf("codes %d %d %d", vs[2].Code, vs[4].Code, vs[3].Code)
	}
	// URLs of no site: no request, the Checker's verdicts.
	urls = []string{"http://[::1/x", "mailto:a@b.example", "file:///nonexistent/rfc1738-polite"}
	vs = politeRun(t, &Polite{Checker: k}, urls)
	for i, u := range urls {
		st, detail := k.Check(context.Background(), u)
		if v := vs[i]; v.Status != st || v.Detail != detail || v.Code != 0 {
			t.Errorf("%s: %v %q %d; Check says %v %q", u, v.Status, v.Detail, v.Code, st, detail)
		}
	}
	if vs[0].Status != Invalid || !strings.HasPrefix(vs[0].Detail, "offset ") {
		t.Errorf("%s: %v %q", urls[0], vs[0].Status, vs[0].Detail)
	}
}

// TestPoliteRedirects: a redirect to the same site is a request of the
// site, spaced like the others; one to another site is not held back.
func TestPoliteRedirects(t *testing.T) {
	net := testserver.NewInternet(t)
	other := net.HTTP(func(w http.ResponseWriter, r *http.Request) {})
	host := net.HTTP(func(w http.ResponseWriter, r *http.Request) {
		switch r.URL.Path {
		case "/r1":
			http.Redirect(w, r, "/r2", http.StatusFound)
		case "/r2":
			http.Redirect(w, r, "/r3", http.StatusFound)
		case "/away":
			http.Redirect(w, r, "http://"+other+"/there", http.StatusFound)
		}
	})
	k := &Checker{}
	defer k.Close()
	const delay = 120 * time.Millisecond
	start := time.Now()
	vs := politeRun(t, &Polite{Checker: k, Delay: delay, NoRobots: true}, []string{"http://" + host + "/r1", "http://" + host + "/away"})
	for _, v := range vs {
		if v.Status != OK {
			t.Errorf("%v %q", v.Status, v.Detail)
		}
	}
	if n := len(net.Hits(host)); n != 4 {
		t.Errorf("%d requests, want 4", n)
	}
	if short := net.CheckSpacing(host, delay); short != "" {
		t.Errorf("requests %s, want at least %v", short, delay)
	}
	if hits := net.Hits(other); len(hits) != 1 || hits[0].Start.Sub(start) > 3*delay+100*time.Millisecond {
		t.Errorf("the other site: %+v", hits)
	}
}

// TestPoliteNotHTTP: a site's gopher URLs are spaced as its http URLs
// are, by Polite itself (no http client to wait at its gate).
func TestPoliteNotHTTP(t *testing.T) {
	net := testserver.NewInternet(t)
	host := net.Gopher(func(string) string { return "some text\r\n.\r\n" })
	var urls []string
	for i := range 5 {
		urls = append(urls, fmt.Sprintf("gopher://%s/0doc%d", host, i))
	}
	const delay = 80 * time.Millisecond
	k := &Checker{}
	defer k.Close()
	vs := politeRun(t, &Polite{Checker: k, PerHost: 2, Delay: delay}, urls)
	for i, v := range vs {
		if v.Status != OK {
			t.Errorf("%s: %v %q", urls[i], v.Status, v.Detail)
		}
	}
	if n := len(net.Hits(host)); n != len(urls) {
		t.Errorf("%d requests, want %d", n, len(urls))
	}
	if why := net.CheckSpacing(host, delay); why != "" {
		t.Error(why)
	}
}

// TestPoliteRetries: a transient failure is tried again Retries times,
// and the verdict says how many attempts it took.
func TestPoliteRetries(t *testing.T) {
	net := testserver.NewInternet(t)
	host := net.HTTP(func(w http.ResponseWriter, r *http.Request) {
		w.WriteHeader(http.StatusServiceUnavailable)
	})
	k := &Checker{Retries: 2, Backoff: time.Millisecond}
	defer k.Close()
	vs := politeRun(t, &Polite{Checker: k, NoRobots: true}, []string{"http://" + host + "/x"})
	if v := vs[0]; v.Status != Broken || v.Code != 503 || !strings.HasSuffix(v.Detail, "(after 3 attempts)") {
		t.Errorf("%v %d %q, want broken 503 after 3 attempts", v.Status, v.Code, v.Detail)
	}
	if n := len(net.Hits(host)); n != 3 {
		t.Errorf("%d requests, want 3: %v", n, net.Hits(host))
	}
}

// TestPoliteRetryAfterOutsideTheTimeout: the wait a Retry-After asks for
// is made before an attempt, not within its time, for every URL of the
// site: the URL waiting its turn when the other's 429 pushes the turn a
// second on waits that second too before its attempt starts, whose
// timeout is shorter; it gets its verdict in one attempt.
func TestPoliteRetryAfterOutsideTheTimeout(t *testing.T) {
	net := testserver.NewInternet(t)
	var mu sync.Mutex
	first := true
	host := net.HTTP(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		defer mu.Unlock()
		if first {
			first = false
			w.Header().Set("Retry-After", "1")
			w.WriteHeader(http.StatusTooManyRequests)
		}
	})
	k := &Checker{Retries: 1, Backoff: time.Millisecond, Timeout: 400 * time.Millisecond}
	defer k.Close()
	urls := []string{"http://" + host + "/a", "http://" + host + "/b"}
	vs := politeRun(t, &Polite{Checker: k, PerHost: 2, Delay: 100 * time.Millisecond, NoRobots: true}, urls)
	retried := 0
	for i, v := range vs {
		if v.Status != OK || v.Code != 200 {
			t.Errorf("%s: %v %d %q, want ok 200 after the wait", urls[i], v.Status, v.Code, v.Detail)
		}
		if strings.Contains(v.Detail, "attempts") {
			retried++
		}
	}
	if retried != 1 {
		t.Errorf("%d URLs took more than one attempt, want 1 (the one refused with 429): %+v", retried, vs)
	}
}

// TestPoliteElsewhere: with Elsewhere (URLs found in documents not read
// from this machine), a file URL is skipped and nothing local is
// touched; other URLs are checked as always.
func TestPoliteElsewhere(t *testing.T) {
	file := filepath.Join(t.TempDir(), "secret")
	if err := os.WriteFile(file, []byte("12345"), 0o600); err != nil {
		t.Fatal(err)
	}
	net := testserver.NewInternet(t)
	host := net.HTTP(func(http.ResponseWriter, *http.Request) {})
	k := &Checker{}
	defer k.Close()
	vs := politeRun(t, &Polite{Checker: k, Elsewhere: true}, []string{"file://" + file})
	if v := vs[0]; v.Status != Skipped || v.Detail != notLocal {
		t.Errorf("elsewhere: %v %q", v.Status, v.Detail)
	}
	vs = politeRun(t, &Polite{Checker: k}, []string{"file://" + file})
	if v := vs[0]; v.Status != OK || v.Detail != "5 bytes" {
		t.Errorf("here: %v %q", v.Status, v.Detail)
	}
	vs = politeRun(t, &Polite{Checker: k, Elsewhere: true, NoRobots: true}, []string{"http://" + host + "/"})
	if v := vs[0]; v.Status != OK {
		t.Errorf("http, elsewhere: %v %q", v.Status, v.Detail)
	}
}

// TestSite: the site of a URL has its scheme's default port written;
// a URL with no host has none.
func TestSite(t *testing.T) {
	for in, want := range map[string]string{
		"http://H.Example/x":      "http://h.example:80",
		"https://h.example:8443/": "https://h.example:8443",
		"ftp://h.example/pub/":    "ftp://h.example:21",
		"file:///etc/passwd":      "",
		"mailto:a@b.example":      "",
		"http://h.example:99999/": "",
	} {
		if got := Site(in, false); got != want {
			t.Errorf("Site(%q) = %q, want %q", in, got, want)
		}
	}
	for in, want := range map[string]string{
		"http://H.example/x":     "http://h.example:80",
		"https://h.example/":     "https://h.example:443",
		"http://h.example:8080/": "http://h.example:8080",
		"https://[::1]:8443/x?y": "https://[::1]:8443",
	} {
		u, err := url.Parse(in)
		if err != nil {
			t.Fatal(err)
		}
		if got := requestSite(u); got != want {
			t.Errorf("requestSite(%q) = %q, want %q", in, got, want)
		}
	}
}

// TestGateDefersTheFirstRequest: the first request of an attempt that
// finds a Retry-After received after the attempt began does not go (the
// attempt is made again after the wait, outside its timeout); a later
// request of the attempt (a redirect's) waits for its turn instead; with
// no Retry-After pending the first request goes at once.
func TestGateDefersTheFirstRequest(t *testing.T) {
	at := func(h *politeHost, first bool) (*gate, *http.Request) {
		g := &gate{h: h}
		g.first.Store(first)
		req := httptest.NewRequest("HEAD", "http://H.example/a", nil)
		return g, req.WithContext(context.WithValue(context.Background(), gateKey{}, g))
	}
	h := &politeHost{site: "http://h.example:80"}
	h.record(outcome{}, 300*time.Millisecond) // a Retry-After just received
	g, req := at(h, true)
	if err := beforeRequest(req); !errors.Is(err, errDeferred) || !g.deferred.Load() {
		t.Fatalf("first request: %v, deferred %v; want errDeferred", err, g.deferred.Load())
	}
	start := time.Now()
	if err := beforeRequest(req); err != nil || g.first.Load() {
		t.Fatalf("the attempt's next request: %v", err)
	}
	if d := time.Since(start); d < 250*time.Millisecond {
		t.Errorf("the next request went after %v, before the Retry-After ended", d)
	}
	free := &politeHost{site: "http://h.example:80"}
	g, req = at(free, true)
	if err := beforeRequest(req); err != nil || g.deferred.Load() {
		t.Errorf("no Retry-After pending: %v, deferred %v", err, g.deferred.Load())
	}
	// Another site's request is not this gate's to hold.
	g, req = at(h, true)
	req.URL.Host = "other.example"
	if err := beforeRequest(req); err != nil || g.deferred.Load() || !g.first.Load() {
		t.Errorf("another site: %v", err)
	}
}
