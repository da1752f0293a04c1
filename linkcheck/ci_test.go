package linkcheck

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

// TestRetryAfter: a 429 whose Retry-After asks for a second is tried
// again after that second (not after the back-off), up to MaxRetryWait.
func TestRetryAfter(t *testing.T) {
	var first atomic.Int64
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		now := time.Now().UnixNano()
		first.CompareAndSwap(0, now)
		if time.Duration(now-first.Load()) < 900*time.Millisecond {
			w.Header().Set("Retry-After", "1")
			w.WriteHeader(http.StatusTooManyRequests)
			return
		}
	}))
	defer srv.Close()
	k := loopbackChecker(t)
	k.Retries, k.Backoff = 2, 10*time.Millisecond
	st, detail := k.Check(context.Background(), srv.URL+"/")
	if st != OK {
		t.Errorf("%s, %q: want ok after waiting as asked", st, detail)
	}
	// MaxRetryWait bounds the wait: a server asking for an hour is not
	// waited for an hour.
	first.Store(time.Now().UnixNano() + int64(time.Hour))
	k = loopbackChecker(t)
	k.Retries, k.Backoff, k.MaxRetryWait = 1, 10*time.Millisecond, 50*time.Millisecond
	start := time.Now()
	if st, _ := k.Check(context.Background(), srv.URL+"/"); st != Broken || time.Since(start) > 2*time.Second {
		t.Errorf("%s after %v", st, time.Since(start))
	}
}

// TestAccept: Accept makes a 403 (or a 429) ok; a 404 stays broken.
func TestAccept(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch r.URL.Path {
		case "/forbidden":
			w.WriteHeader(http.StatusForbidden)
		case "/busy":
			w.WriteHeader(http.StatusTooManyRequests)
		default:
			w.WriteHeader(http.StatusNotFound)
		}
	}))
	defer srv.Close()
	codes, err := ParseCodes("200..299, 403,429")
	if err != nil {
		t.Fatal(err)
	}
	k := loopbackChecker(t)
	k.Accept = codes
	for path, want := range map[string]Status{"/forbidden": OK, "/busy": OK, "/gone": Broken} {
		if st, d := k.Check(context.Background(), srv.URL+path); st != want {
			t.Errorf("%s: %s (%s), want %s", path, st, d, want)
		}
	}
	for _, bad := range []string{"", "2xx", "299..200", "99", "600", "200..,"} {
		if _, err := ParseCodes(bad); err == nil {
			t.Errorf("ParseCodes(%q) succeeded", bad)
		}
	}
}

// TestRemoteFragments: with Fragments, http links with a #fragment are
// checked against the page's ids and <a name>s, the page fetched once
// however many fragments point into it.
func TestRemoteFragments(t *testing.T) {
	var gets atomic.Int32
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method == http.MethodGet {
			gets.Add(1)
		}
		w.Header().Set("Content-Type", "text/html")
		fmt.Fprint(w, `<h1 id="install">x</h1><a name="old"></a>`)
	}))
	defer srv.Close()
	r := &Run{Checker: loopbackChecker(t), Fragments: true}
	for _, f := range []string{"install", "old", "nope", "gone"} {
		r.Add(srv.URL+"/page.html#"+f, Place{})
	}
	if err := r.Check(context.Background()); err != nil {
		t.Fatal(err)
	}
	got := map[string]Status{}
	for _, res := range r.Results() {
		got[res.URL[strings.IndexByte(res.URL, '#')+1:]] = res.Status
	}
	want := map[string]Status{"install": OK, "old": OK, "nope": BrokenFragment, "gone": BrokenFragment}
	if fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("got %v, want %v", got, want)
	}
	if n := gets.Load(); n != 1 {
		t.Errorf("%d GETs for one page, want 1", n)
	}
}

// TestInternalOnly: a recursive run with InternalOnly skips the links
// off the input's site and sends them nothing.
func TestInternalOnly(t *testing.T) {
	var offsite atomic.Int32
	other := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { offsite.Add(1) }))
	defer other.Close()
	var mu sync.Mutex
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		defer mu.Unlock()
		switch r.URL.Path {
		case "/":
			w.Header().Set("Content-Type", "text/html")
			fmt.Fprintf(w, `<a href="/a">a</a> <a href="%s/x">x</a>`, other.URL)
		case "/a":
		default:
			http.NotFound(w, r)
		}
	}))
	defer srv.Close()
	r := &Run{Checker: loopbackChecker(t), Depth: 3, InternalOnly: true, NoRobots: true}
	r.Add(srv.URL+"/", Place{})
	if err := r.Check(context.Background()); err != nil {
		t.Fatal(err)
	}
	tot := Count(r.Results())
	if tot[OK] != 2 || tot[Skipped] != 1 || offsite.Load() != 0 {
		t.Errorf("%s; the other site was asked %d times", tot, offsite.Load())
	}
}

