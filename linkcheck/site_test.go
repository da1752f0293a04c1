package linkcheck_test

import (
	"crypto/tls"
	"fmt"
	"io"
	"log"
	"net"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/rfc1738/rfc1738/internal/testserver"
	"github.com/rfc1738/rfc1738/linkcheck"
)

// site is a generated web site with known broken relative links. Each
// page's links stand on known lines; offsite is another site (another
// port), whose links are checked but not followed.
type site struct {
	mu       sync.Mutex
	paths    []string // requested, in order
	protos   map[int]int
	conns    atomic.Int32
	offsite  string
	pageURLs map[string]string
}

func (s *site) pages() map[string]string {
	return map[string]string{
		"/robots.txt": "User-agent: *\nDisallow: /private/\n",
		"/": `<!doctype html>
<html><head><title>home</title></head><body>
<a href="a.html">a</a>
<a href="missing.html">missing</a>
<img src="img/logo.png">
<a href="private/secret.html">private</a>
<a href="` + s.offsite + `/page">offsite</a>
<a href="old">moved</a>
<a href="#top">top</a> <a href="">itself</a>
</body></html>`,
		// <base href> makes the relative links resolve below /sub/
		// (RFC 3986 §5.1.1); "../gone.html" climbs back to the root.
		"/a.html": `<html><head><base href="/sub/"></head>
<body><a href="b.html">b</a>
<a href="../gone.html">gone</a>
<a href="deep.html#part">deep</a></body></html>`,
		"/sub/b.html":    `<p>b</p>`,
		"/sub/deep.html": `<a href="./nowhere.html">nowhere</a>`,
		// Disallowed by robots.txt: never fetched, its links never seen.
		"/private/secret.html": `<a href="hidden-missing.html">x</a>`,
		"/img/logo.png":        "\x89PNG",
		// /old redirects here; net/url writes the "~" of the final URL
		// as it is, and the relative link resolves against that URL.
		"/~user/p.html": `<a href="q.html">q</a>`,
	}
}

func (s *site) handler() http.Handler {
	pages := s.pages()
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		s.mu.Lock()
		s.paths = append(s.paths, r.URL.Path)
		s.protos[r.ProtoMajor]++
		s.mu.Unlock()
		if r.URL.Path == "/old" {
			http.Redirect(w, r, "/~user/p.html", http.StatusMovedPermanently)
			return
		}
		body, ok := pages[r.URL.Path]
		if !ok {
			http.NotFound(w, r)
			return
		}
		switch {
		case strings.HasSuffix(r.URL.Path, ".png"):
			w.Header().Set("Content-Type", "image/png")
		case strings.HasSuffix(r.URL.Path, ".txt"):
			w.Header().Set("Content-Type", "text/plain")
		default:
			w.Header().Set("Content-Type", "text/html; charset=utf-8")
		}
		io.WriteString(w, body)
	})
}

// offsiteServer is the other site: its page links to a missing page,
// which a run must not see (the page is checked, not followed).
func offsiteServer(t *testing.T) *httptest.Server {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path != "/page" {
			http.NotFound(w, r)
			return
		}
		w.Header().Set("Content-Type", "text/html")
		io.WriteString(w, `<a href="/offsite-missing">x</a>`)
	}))
	t.Cleanup(srv.Close)
	return srv
}

// startSite serves the site over http, or over https with HTTP/2 and a
// certificate of a CA made now (whose pool the checker is given).
func startSite(t *testing.T, k *linkcheck.Checker, https bool) (*site, *httptest.Server) {
	s := &site{protos: map[int]int{}, offsite: offsiteServer(t).URL}
	srv := httptest.NewUnstartedServer(s.handler())
	srv.Config.ConnState = func(_ net.Conn, st http.ConnState) {
		if st == http.StateNew {
			s.conns.Add(1)
		}
	}
	if https {
		ca := testserver.NewCA(t)
		cert, _, _ := ca.Issue(t, time.Time{}, "127.0.0.1")
		srv.EnableHTTP2 = true
		srv.TLS = &tls.Config{Certificates: []tls.Certificate{cert}, MinVersion: tls.VersionTLS12}
		srv.Config.ErrorLog = log.New(io.Discard, "", 0)
		srv.StartTLS()
		k.Client.TLS.Roots = ca.Pool()
	} else {
		srv.Start()
	}
	t.Cleanup(srv.Close)
	return s, srv
}

