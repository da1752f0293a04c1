package linkcheck

import (
	"context"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/rfc1738/rfc1738/access"
)

// site serves /robots.txt (robots, or 404 when empty), /ok, /private
// and a 404 for anything else, counting the requests by path.
func site(t *testing.T, robots string) (*httptest.Server, *sync.Map) {
	t.Helper()
	var asked sync.Map
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		n, _ := asked.LoadOrStore(r.URL.Path, new(atomic.Int32))
		n.(*atomic.Int32).Add(1)
		switch r.URL.Path {
		case "/robots.txt":
			if robots == "" {
				http.NotFound(w, r)
				return
			}
			w.Write([]byte(robots))
		case "/ok", "/private":
			w.Write([]byte("here"))
		default:
			http.NotFound(w, r)
		}
	}))
	t.Cleanup(srv.Close)
	return srv, &asked
}

func askedFor(m *sync.Map, path string) int32 {
	if n, ok := m.Load(path); ok {
		return n.(*atomic.Int32).Load()
	}
	return 0
}

// TestRunCounts: Progress gets the URLs decided, the distinct URLs and
// the broken ones (invalid included) so far; an invalid URL's scheme is
// reported when it has one.
func TestRunCounts(t *testing.T) {
	srv, _ := site(t, "")
	var mu sync.Mutex
	var calls [][3]int
	r := &Run{Checker: loopbackChecker(t), Progress: func(done, total, broken int) {
		mu.Lock()
		calls = append(calls, [3]int{done, total, broken})
		mu.Unlock()
	}}
	r.Add(srv.URL+"/ok", Place{})
	r.Add(srv.URL+"/gone", Place{})
	r.Add("http://a b/", Place{})
	r.Add("ftp://x y/", Place{})
	r.Add("http://a b/", Place{Line: 2})
	r.Add(srv.URL+"/private", Place{}) // a second ok URL: ok is never counted broken
	if err := r.Check(context.Background()); err != nil {
		t.Fatal(err)
	}
	if len(calls) != 3 || calls[2] != [3]int{5, 5, 3} {
		t.Errorf("progress %v, want 3 calls ending with done 5, total 5, broken 3", calls)
	}
	for i, c := range calls[:min(len(calls), 2)] {
		// The two invalid URLs are decided before any check; the
		// broken count is theirs, and /gone's once it is checked.
		if c[0] != 3+i || c[1] != 5 || c[2] != 2 && c[2] != 3 {
			t.Errorf("progress %d: %v", i, c)
		}
	}
	rs := r.Results()
	if len(rs) != 5 || r.Total() != 5 {
		t.Fatalf("%d results, total %d", len(rs), r.Total())
	}
	if &r.Results()[0] != &rs[0] {
		t.Errorf("every URL checked: Results is a copy, not the run's own slice")
	}
	want := []struct {
		status Status
		scheme string
		places int
	}{{OK, "http", 1}, {Broken, "http", 1}, {Invalid, "http", 2}, {Invalid, "ftp", 1}, {OK, "http", 1}}
	for i, w := range want {
		if rs[i].Status != w.status || rs[i].Scheme != w.scheme || len(rs[i].Places) != w.places {
			t.Errorf("result %d: %s %q %d places; want %s %q %d", i, rs[i].Status, rs[i].Scheme, len(rs[i].Places), w.status, w.scheme, w.places)
		}
	}
	for s, want := range map[string]string{"HTTP://a b": "http", "http": "", ":x": "", "1a:b": "", "a1+.-:": "a1+.-", "x y:z": ""} {
		if got := schemeOf(s); got != want {
			t.Errorf("schemeOf(%q) = %q, want %q", s, got, want)
		}
	}
}

