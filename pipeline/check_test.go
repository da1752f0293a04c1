package main

import (
	"bufio"
	"encoding/json"
	"fmt"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/apache/beam/sdks/v2/go/pkg/beam"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/testing/ptest"

	"github.com/rfc1738/rfc1738/internal/testserver"
)

// simnet is the simulated internet of the check tests: one host per
// behaviour, each on a loopback address of its own.
type simnet struct {
	net *testserver.Internet
	// The hosts, "ip:port".
	ok, missing, gone, redirect, busy, slow, closed, robots, ftp, gopher string
}

func newSimnet(t *testing.T) *simnet {
	n := &simnet{net: testserver.NewInternet(t)}
	n.ok = n.net.HTTP(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/robots.txt" {
			http.NotFound(w, r)
		}
	})
	n.missing = n.net.HTTP(http.NotFound)
	n.gone = n.net.HTTP(func(w http.ResponseWriter, r *http.Request) { w.WriteHeader(http.StatusGone) })
	n.redirect = n.net.HTTP(func(w http.ResponseWriter, r *http.Request) {
		switch r.URL.Path {
		case "/r1":
			http.Redirect(w, r, "/r2", http.StatusFound)
		case "/r2":
			http.Redirect(w, r, "/final", http.StatusMovedPermanently)
		case "/loop":
			http.Redirect(w, r, "/loop", http.StatusFound)
		case "/final", "/robots.txt":
		default:
			http.NotFound(w, r)
		}
	})
	// Every other request to a page is refused with 429 and a
	// Retry-After of one second: each check takes two attempts.
	var mu sync.Mutex
	asked := map[string]int{}
	n.busy = n.net.HTTP(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/robots.txt" {
			http.NotFound(w, r)
			return
		}
		mu.Lock()
		asked[r.URL.Path]++
		first := asked[r.URL.Path]%2 == 1
		mu.Unlock()
		if first {
			w.Header().Set("Retry-After", "1")
			w.WriteHeader(http.StatusTooManyRequests)
		}
	})
	n.slow = n.net.HTTP(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/robots.txt" {
			http.NotFound(w, r) // at once: the pages are what never answer
			return
		}
		select {
		case <-r.Context().Done():
		case <-time.After(5 * time.Second):
		}
	})
	n.closed = n.net.Closed()
	n.robots = n.net.HTTP(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/robots.txt" {
			fmt.Fprint(w, "User-agent: *\nDisallow: /private/\n")
		}
	})
	n.ftp = n.net.FTP(map[string]string{"/pub/a.txt": "hello\n"})
	n.gopher = n.net.Gopher(func(sel string) string {
		if sel == "/doc" {
			return "a document\r\n.\r\n"
		}
		return "3'" + sel + "' does not exist\terror.host\t1\r\n.\r\n"
	})
	return n
}

// want is each URL of the corpus with its verdict and status, and the
// year of its earliest document.
type want struct {
	verdict string
	status  int
	year    int
}