// pagesServer serves pages, HTML by path (404 for any other path); hook,
// when set, runs first for the path of each page asked for (to hold a
// page back).
func pagesServer(t *testing.T, pages map[string]string, hook func(path string)) *httptest.Server {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, ok := pages[r.URL.Path]
		if !ok {
			http.NotFound(w, r)
			return
		}
		if hook != nil {
			hook(r.URL.Path)
		}
		w.Header().Set("Content-Type", "text/html")
		io.WriteString(w, body)
	}))
	t.Cleanup(srv.Close)
	return srv
}

// siteResults checks run and returns its results as siteResult writes
// them, in the run's order.
func siteResults(t *testing.T, run *linkcheck.Run, base string) []string {
	t.Helper()
	if err := run.Check(testCtx(t)); err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, r := range run.Results() {
		got = append(got, siteResult(r, base))
	}
	return got
}

// siteResult is a result as the tests compare it: the URL below the site,
// the verdict, and the first place.
func siteResult(r linkcheck.Result, base string) string {
	p := ""
	if len(r.Places) > 0 && r.Places[0].File != "" {
		p = fmt.Sprintf(" at %s:%d", strings.TrimPrefix(r.Places[0].File, base), r.Places[0].Line)
	}
	return strings.TrimPrefix(r.URL, base) + " " + r.Status.String() + p
}

