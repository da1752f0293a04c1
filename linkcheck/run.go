package linkcheck

import (
	"context"
	"io"
	"strings"
	"sync"
	"time"

	"github.com/rfc1738/rfc1738"
	"github.com/rfc1738/rfc1738/access"
	"github.com/rfc1738/rfc1738/crawl"
)

// MaxRetrieve bounds what a recursive check reads of a document to find
// its links.
const MaxRetrieve = 4 << 20

// A Run checks a set of URLs: Add them (or gather them with Gatherer and
// Run.Add as its Found), then call Check. Set the fields before the first
// Add.
type Run struct {
	// Checker checks each URL; nil means a zero Checker.
	Checker *Checker
	// Jobs, PerHost and Delay are the crawl limits (crawl.Frontier).
	Jobs, PerHost int
	Delay         time.Duration
	// Depth > 0 makes the run recursive: links found in what an ok URL
	// retrieves (gopher menus, ftp listings, HTML and text) are checked
	// too, down to Depth levels below the input, on the hosts of the
	// input unless SpanHosts.
	Depth     int
	SpanHosts bool
	// Cache, when set, answers for URLs checked recently enough, and
	// receives the new verdicts.
	Cache *Cache
	// Progress, when set, is called after each check with the counts so
	// far (from the checking goroutines; keep it short).
	Progress func(done, total, broken int)

	mu       sync.Mutex
	frontier crawl.Frontier
	results  []Result // by order of first appearance
	done     []bool   // results[i] has its verdict
	byTask   []int32  // frontier task ID → results index
	invalid  map[string]int
	hosts    map[string]bool // hosts of the input (recursion stays there)
	ndone    int
	broken   int
}

// Add records one occurrence of s at p: a URL seen before (or an
// equivalent one, §2.2) gets one more place, a new one is queued.
func (r *Run) Add(s string, p Place) {
	r.add(s, p, 0)
}

func (r *Run) add(s string, p Place, depth int) {
	u, err := rfc1738.Parse(s)
	r.mu.Lock()
	defer r.mu.Unlock()
	if err != nil {
		if r.invalid == nil {
			r.invalid = map[string]int{}
		}
		i, ok := r.invalid[s]
		if !ok {
			i = len(r.results)
			r.invalid[s] = i
			r.results = append(r.results, Result{URL: access.Redact(s), Status: Invalid,
				Detail: invalidDetail(err), Scheme: schemeOf(s)})
			r.done = append(r.done, true)
		}
		r.results[i].Places = append(r.results[i].Places, p)
		return
	}
	if depth == 0 {
		if r.hosts == nil {
			r.hosts = map[string]bool{}
		}
		r.hosts[crawl.HostKey(u)] = true
	}
	// The frontier's Jobs, PerHost and Delay are set once, by Check,
	// before it runs: add also runs while it does (a recursive run).
	id, added := r.frontier.Add(u, depth)
	if added {
		r.byTask = append(r.byTask, int32(len(r.results)))
		r.results = append(r.results, Result{URL: access.Redact(s), Scheme: u.Scheme()})
		r.done = append(r.done, false)
	}
	i := r.byTask[id]
	r.results[i].Places = append(r.results[i].Places, p)
}

// schemeOf returns the scheme of an invalid URL, lower case, or "".
func schemeOf(s string) string {
	i := strings.IndexByte(s, ':')
	if i <= 0 || !HasScheme(s[:i+1]) {
		return ""
	}
	return strings.ToLower(s[:i])
}

// Check checks every URL added, and those found on the way when the run
// is recursive. It returns when all are checked or ctx is done; the
// results checked so far are in Results either way.
func (r *Run) Check(ctx context.Context) error {
	if r.Checker == nil {
		r.Checker = &Checker{}
	}
	if r.Checker.PerHost == 0 {
		r.Checker.PerHost = r.PerHost
	}
	r.mu.Lock()
	r.frontier.Jobs, r.frontier.PerHost, r.frontier.Delay = r.Jobs, r.PerHost, r.Delay
	r.frontier.Visit = r.visit
	r.mu.Unlock()
	return r.frontier.Run(ctx)
}

// visit checks one task.
func (r *Run) visit(ctx context.Context, t crawl.Task) {
	start := time.Now()
	var status Status
	var detail string
	cached := false
	if r.Cache != nil {
		if c, ok := r.Cache.Lookup(t.Key); ok {
			status, detail, cached = c.Status, c.Detail, true
		}
	}
	if !cached {
		status, detail = r.Checker.CheckURL(ctx, t.URL)
		if ctx.Err() != nil {
			return // interrupted: not a verdict
		}
		if _, hasPassword := t.URL.RawPassword(); r.Cache != nil && status != Invalid && !hasPassword {
			// A URL with a password is never written to the cache (§6).
			r.Cache.Store(t.Key, t.URL.String(), status, detail)
		}
	}
	r.mu.Lock()
	i := r.byTask[t.ID]
	e := &r.results[i]
	e.Status, e.Detail, e.Cached = status, detail, cached
	e.Elapsed = time.Since(start)
	r.done[i] = true
	r.ndone++
	if status == Broken || status == Invalid {
		r.broken++
	}
	done, total, nbroken := r.ndone+len(r.invalid), len(r.results), r.broken+len(r.invalid)
	r.mu.Unlock()
	if r.Progress != nil {
		r.Progress(done, total, nbroken)
	}
	if status == OK && t.Depth < r.Depth {
		r.follow(ctx, t)
	}
}

// follow retrieves an ok URL and adds the links in it (§3: the access
// method's own listing of menus and directories, or the document).
func (r *Run) follow(ctx context.Context, t crawl.Task) {
	switch t.URL.Kind() {
	case rfc1738.KindMailto, rfc1738.KindTelnet, rfc1738.KindNews, rfc1738.KindNNTP, rfc1738.KindWAIS:
		return // no links in what these retrieve, or nothing retrieved
	}
	resp, err := r.Checker.Client.Get(ctx, t.URL)
	if err != nil {
		return
	}
	defer resp.Body.Close()
	g := Gatherer{Found: func(s string, p Place) {
		u, err := rfc1738.Parse(s)
		if err != nil {
			return // a link of a retrieved document is followed only when valid
		}
		if !r.SpanHosts {
			r.mu.Lock()
			ok := r.hosts[crawl.HostKey(u)]
			r.mu.Unlock()
			if !ok {
				return
			}
		}
		r.add(s, p, t.Depth+1)
	}}
	g.read(access.Redact(t.URL.String()), io.LimitReader(resp.Body, MaxRetrieve), strings.HasPrefix(resp.Type, "text/html"))
}

// Results returns the verdicts so far, in order of first appearance;
// URLs not yet checked (an interrupted run) are left out. Once every URL
// is checked it is the run's own slice, not a copy: call it after Check
// returns, and do not change it.
func (r *Run) Results() []Result {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.ndone+len(r.invalid) == len(r.results) {
		return r.results
	}
	out := make([]Result, 0, len(r.results))
	for i, res := range r.results {
		if r.done[i] {
			out = append(out, res)
		}
	}
	return out
}

// Total returns the number of distinct URLs added so far.
func (r *Run) Total() int {
	r.mu.Lock()
	defer r.mu.Unlock()
	return len(r.results)
}