// TestRunCacheWrites: a verdict checked now is cached, unless it is
// invalid or its URL holds a password (§6); a cached verdict is given
// without asking the server, and said to be cached.
func TestRunCacheWrites(t *testing.T) {
	srv, asked := site(t, "")
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	closed := l.Addr().String()
	l.Close()
	path := filepath.Join(t.TempDir(), "cache")
	c, err := OpenCache(path, 0)
	if err != nil {
		t.Fatal(err)
	}
	r := &Run{Checker: loopbackChecker(t), Cache: c}
	r.Add(srv.URL+"/ok", Place{})
	r.Add("ftp://u:secret@"+closed+"/f", Place{})
	r.Add("https://u:pw@127.0.0.1/", Place{})
	if err := r.Check(context.Background()); err != nil {
		t.Fatal(err)
	}
	rs := r.Results()
	if rs[0].Status != OK || rs[1].Status != Broken || rs[2].Status != Invalid || rs[0].Cached {
		t.Fatalf("results %+v", rs)
	}
	if len(c.entries) != 1 {
		t.Errorf("cached %+v, want only the ok URL", c.entries)
	}
	for _, e := range c.entries {
		if e.URL != srv.URL+"/ok" || e.Status != OK {
			t.Errorf("cached %+v", e)
		}
	}
	r = &Run{Checker: loopbackChecker(t), Cache: c}
	r.Add(srv.URL+"/ok", Place{})
	if err := r.Check(context.Background()); err != nil {
		t.Fatal(err)
	}
	if rs := r.Results(); !rs[0].Cached || rs[0].Status != OK || askedFor(asked, "/ok") != 1 {
		t.Errorf("second run: %+v, /ok asked %d times; want the cached verdict", rs, askedFor(asked, "/ok"))
	}
}

// TestRunRobots: robots.txt is asked for only by a recursive run, once
// per site, and not with NoRobots; a page it disallows is skipped, not
// fetched, with the rule that decided.
func TestRunRobots(t *testing.T) {
	for _, tt := range []struct {
		depth    int
		noRobots bool
		robots   int32
	}{{0, false, 0}, {1, false, 1}, {1, true, 0}} {
		srv, asked := site(t, "User-agent: *\nDisallow: /private\n")
		r := &Run{Checker: loopbackChecker(t), Depth: tt.depth, NoRobots: tt.noRobots}
		r.Add(srv.URL+"/ok", Place{})
		r.Add(srv.URL+"/private", Place{})
		if err := r.Check(context.Background()); err != nil {
			t.Fatal(err)
		}
		if n := askedFor(asked, "/robots.txt"); n != tt.robots {
			t.Errorf("depth %d, no robots %v: robots.txt asked %d times, want %d", tt.depth, tt.noRobots, n, tt.robots)
		}
		rs := r.Results()
		obeyed := tt.robots > 0
		if rs[0].Status != OK || (rs[1].Status == Skipped) != obeyed || (askedFor(asked, "/private") == 0) != obeyed {
			t.Errorf("depth %d, no robots %v: %+v, /private asked %d times", tt.depth, tt.noRobots, rs, askedFor(asked, "/private"))
		}
		if want := `robots.txt disallows it (Disallow: /private, in the group of "*"; RFC 9309)`; obeyed && rs[1].Detail != want {
			t.Errorf("detail %q, want %q", rs[1].Detail, want)
		}
	}
	// A server error on robots.txt disallows the site, and says so.
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.WriteHeader(http.StatusServiceUnavailable)
	}))
	defer srv.Close()
	r := &Run{Checker: loopbackChecker(t), Depth: 1}
	r.Add(srv.URL+"/a", Place{})
	if err := r.Check(context.Background()); err != nil {
		t.Fatal(err)
	}
	if rs := r.Results(); rs[0].Status != Skipped || !strings.HasPrefix(rs[0].Detail, "robots.txt answered 503 Service Unavailable: a server error disallows the whole site") {
		t.Errorf("%+v", rs)
	}
}