// TestSite: --recursive over a generated site, over http and over https
// (HTTP/2, a CA of the test's own): relative links resolved as browsers
// do, <base href> honoured, robots.txt obeyed, off-site links checked and
// not followed, each depth bound exact, every broken link reported with
// its page and line, and the connections to the site shared.
func TestSite(t *testing.T) {
	for _, https := range []bool{false, true} {
		// Each level adds what the pages of the level above link to.
		level1 := []string{
			"/ ok",
			"/a.html ok at /:3",
			"/missing.html broken at /:4",
			"/img/logo.png ok at /:5",
			"/private/secret.html skipped at /:6",
			"OFF/page ok at /:7",
			"/old ok at /:8",
		}
		level2 := append(slices.Clone(level1),
			"/%7Euser/q.html broken at /old:1",
			"/sub/b.html ok at /a.html:2",
			"/gone.html broken at /a.html:3",
			"/sub/deep.html ok at /a.html:4",
		)
		level3 := append(slices.Clone(level2), "/sub/nowhere.html broken at /sub/deep.html:1")
		// With --no-robots the private page is fetched, and followed.
		unruled := append(slices.Clone(level2), "/private/hidden-missing.html broken at /private/secret.html:1")
		unruled[slices.Index(unruled, "/private/secret.html skipped at /:6")] = "/private/secret.html ok at /:6"
		for _, tt := range []struct {
			depth    int
			noRobots bool
			want     []string
		}{
			{1, false, level1},
			{2, false, level2},
			{3, false, level3},
			{2, true, unruled},
		} {
			name := fmt.Sprintf("https=%v/depth=%d/norobots=%v", https, tt.depth, tt.noRobots)
			t.Run(name, func(t *testing.T) {
				k := newChecker(t)
				s, srv := startSite(t, k, https)
				run := &linkcheck.Run{Checker: k, Depth: tt.depth, NoRobots: tt.noRobots, PerHost: 2}
				run.Add(srv.URL+"/", linkcheck.Place{})
				if err := run.Check(testCtx(t)); err != nil {
					t.Fatal(err)
				}
				var got []string
				for _, r := range run.Results() {
					got = append(got, strings.ReplaceAll(siteResult(r, srv.URL), s.offsite, "OFF"))
				}
				slices.Sort(got)
				want := slices.Clone(tt.want)
				slices.Sort(want)
				if !slices.Equal(got, want) {
					t.Errorf("results\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
				}
				s.mu.Lock()
				defer s.mu.Unlock()
				if !tt.noRobots && slices.Contains(s.paths, "/private/secret.html") {
					t.Errorf("a page robots.txt disallows was fetched: %q", s.paths)
				}
				if n := s.conns.Load(); n > 2 {
					t.Errorf("%d connections to the site for %d requests, want at most 2 (kept alive)", n, len(s.paths))
				}
				if https && s.protos[2] != len(s.paths) {
					t.Errorf("requests by HTTP version %v, want every one over HTTP/2", s.protos)
				}
			})
		}
	}
}

// TestSiteReport: the text report names each broken link's page and line.
func TestSiteReport(t *testing.T) {
	k := newChecker(t)
	_, srv := startSite(t, k, false)
	run := &linkcheck.Run{Checker: k, Depth: 2}
	run.Add(srv.URL+"/", linkcheck.Place{})
	if err := run.Check(testCtx(t)); err != nil {
		t.Fatal(err)
	}
	var b strings.Builder
	linkcheck.Report{}.Write(&b, run.Results())
	for _, want := range []string{
		srv.URL + "/:4:10: broken: " + srv.URL + "/missing.html: 404 Not Found\n",
		srv.URL + "/a.html:3:10: broken: " + srv.URL + "/gone.html: 404 Not Found\n",
	} {
		if !strings.Contains(b.String(), want) {
			t.Errorf("report\n%s\nwant a line\n%s", b.String(), want)
		}
	}
}

// TestRobotsServerError: a robots.txt answered with a 5xx disallows the
// whole site (RFC 9309 §2.3.1.4); a 4xx allows it (§2.3.1.3).
func TestRobotsServerError(t *testing.T) {
	for _, tt := range []struct {
		code int
		want linkcheck.Status
	}{
		{http.StatusServiceUnavailable, linkcheck.Skipped},
		{http.StatusInternalServerError, linkcheck.Skipped},
		{http.StatusNotFound, linkcheck.OK},
		{http.StatusForbidden, linkcheck.OK},
	} {
		var fetched atomic.Int32
		srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			if r.URL.Path == "/robots.txt" {
				w.WriteHeader(tt.code)
				return
			}
			fetched.Add(1)
		}))
		k := newChecker(t)
		k.Retries = 0
		run := &linkcheck.Run{Checker: k, Depth: 1}
		run.Add(srv.URL+"/", linkcheck.Place{})
		if err := run.Check(testCtx(t)); err != nil {
			t.Fatal(err)
		}
		rs := run.Results()
		if len(rs) != 1 || rs[0].Status != tt.want {
			t.Errorf("robots.txt %d: %+v, want %s", tt.code, rs, tt.want)
		}
		if n := fetched.Load(); (n > 0) != (tt.want == linkcheck.OK) {
			t.Errorf("robots.txt %d: the page was fetched %d times", tt.code, n)
		}
		srv.Close()
	}
}

// TestRobotsUnreachable: a site whose robots.txt cannot be reached is not
// crawled (RFC 9309 §2.3.1.4); its URLs are broken by the same cause.
func TestRobotsUnreachable(t *testing.T) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := l.Addr().String()
	l.Close()
	k := newChecker(t)
	run := &linkcheck.Run{Checker: k, Depth: 1}
	run.Add("http://"+addr+"/", linkcheck.Place{})
	if err := run.Check(testCtx(t)); err != nil {
		t.Fatal(err)
	}
	rs := run.Results()
	if len(rs) != 1 || rs[0].Status != linkcheck.Broken || !strings.Contains(rs[0].Detail, "robots.txt unreachable") {
		t.Errorf("%+v, want broken: robots.txt unreachable", rs)
	}
}