// corpusFor writes a corpus that names every behaviour of n: two text
// files dated by their folders, and a WARC file dated by its records.
func (n *simnet) corpusFor(t *testing.T, dir string) map[string]want {
	h := func(host, path string) string { return "http://" + host + path }
	w := map[string]want{
		h(n.ok, "/a"):                      {"ok", 200, 2015},
		h(n.ok, "/b"):                      {"ok", 200, 2019},
		h(n.ok, "/c"):                      {"ok", 200, 2019},
		h(n.missing, "/x"):                 {"broken", 404, 2019},
		h(n.gone, "/old"):                  {"broken", 410, 2021},
		h(n.redirect, "/r1"):               {"ok", 200, 2019},
		h(n.redirect, "/loop"):             {"broken", 0, 2021},
		h(n.busy, "/p1"):                   {"ok", 200, 2019},
		h(n.busy, "/p2"):                   {"ok", 200, 2021},
		h(n.slow, "/s1"):                   {"broken", 0, 2019},
		h(n.slow, "/s2"):                   {"broken", 0, 2019},
		h(n.slow, "/s3"):                   {"broken", 0, 2021},
		h(n.closed, "/"):                   {"broken", 0, 2019},
		h(n.closed, "/more"):               {"broken", 0, 2021},
		h(n.robots, "/private/x"):          {"skipped", 0, 2021},
		h(n.robots, "/public"):             {"ok", 200, 2021},
		"ftp://" + n.ftp + "/pub/a.txt":    {"ok", 0, 2019},
		"ftp://" + n.ftp + "/pub/none":     {"broken", 550, 2019},
		"gopher://" + n.gopher + "/0/doc":  {"ok", 0, 2021},
		"gopher://" + n.gopher + "/1/gone": {"broken", 0, 2021},
		"mailto:someone@example.org":       {"skipped", 0, 2019},
		// A corpus's file URL names a file of the worker: never opened.
		"file:///etc/passwd": {"skipped", 0, 2021},
	}
	files := map[string][]string{}
	for u, x := range w {
		name := fmt.Sprintf("%d/links.txt", x.year)
		files[name] = append(files[name], u)
	}
	// /a is in 2019 too: its earliest document is the WARC record of 2015.
	files["2019/links.txt"] = append(files["2019/links.txt"], h(n.ok, "/a"))
	var warc strings.Builder
	for name, urls := range files {
		slices.Sort(urls)
		if name == "2015/links.txt" {
			rec := warcRecordText("resource", "http://archive.example/2015", "see "+strings.Join(urls, "\nand ")+"\n")
			warc.WriteString(strings.Replace(rec, "WARC-Date: 2026-", "WARC-Date: 2015-", 1))
			continue
		}
		p := filepath.Join(dir, "in", name)
		os.MkdirAll(filepath.Dir(p), 0o755)
		if err := os.WriteFile(p, []byte("Links:\n"+strings.Join(urls, "\n")+"\n"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	os.MkdirAll(filepath.Join(dir, "in", "archive"), 0o755)
	if err := os.WriteFile(filepath.Join(dir, "in", "archive", "crawl.warc"), []byte(warc.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	return w
}

// checkOptions are the test's politeness: quick, but the same rules. An
// attempt's time holds its requests' waits for their turn (a redirect
// loop's 11 take 1.1 s).
func checkOptions() *CheckOptions {
	return &CheckOptions{PerHost: 1, HostDelay: 100 * time.Millisecond, HostFailures: 3, Timeout: 1500 * time.Millisecond,
		Retries: 2, Jobs: 64, MaxAge: time.Hour, Now: time.Now()}
}

// readChecksDir reads every checks-*.jsonl of a run, by URL, and their
// raw lines in file order.
func readChecksDir(t *testing.T, dir string) (map[string]CheckLine, []string) {
	t.Helper()
	names, _ := filepath.Glob(filepath.Join(dir, "checks-*-of-*.jsonl"))
	slices.Sort(names)
	out := map[string]CheckLine{}
	var raw []string
	for _, name := range names {
		f, err := os.Open(name)
		if err != nil {
			t.Fatal(err)
		}
		sc := bufio.NewScanner(f)
		for sc.Scan() {
			var l CheckLine
			if err := json.Unmarshal(sc.Bytes(), &l); err != nil {
				t.Fatalf("%s: %v", name, err)
			}
			if _, dup := out[l.URL]; dup {
				t.Errorf("%s twice", l.URL)
			}
			out[l.URL] = l
			raw = append(raw, sc.Text())
		}
		f.Close()
	}
	return out, raw
}

// TestCheckSimulatedInternet: the census's check on hosts of every
// behaviour: each distinct URL checked once with the verdict and status
// its host deserves; never more than --per-host requests at a host at
// once, never two closer than --host-delay; the link-rot table by year;
// a second run from the first's output asks nothing of anyone.
func TestCheckSimulatedInternet(t *testing.T) {
	n := newSimnet(t)
	dir := t.TempDir()
	wants := n.corpusFor(t, dir)
	out := filepath.Join(dir, "out")
	// Names that pose as the census's: a checks shard of another run is
	// removed, a file of the user's is not.
	os.MkdirAll(out, 0o755)
	os.WriteFile(filepath.Join(out, "checks-00000-of-00007.jsonl"), []byte("stale\n"), 0o644)
	os.WriteFile(filepath.Join(out, "checks-notes.jsonl"), []byte("mine\n"), 0o644)
	o := Options{Input: filepath.Join(dir, "in", "*", "*"), Output: out, Shards: 2, Samples: 1, Top: 5,
		DateFromPath: `/([0-9]{4})/`, Check: checkOptions()}
	_, sum := runCensus(t, o)
	got, _ := readChecksDir(t, out)
	if len(got) != len(wants) {
		t.Errorf("%d verdicts, want %d", len(got), len(wants))
	}
	for u, w := range wants {
		l, ok := got[u]
		if !ok {
			t.Errorf("%s: no verdict", u)
			continue
		}
		if l.Verdict != w.verdict || l.Status != w.status {
			t.Errorf("%s: %s %d %q, want %s %d", u, l.Verdict, l.Status, l.Detail, w.verdict, w.status)
		}
		if _, err := time.Parse(time.RFC3339, l.CheckedAt); err != nil || l.Scheme == "" {
			t.Errorf("%s: checked_at %q, scheme %q", u, l.CheckedAt, l.Scheme)
		}
	}
	for _, host := range []string{n.slow} {
		if hits := n.net.Hits(host); len(hits) != 4 {
			t.Errorf("%s: %d requests to a host that never answers, want robots.txt and 3 (--host-failures)", host, len(hits))
		}
	}
	if l := got["http://"+n.slow+"/s3"]; !strings.HasPrefix(l.Detail, "host unreachable") && !strings.HasPrefix(got["http://"+n.slow+"/s2"].Detail, "host unreachable") {
		t.Errorf("slow host: no URL given up: %q", l.Detail)
	}
	for _, host := range []string{n.ok, n.missing, n.gone, n.redirect, n.busy, n.robots} {
		if p := n.net.Peak(host); p > 1 {
			t.Errorf("%s: %d requests at once, --per-host 1", host, p)
		}
		// Two requests make one gap, and the first request's connection
		// setup shortens it as the server sees it: CheckSpacing's mean
		// (three quarters of the delay) would judge that one gap, where
		// its least gap (half) is the rule; a loaded machine's -race run
		// saw 66 ms. The mean is asked of three requests or more.
		if gap, pair := n.net.MinGap(host); pair != nil && gap < 50*time.Millisecond {
			t.Errorf("%s: %v between %s and %s, --host-delay 100ms", host, gap, pair[0].Request, pair[1].Request)
		}
		if len(n.net.Hits(host)) > 2 {
			if short := n.net.CheckSpacing(host, 100*time.Millisecond); short != "" {
				t.Errorf("%s: requests %s, --host-delay 100ms", host, short)
			}
		}
	}
	if l := got["file:///etc/passwd"]; !strings.Contains(l.Detail, "nothing local opened") {
		t.Errorf("a file URL of the corpus: %q", l.Detail)
	}
	for _, h := range n.net.Hits(n.robots) {
		if strings.Contains(h.Request, "/private") {
			t.Errorf("asked robots' host for %s", h.Request)
		}
	}
	// Hosts are checked side by side: while the slow host holds a request
	// open, the others are served. (Told by the order of the requests, not
	// by the run's time, which a loaded machine stretches.)
	if !servedDuring(n.net, n.slow) {
		t.Errorf("no other host served while %s held a request: hosts checked one after another", n.slow)
	}

	c := sum.Check
	if c == nil {
		t.Fatal("summary.json has no check section")
	}
	if c.URLs != int64(len(wants)) || c.Checked != c.URLs || c.Reused != 0 {
		t.Errorf("check totals %d URLs, %d checked, %d reused", c.URLs, c.Checked, c.Reused)
	}
	byYear := map[int]YearRow{}
	for _, y := range c.ByYear {
		byYear[y.Year] = y
	}
	wantYears := map[int]*YearRow{}
	for _, w := range wants {
		y := wantYears[w.year]
		if y == nil {
			y = &YearRow{Year: w.year}
			wantYears[w.year] = y
		}
		y.URLs++
		switch w.verdict {
		case "ok":
			y.OK++
		case "broken":
			y.Broken++
		}
	}
	for year, w := range wantYears {
		g := byYear[year]
		if g.URLs != w.URLs || g.OK != w.OK || g.Broken != w.Broken {
			t.Errorf("%d: %+v, want %+v", year, g, *w)
		}
	}
	if len(c.TopBrokenHosts) == 0 || c.TopBrokenHosts[0].Name != n.slow || c.TopBrokenHosts[0].Count != 3 {
		t.Errorf("top broken hosts %+v, want %s first with 3", c.TopBrokenHosts, n.slow)
	}
	if _, err := os.Stat(filepath.Join(out, "checks-00000-of-00007.jsonl")); err == nil {
		t.Error("a checks shard of another run is still there")
	}
	if _, err := os.Stat(filepath.Join(out, "checks-notes.jsonl")); err != nil {
		t.Error("a file that is not a shard was removed")
	}

	// A second run from the first one's output, into it: every verdict
	// is fresh, so no host hears a word.
	before := len(n.net.AllHits())
	o.Check = checkOptions()
	o.Check.From = out
	_, sum2 := runCensus(t, o)
	if after := len(n.net.AllHits()); after != before {
		t.Errorf("%d requests in a run whose verdicts were all fresh", after-before)
	}
	again, _ := readChecksDir(t, out)
	for u, l := range got {
		if again[u] != l {
			t.Errorf("%s: %+v, then %+v", u, l, again[u])
		}
	}
	if c2 := sum2.Check; c2 == nil || c2.Reused != int64(len(wants)) || c2.Checked != 0 || !slices.Equal(c2.ByYear, c.ByYear) {
		t.Errorf("second run: %+v", sum2.Check)
	}

	// A verdict older than --max-age is checked again, and only it.
	rewriteCheckedAt(t, out, "http://"+n.gone+"/old", "2000-01-01T00:00:00Z")
	before = len(n.net.AllHits())
	goneBefore := len(n.net.Hits(n.gone))
	o.Check = checkOptions()
	o.Check.From = out
	_, sum3 := runCensus(t, o)
	if d, g := len(n.net.AllHits())-before, len(n.net.Hits(n.gone))-goneBefore; d != g || g < 1 {
		t.Errorf("%d requests, %d of them to the stale URL's host", d, g)
	}
	if c3 := sum3.Check; c3 == nil || c3.Checked != 1 || c3.Reused != int64(len(wants)-1) {
		t.Errorf("third run: %+v", sum3.Check)
	}
}

// rewriteCheckedAt changes the checked_at of url's line in a run's output.
func rewriteCheckedAt(t *testing.T, dir, url, at string) {
	t.Helper()
	names, _ := filepath.Glob(filepath.Join(dir, "checks-*-of-*.jsonl"))
	for _, name := range names {
		b, err := os.ReadFile(name)
		if err != nil {
			t.Fatal(err)
		}
		lines := strings.SplitAfter(string(b), "\n")
		for i, line := range lines {
			var l CheckLine
			if json.Unmarshal([]byte(line), &l) == nil && l.URL == url {
				l.CheckedAt = at
				lines[i] = string(appendCheckLine(nil, l))
				if err := os.WriteFile(name, []byte(strings.Join(lines, "")), 0o644); err != nil {
					t.Fatal(err)
				}
				return
			}
		}
	}
	t.Fatalf("%s: not in %s", url, dir)
}

// TestCheckFromRefusesGarbage: verdicts are kept only from a run read
// whole: a line that does not read, or a run without its summary, fails
// the job and names what is wrong; the output folder keeps the earlier
// run's files.
func TestCheckFromRefusesGarbage(t *testing.T) {
	n := testserver.NewInternet(t)
	host := n.HTTP(func(w http.ResponseWriter, r *http.Request) {})
	dir := t.TempDir()
	in := filepath.Join(dir, "in.txt")
	os.WriteFile(in, []byte("http://"+host+"/a http://"+host+"/b\n"), 0o644)
	out := filepath.Join(dir, "out")
	o := Options{Input: in, Output: out, Shards: 1, Samples: 1, Top: 5, Check: checkOptions()}
	runCensus(t, o)
	summary, _ := os.ReadFile(filepath.Join(out, "summary.json"))
	shard := filepath.Join(out, checksName(0, 1))
	good, _ := os.ReadFile(shard)
	os.WriteFile(shard, append(good, "{\"url\": \"http://x/\", \"verdict\": \"ok\"\n"...), 0o644)
	o.Check = checkOptions()
	o.Check.From = out
	err := runCensusErr(o)
	if err == nil || !strings.Contains(err.Error(), checksName(0, 1)+":3") {
		t.Errorf("got %v, want the job to fail naming %s:3", err, checksName(0, 1))
	}
	if b, _ := os.ReadFile(filepath.Join(out, "summary.json")); string(b) != string(summary) {
		t.Error("the failed run changed summary.json")
	}
	// A run without a check section is no source of verdicts.
	plain := filepath.Join(dir, "plain")
	runCensus(t, Options{Input: in, Output: plain, Shards: 1, Samples: 1, Top: 5})
	o.Check = checkOptions()
	o.Check.From = plain
	o.Output = filepath.Join(dir, "out2")
	if err := runCensusErr(o); err == nil || !strings.Contains(err.Error(), "did not check its URLs") {
		t.Errorf("got %v", err)
	}
}

// TestCheckEqualsLinkcheck: the census's verdicts are rfc1738 linkcheck's
// on the same URLs, detail for detail, where no politeness rule steps in
// (robots.txt, a host given up).
func TestCheckEqualsLinkcheck(t *testing.T) {
	n := newSimnet(t)
	dir := t.TempDir()
	wants := n.corpusFor(t, dir)
	out := filepath.Join(dir, "out")
	o := Options{Input: filepath.Join(dir, "in", "*", "*"), Output: out, Shards: 2, Samples: 1, Top: 5, Check: checkOptions()}
	runCensus(t, o)
	got, _ := readChecksDir(t, out)
	var urls []string
	for u := range wants {
		// A file URL given to linkcheck is this machine's; one in a
		// corpus is not (Polite.Elsewhere).
		if !strings.Contains(u, n.robots) && !strings.Contains(u, n.slow) && !strings.Contains(u, n.closed) && !strings.HasPrefix(u, "file:") {
			urls = append(urls, u)
		}
	}
	slices.Sort(urls)
	bin := cli(t)
	cmd := exec.Command(bin, append([]string{"linkcheck", "--format", "json", "--per-host", "1", "--timeout", "1500ms", "--retries", "2"}, urls...)...)
	b, err := cmd.Output()
	if ee, ok := err.(*exec.ExitError); err != nil && (!ok || ee.ExitCode() != 1) {
		t.Fatalf("linkcheck: %v\n%s", err, b)
	}
	seen := 0
	for _, line := range strings.Split(strings.TrimSpace(string(b)), "\n") {
		var r struct{ URL, Result, Detail string }
		if err := json.Unmarshal([]byte(line), &r); err != nil {
			t.Fatalf("%v: %s", err, line)
		}
		seen++
		if l := got[r.URL]; l.Verdict != r.Result || l.Detail != r.Detail {
			t.Errorf("%s: census %s %q, linkcheck %s %q", r.URL, l.Verdict, l.Detail, r.Result, r.Detail)
		}
	}
	if seen != len(urls) {
		t.Errorf("linkcheck said %d lines for %d URLs", seen, len(urls))
	}
}

// runCensusErr runs the census on Prism and returns its error.
func runCensusErr(o Options) error {
	p, s := beam.NewPipelineWithRoot()
	Build(s, o)
	return ptest.Run(p)
}

// servedDuring reports whether another host's request started while one
// of host's requests was open.
func servedDuring(n *testserver.Internet, host string) bool {
	all := n.AllHits()
	for _, h := range all {
		if h.Host != host {
			continue
		}
		for _, o := range all {
			if o.Host != host && o.Start.After(h.Start) && o.Start.Before(h.End) {
				return true
			}
		}
	}
	return false
}