// TestRunDefaults: a Run without a Checker makes one; a Checker without
// PerHost takes the Run's; one with its own keeps it. A Checker without a
// Client makes one and keeps PerHost ftp logins per host (2 when zero),
// which Close ends; a Client whose ftp handler has a Pool keeps it.
func TestRunDefaults(t *testing.T) {
	r := &Run{PerHost: 3}
	if err := r.Check(context.Background()); err != nil || r.Checker == nil || r.Checker.PerHost != 3 {
		t.Fatalf("Check = %v; Checker %+v", err, r.Checker)
	}
	r.Checker.Close()
	k := &Checker{PerHost: 1}
	r = &Run{PerHost: 3, Checker: k}
	if err := r.Check(context.Background()); err != nil || r.Checker != k || k.PerHost != 1 {
		t.Errorf("Check = %v; Checker %p (want %p), PerHost %d", err, r.Checker, k, k.PerHost)
	}
	k = &Checker{}
	if st, _ := k.Check(context.Background(), "file:///nonexistent/rfc1738-linkcheck"); st != Broken {
		t.Errorf("a zero Checker: %s", st)
	}
	if k.Client == nil || k.PerHost != 2 || k.logins == nil || k.Client.Handler("ftp").(access.FTP).Pool == nil {
		t.Errorf("a zero Checker after use: client %v, PerHost %d, logins %v", k.Client != nil, k.PerHost, k.logins != nil)
	}
	if err := k.Close(); err != nil {
		t.Errorf("Close = %v", err)
	}
	c := access.NewClient()
	pool := c.KeepFTPLogins(1, false)
	defer pool.Close()
	k = &Checker{Client: c}
	if err := k.Close(); err != nil || k.logins != nil {
		t.Errorf("a Client with its own pool: Close = %v, logins %v", err, k.logins != nil)
	}
}

// TestRunCachedPageFollowed: in a recursive run, a page whose verdict
// comes from the cache is read all the same, and its links are checked.
func TestRunCachedPageFollowed(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch r.URL.Path {
		case "/":
			w.Header().Set("Content-Type", "text/html")
			w.Write([]byte(`<a href="/next">next</a>`))
		case "/next":
			w.Write([]byte("here"))
		default:
			http.NotFound(w, r)
		}
	}))
	defer srv.Close()
	c, err := OpenCache(filepath.Join(t.TempDir(), "cache"), 0)
	if err != nil {
		t.Fatal(err)
	}
	for run := range 2 {
		r := &Run{Checker: loopbackChecker(t), Depth: 1, NoRobots: true, Cache: c}
		r.Add(srv.URL+"/", Place{})
		if err := r.Check(context.Background()); err != nil {
			t.Fatal(err)
		}
		rs := r.Results()
		if len(rs) != 2 || rs[0].Cached != (run == 1) || rs[1].URL != srv.URL+"/next" || rs[1].Status != OK {
			t.Errorf("run %d: %+v; want the page (cached the second time) and its link", run, rs)
		}
	}
}

// TestReadDocument: a document is read to the limit, and one cut there
// ends at its last break, so that a URL cut in two is not a shorter one.
func TestReadDocument(t *testing.T) {
	for _, c := range []struct {
		in    string
		limit int64
		want  string
		cut   bool
	}{
		{"short http://a/\n", 100, "short http://a/\n", false},
		{"exact", 5, "exact", false},
		{"one http://a/ two http://b/long", 26, "one http://a/ two ", true},
		{`<a href="x">y</a><a href="http://c/long">`, 30, `<a href="x">y</a><a `, true},
		{"nobreakatall", 5, "nobre", true},
		{" leading-space-only", 5, " ", true},
	} {
		b, cut, err := readDocument(strings.NewReader(c.in), c.limit)
		if string(b) != c.want || cut != c.cut || err != nil {
			t.Errorf("%q to %d: %q, cut %v, %v; want %q, cut %v", c.in, c.limit, b, cut, err, c.want, c.cut)
		}
	}
}