// TestSiteShortestPath: a depth bound holds for the shortest path to a
// page. /target is found first at depth 3 (through /fast and /f2, while
// /slow is still answering) and not followed; found again at depth 2
// from /slow, its links are then followed, to depth 3.
func TestSiteShortestPath(t *testing.T) {
	pages := map[string]string{
		"/":       `<a href="slow">s</a> <a href="fast">f</a>`,
		"/fast":   `<a href="f2">f2</a>`,
		"/f2":     `<a href="target">t</a>`,
		"/slow":   `<a href="target">t</a>`,
		"/target": `<a href="leaf-missing">l</a>`,
	}
	srv := pagesServer(t, pages, func(path string) {
		if path == "/slow" {
			time.Sleep(300 * time.Millisecond)
		}
	})
	run := &linkcheck.Run{Checker: newChecker(t), Depth: 3, PerHost: 2}
	run.Add(srv.URL+"/", linkcheck.Place{})
	if got := siteResults(t, run, srv.URL); !slices.Contains(got, "/leaf-missing broken at /target:1") {
		t.Errorf("results %q: /leaf-missing (depth 3 by /slow) was not checked", got)
	}
}

// TestSiteShorterPathWhileChecked: a URL found deeper down first, at the
// depth bound, and again on a shorter path while its check is under way,
// is followed when that check ends (the bound holds for the shortest
// path). /target is found at depth 2 by / → /mid; /other (also depth 0)
// answers only once /target is being checked, linking /target (depth 1)
// and then /witness; /target answers only once /witness is asked for, so
// the shorter path is known before its check ends. Its link /leaf
// (depth 2) is checked only if /target is followed.
func TestSiteShorterPathWhileChecked(t *testing.T) {
	targetAsked, witnessAsked := make(chan struct{}), make(chan struct{})
	var targetOnce, witnessOnce sync.Once
	wait := func(c chan struct{}) {
		select {
		case <-c:
		case <-time.After(10 * time.Second): // the test fails below, it does not hang
		}
	}
	pages := map[string]string{
		"/":        `<a href="mid">m</a>`,
		"/mid":     `<a href="target">t</a>`,
		"/other":   `<a href="target">t</a> <a href="witness">w</a>`,
		"/target":  `<a href="leaf">l</a>`,
		"/witness": `no links`,
		"/leaf":    `no links`,
	}
	srv := pagesServer(t, pages, func(path string) {
		switch path {
		case "/other":
			wait(targetAsked)
		case "/target":
			first := false
			targetOnce.Do(func() { first = true; close(targetAsked) })
			if first {
				wait(witnessAsked)
			}
		case "/witness":
			witnessOnce.Do(func() { close(witnessAsked) })
		}
	})
	run := &linkcheck.Run{Checker: newChecker(t), Depth: 2, Jobs: 4, PerHost: 4, NoRobots: true}
	run.Add(srv.URL+"/", linkcheck.Place{})
	run.Add(srv.URL+"/other", linkcheck.Place{})
	if got := siteResults(t, run, srv.URL); !slices.Contains(got, "/leaf ok at /target:1") {
		t.Errorf("results %q: /leaf (depth 2 by /other → /target) was not checked", got)
	}
}

// TestSiteGuard: a page's link to a port of another protocol (§6) is
// refused before anything is sent, robots.txt included.
func TestSiteGuard(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html")
		io.WriteString(w, `<a href="http://127.0.0.1:25/x">mail</a>`)
	}))
	defer srv.Close()
	k := newChecker(t)
	k.Client.AllowAnyPort = false
	run := &linkcheck.Run{Checker: k, Depth: 1}
	run.Add(srv.URL+"/", linkcheck.Place{})
	if err := run.Check(testCtx(t)); err != nil {
		t.Fatal(err)
	}
	rs := run.Results()
	if len(rs) != 2 || rs[1].Status != linkcheck.Skipped || !strings.Contains(rs[1].Detail, "§6") {
		t.Errorf("results %+v, want the link to port 25 skipped by the §6 guard", rs)
	}
}