var ciSample = []Result{
	{URL: "a,b:c%.html", Status: Broken, Detail: "no such file: a,b:c%.html\nline two", Scheme: "file",
		Places: []Place{{File: "docs/x y,z.md", Line: 3, Column: 7}}},
	{URL: "#gone", Status: BrokenFragment, Detail: "no anchor #gone in x.html", Scheme: "file",
		Places: []Place{{File: "x.html", Line: 1, Column: 2}}},
	{URL: "/root", Status: Skipped, Detail: "root-relative: give --root", Places: []Place{{File: "x.html", Line: 4, Column: 1}}},
	{URL: "https://e.invalid/", Status: Skipped, Detail: "offline (--offline)", Places: []Place{{File: "x.html", Line: 5, Column: 1}}},
	{URL: "ok.html", Status: OK, Places: []Place{{File: "x.html", Line: 6, Column: 1}}},
	{URL: "http://h/a b", Status: OK, Warnings: []string{"a space"}, Places: []Place{{File: "x.html", Line: 7, Column: 2}, {File: "y.html", Line: 1, Column: 1}}},
}

// TestReportGitHub: one workflow command per place, errors and
// warnings, its properties and message escaped as the runner reads them.
func TestReportGitHub(t *testing.T) {
	var b bytes.Buffer
	Report{Format: GitHub}.Write(&b, ciSample)
	want := "::error file=docs/x y%2Cz.md,line=3,col=7,title=linkcheck broken::broken: a,b:c%25.html: no such file: a,b:c%25.html%0Aline two\n" +
		"::error file=x.html,line=1,col=2,title=linkcheck broken fragment::broken fragment: #gone: no anchor #gone in x.html\n" +
		"::warning file=x.html,line=4,col=1,title=linkcheck skipped::skipped: /root: root-relative: give --root\n" +
		"::warning file=x.html,line=7,col=2,title=linkcheck warning::warning: http://h/a b: a space\n" +
		"6 URLs: 2 ok, 1 broken, 0 invalid, 2 skipped, 1 broken fragments\n"
	if b.String() != want {
		t.Errorf("got\n%s\nwant\n%s", b.String(), want)
	}
}

// TestReportSARIF: SARIF 2.1.0 with a rule per verdict and a region per
// place.
func TestReportSARIF(t *testing.T) {
	var b bytes.Buffer
	if err := (Report{Format: SARIF}).Write(&b, ciSample); err != nil {
		t.Fatal(err)
	}
	var log struct {
		Version string `json:"version"`
		Runs    []struct {
			Results []struct {
				RuleID    string `json:"ruleId"`
				Level     string `json:"level"`
				Locations []struct {
					PhysicalLocation struct {
						ArtifactLocation struct{ URI string } `json:"artifactLocation"`
						Region           struct{ StartLine, StartColumn int }
					} `json:"physicalLocation"`
				} `json:"locations"`
			} `json:"results"`
		} `json:"runs"`
	}
	if err := json.Unmarshal(b.Bytes(), &log); err != nil {
		t.Fatal(err)
	}
	if log.Version != "2.1.0" || len(log.Runs) != 1 || len(log.Runs[0].Results) != 4 {
		t.Fatalf("%s", b.String())
	}
	r := log.Runs[0].Results[0]
	loc := r.Locations[0].PhysicalLocation
	if r.RuleID != "broken" || r.Level != "error" || loc.ArtifactLocation.URI != "docs/x%20y,z.md" || loc.Region.StartLine != 3 || loc.Region.StartColumn != 7 {
		t.Errorf("first result %+v", r)
	}
	if log.Runs[0].Results[1].RuleID != "broken-fragment" || log.Runs[0].Results[2].Level != "warning" ||
		log.Runs[0].Results[3].RuleID != "rfc1738" || log.Runs[0].Results[3].Locations[0].PhysicalLocation.Region.StartLine != 7 {
		t.Errorf("%s", b.String())
	}
}

// TestRecursiveFragments: a recursive run with Fragments checks the
// fragments of the links it finds in pages (same page and others), each
// page fetched for its anchors once.
func TestRecursiveFragments(t *testing.T) {
	var gets sync.Map
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		n, _ := gets.LoadOrStore(r.URL.Path, new(atomic.Int32))
		n.(*atomic.Int32).Add(1)
		w.Header().Set("Content-Type", "text/html")
		switch r.URL.Path {
		case "/":
			fmt.Fprint(w, `<p id="here"></p><a href="#here">1</a> <a href="#gone">2</a> <a href="b.html#sec">3</a> <a href="b.html#nope">4</a>`)
		case "/b.html":
			fmt.Fprint(w, `<h2 id="sec">s</h2>`)
		default:
			http.NotFound(w, r)
		}
	}))
	defer srv.Close()
	r := &Run{Checker: loopbackChecker(t), Depth: 2, Fragments: true, NoRobots: true}
	r.Add(srv.URL+"/", Place{})
	if err := r.Check(context.Background()); err != nil {
		t.Fatal(err)
	}
	got := map[string]Status{}
	for _, res := range r.Results() {
		got[strings.TrimPrefix(res.URL, srv.URL)] = res.Status
	}
	want := map[string]Status{"/": OK, "/#here": OK, "/#gone": BrokenFragment, "/b.html#sec": OK, "/b.html#nope": BrokenFragment}
	if fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("got %v, want %v", got, want)
	}
	for _, p := range []string{"/", "/b.html"} {
		if n, _ := gets.Load(p); n.(*atomic.Int32).Load() != 1 {
			t.Errorf("%s fetched %d times, want once", p, n.(*atomic.Int32).Load())
		}
	}
}