// TestRunFileURLs: a file URL in a page fetched from a server is
// skipped, nothing local opened; in a local document, or given, it is
// checked; one found elsewhere first and then given is checked once,
// with both places. Progress counts the skipped ones as decided, and
// the complete Results are the run's own.
func TestRunFileURLs(t *testing.T) {
	dir := t.TempDir()
	secret := filepath.Join(dir, "secret.txt")
	local := filepath.Join(dir, "local.txt")
	index := filepath.Join(dir, "index.html")
	os.WriteFile(secret, []byte("12345"), 0o600)
	os.WriteFile(local, []byte("1234567"), 0o600)
	os.WriteFile(index, []byte(`<a href="file://`+local+`">l</a>`), 0o600)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/" {
			// /other comes after the file URLs: its check ends after they
			// are recorded, so the last Progress counts them.
			w.Header().Set("Content-Type", "text/html")
			fmt.Fprintf(w, `<a href="file://%s">s</a> <a href="file://%s">l</a> <a href="/other">o</a>`, secret, local)
		}
	}))
	defer srv.Close()
	var mu sync.Mutex
	var most [2]int // the most done and total Progress told (it is called from several goroutines)
	r := &Run{Checker: loopbackChecker(t), Depth: 1, NoRobots: true, Progress: func(done, total, broken int) {
		mu.Lock()
		most = [2]int{max(most[0], done), max(most[1], total)}
		mu.Unlock()
	}}
	r.Add(srv.URL+"/", Place{})
	r.Add("file://"+index, Place{})
	if err := r.Check(context.Background()); err != nil {
		t.Fatal(err)
	}
	rs := r.Results()
	got := map[string]string{}
	for _, x := range rs {
		got[x.URL] = fmt.Sprintf("%s %s %d", x.Status, x.Detail, len(x.Places))
	}
	if w := "skipped " + notLocal + " 1"; got["file://"+secret] != w {
		t.Errorf("the server's file URL: %q, want %q", got["file://"+secret], w)
	}
	if w := "ok 7 bytes 2"; got["file://"+local] != w {
		t.Errorf("the local document's file URL: %q, want %q", got["file://"+local], w)
	}
	if most[0] != len(rs) || most[1] != len(rs) {
		t.Errorf("progress reached done %d, total %d; %d results", most[0], most[1], len(rs))
	}
	if n := testing.AllocsPerRun(10, func() { r.Results() }); n != 0 {
		t.Errorf("Results of a complete run allocates %v times: a copy", n)
	}

	// Found elsewhere first, then given: checked once.
	r = &Run{Checker: loopbackChecker(t)}
	r.add("file://"+secret, Place{File: "remote"}, 1, false)
	r.add("file://"+secret, Place{File: "given"}, 0, true)
	if err := r.Check(context.Background()); err != nil {
		t.Fatal(err)
	}
	if rs := r.Results(); len(rs) != 1 || rs[0].Status != OK || rs[0].Detail != "5 bytes" || len(rs[0].Places) != 2 {
		t.Errorf("found elsewhere, then given: %+v", rs)
	}
}

// TestRunReadInPart: a page or document larger than MaxPage is read for
// its links from its first MaxPage bytes, and says so once: in its
// detail, with its size when known, and through Warn.
func TestRunReadInPart(t *testing.T) {
	page := strings.Repeat("<p>filler text</p>\n", 200) // 3,800 bytes
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/" {
			w.Header().Set("Content-Type", "text/html")
			w.Header().Set("Content-Length", strconv.Itoa(len(page)))
			io.WriteString(w, page)
		}
	}))
	defer srv.Close()
	doc := filepath.Join(t.TempDir(), "big.txt")
	os.WriteFile(doc, []byte(strings.Repeat("text ", 300)), 0o600) // 1,500 bytes
	k := loopbackChecker(t)
	k.MaxPage = 1024
	var mu sync.Mutex
	warned := map[string]string{}
	r := &Run{Checker: k, Depth: 1, NoRobots: true, Warn: func(url, msg string) {
		mu.Lock()
		defer mu.Unlock()
		if _, again := warned[url]; again {
			t.Errorf("%s warned twice", url)
		}
		warned[url] = msg
	}}
	r.Add(srv.URL+"/", Place{})
	r.Add("file://"+doc, Place{})
	if err := r.Check(context.Background()); err != nil {
		t.Fatal(err)
	}
	want := map[string]string{
		srv.URL + "/":   "links read from its first 1.0 KiB only, of 3.7 KiB",
		"file://" + doc: "links read from its first 1.0 KiB only, of 1.5 KiB",
	}
	for _, x := range r.Results() {
		if w := want[x.URL]; !strings.HasSuffix(x.Detail, " ("+w+")") || warned[x.URL] != w {
			t.Errorf("%s: detail %q, warned %q; want %q", x.URL, x.Detail, warned[x.URL], w)
		}
	}
}

func TestSizeText(t *testing.T) {
	for n, want := range map[int64]string{
		0: "0 bytes", 1023: "1023 bytes", 1024: "1.0 KiB", 1536: "1.5 KiB", 1<<20 - 1: "1024.0 KiB",
		1 << 20: "1 MiB", 4 << 20: "4 MiB", 4<<20 + 1<<19: "4.5 MiB", 5<<20 + 1: "5.0 MiB",
	} {
		if got := sizeText(n); got != want {
			t.Errorf("sizeText(%d) = %q, want %q", n, got, want)
		}
	}
}
