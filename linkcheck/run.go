package linkcheck

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/rfc1738/rfc1738"
	"github.com/rfc1738/rfc1738/access"
	"github.com/rfc1738/rfc1738/crawl"
)

// MaxRetrieve is what a recursive check reads of a document to find its
// links when Checker.MaxPage is zero.
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
	// too, down to Depth levels below the input. Only what is on a site
	// of the input (the same scheme, host and port) is retrieved for its
	// links, unless SpanHosts; links elsewhere are checked, not followed.
	// An HTML page's relative links are resolved as browsers do (RFC 3986
	// §5.2), against its <base href> when it has one.
	Depth     int
	SpanHosts bool
	// NoRobots, in a recursive run, fetches what the sites' robots.txt
	// (RFC 9309) disallow; by default a disallowed http or https URL is
	// skipped, and a site whose robots.txt cannot be reached is not
	// crawled (its URLs are broken by the same cause).
	NoRobots bool
	// Strict holds every link to RFC 1738 exactly (rfc1738.Parse); by
	// default a link is read as browsers and curl read it (rfc1738.Read),
	// checked as read, and each departure from RFC 1738 is a warning of
	// its Result.
	Strict bool
	// InternalOnly, in a recursive run, skips the links found on pages
	// that lead off the sites of the input, as LinkChecker does without
	// --check-extern: a check that needs no network but the site's own.
	InternalOnly bool
	// Fragments checks the #fragment of an http or https URL: its page
	// is read (one GET, parsed once for all the fragments into it) and
	// the fragment must name an id or <a name> of it.
	Fragments bool
	// Cache, when set, answers for URLs checked recently enough, and
	// receives the new verdicts.
	Cache *Cache
	// Progress, when set, is called after each check with the counts so
	// far (from the checking goroutines; keep it short).
	Progress func(done, total, broken int)
	// Warn, when set, is told of a document whose links were read in part
	// (its first Checker.MaxPage bytes): its URL and what was read. The
	// note ends the document's detail too.
	Warn func(url, msg string)

	mu       sync.Mutex
	frontier crawl.Frontier
	results  []Result // by order of first appearance
	done     []bool   // results[i] has its verdict
	depth    []int32  // the least depth results[i] was found at
	followed []bool   // the links of results[i] were followed
	byTask   []int32  // frontier task ID → results index
	invalid  map[string]int
	foreign  map[string]int          // file: URLs found only in remote documents, by §2.2 key
	external map[string]int          // skipped by InternalOnly, by normalized URL
	pages    map[string]*page        // read for their fragments
	sites    map[string]bool         // sites of the input (recursion stays there)
	cut      map[int32]bool          // results whose document was read in part, noted
	robots   map[string]*robotsEntry // by site
	ndone    int
	broken   int
}

// Add records one occurrence of s at p: a URL seen before (or an
// equivalent one, §2.2) gets one more place, a new one is queued.
func (r *Run) Add(s string, p Place) {
	r.add(s, p, 0, true)
}

// notLocal is the verdict on a file URL found in a document that was not
// read from this machine's files: a page elsewhere must not learn, through
// the report, which local files exist and their sizes.
const notLocal = "a file URL in a document not read from a local file: not checked, nothing local opened (§3.10: it names a file of the machine that reads it)"

// add records s at depth. local says where s was found: an input or a
// document read from a local file (true), or a document retrieved from
// elsewhere (false); a file URL (§3.10) found only elsewhere is skipped
// and nothing local is opened or stat'ed for it, as LinkChecker does
// ("local files are only checked without parent URL or when the parent
// URL is also a file"). When s was checked already, found first
// deeper down and so not followed, and this shorter path lets it be
// followed, the task to follow is returned (ok): a depth bound holds for
// the shortest path to a URL, whichever visit finished first.
func (r *Run) add(s string, p Place, depth int, local bool) (refollow crawl.Task, ok bool) {
	u, warnings, err := readURL(s, r.Strict)
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
			r.depth = append(r.depth, int32(depth))
			r.followed = append(r.followed, false)
		}
		r.results[i].Places = append(r.results[i].Places, p)
		return crawl.Task{}, false
	}
	if depth == 0 {
		if r.sites == nil {
			r.sites = map[string]bool{}
		}
		r.sites[siteOf(u)] = true
	}
	if u.Kind() == rfc1738.KindFile && !local {
		if _, seen := r.frontier.Seen(u); !seen {
			r.addForeign(s, u, p, depth)
			return crawl.Task{}, false
		}
		// Asked for from here too (an input, a local document): the
		// verdict is the user's, and this is one more place.
	}
	if depth > 0 && r.InternalOnly && !r.sites[siteOf(u)] {
		r.skipExternalLocked(s, u, p, depth)
		return crawl.Task{}, false
	}
	// The frontier's Jobs, PerHost and Delay are set once, by Check,
	// before it runs: add also runs while it does (a recursive run).
	id, added := r.frontier.Add(u, depth)
	if added {
		key := rfc1738.Normalize(u)
		if i, ok := r.foreign[key]; ok && u.Kind() == rfc1738.KindFile {
			// Found elsewhere first, now asked for from here: checked.
			delete(r.foreign, key)
			r.byTask = append(r.byTask, int32(i))
			r.results[i].Status, r.results[i].Detail = OK, ""
			r.done[i], r.depth[i] = false, int32(depth)
		} else {
			r.byTask = append(r.byTask, int32(len(r.results)))
			r.results = append(r.results, Result{URL: access.Redact(s), Scheme: u.Scheme(), Warnings: warnings})
			r.done = append(r.done, false)
			r.depth = append(r.depth, int32(depth))
			r.followed = append(r.followed, false)
		}
	}
	i := r.byTask[id]
	r.results[i].Places = append(r.results[i].Places, p)
	if depth >= int(r.depth[i]) {
		return crawl.Task{}, false
	}
	r.depth[i] = int32(depth)
	if !r.done[i] || r.followed[i] || r.results[i].Status != OK || !r.followsLocked(u, depth) {
		return crawl.Task{}, false // a visit still to come reads the new depth
	}
	r.followed[i] = true
	return crawl.Task{URL: u, ID: id, Depth: depth}, true
}

// addForeign records a file URL found only in a document retrieved from
// elsewhere: skipped, never checked. r.mu is held.
func (r *Run) addForeign(s string, u rfc1738.URL, p Place, depth int) {
	if r.foreign == nil {
		r.foreign = map[string]int{}
	}
	key := rfc1738.Normalize(u)
	i, ok := r.foreign[key]
	if !ok {
		i = len(r.results)
		r.foreign[key] = i
		r.results = append(r.results, Result{URL: access.Redact(s), Status: Skipped, Detail: notLocal, Scheme: u.Scheme()})
		r.done = append(r.done, true)
		r.depth = append(r.depth, int32(depth))
		r.followed = append(r.followed, false)
	}
	r.results[i].Places = append(r.results[i].Places, p)
}

// schemeOf returns the scheme of an invalid URL, lower case, or "".
func schemeOf(s string) string {
	i := strings.IndexByte(s, ':')
	if !HasScheme(s[:i+1]) { // with no ':', s[:0]: no scheme
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

// siteOf returns the site of u: its scheme, host and port (the default
// port when none is written), the unit of recursion and of robots.txt
// (RFC 9309 §2.3: a robots.txt rules its scheme, host and port).
func siteOf(u rfc1738.URL) string {
	return u.Scheme() + "://" + crawl.HostKey(u)
}

// followsLocked reports whether the links in what u retrieves are
// followed when u is found at depth: above the depth asked, on a site of
// the input unless SpanHosts. r.mu is held.
func (r *Run) followsLocked(u rfc1738.URL, depth int) bool {
	return depth < r.Depth && (r.SpanHosts || r.sites[siteOf(u)])
}

// visit checks one task.
func (r *Run) visit(ctx context.Context, t crawl.Task) {
	start := time.Now()
	var status Status
	var detail string
	var doc *document
	r.mu.Lock()
	i := r.byTask[t.ID]
	t.Depth = int(r.depth[i])
	follow := r.followsLocked(t.URL, t.Depth)
	r.mu.Unlock()
	cached, decided := false, false
	if r.Depth > 0 && !r.NoRobots && isHTTP(t.URL) {
		if o, ok := r.robotsAllow(ctx, t.URL); !ok {
			status, detail, decided = o.status, oneLine(o.detail), true
			follow = false
		}
	}
	if !decided && r.Cache != nil {
		if c, ok := r.Cache.Lookup(t.Key); ok {
			status, detail, cached, decided = c.Status, c.Detail, true, true
		}
	}
	if ctx.Err() != nil {
		return // interrupted: not a verdict
	}
	// What the check's requests meet that the user should know (an https
	// redirect to http, say) is this URL's warning, in the report beside
	// it, rather than a line on its own (access.WithWarn).
	var met []string
	var metMu sync.Mutex
	cctx := access.WithWarn(ctx, func(msg string) {
		metMu.Lock()
		defer metMu.Unlock()
		if !slices.Contains(met, msg) { // each retry meets it again
			met = append(met, msg)
		}
	})
	if frag, has := t.URL.Fragment(); !decided && has && r.Fragments && isHTTP(t.URL) {
		status, detail = r.checkFragment(cctx, t.URL, frag)
		decided = ctx.Err() == nil
		follow = false // the page itself is followed under its own URL
	}
	if !decided {
		status, detail, doc = r.Checker.checkURL(cctx, t.URL, follow)
		if ctx.Err() != nil {
			return // interrupted: not a verdict
		}
		if _, has := t.URL.Fragment(); r.Fragments && doc != nil && !has {
			r.pageRead(t.URL, status, detail, doc)
		}
		if _, hasPassword := t.URL.RawPassword(); r.Cache != nil && status != Invalid && !hasPassword {
			// A URL with a password is never written to the cache (§6).
			r.Cache.Store(t.Key, t.URL.String(), status, detail)
		}
	}
	r.mu.Lock()
	e := &r.results[i]
	e.Status, e.Detail, e.Cached = status, detail, cached
	e.Elapsed = time.Since(start)
	metMu.Lock()
	e.Warnings = append(e.Warnings, met...)
	metMu.Unlock()
	r.done[i] = true
	if d := int(r.depth[i]); d != t.Depth {
		// Found on a shorter path while being checked (add only ever
		// lowers a depth).
		t.Depth = d
		follow = r.followsLocked(t.URL, d)
	}
	follow = follow && status == OK
	r.followed[i] = follow
	r.ndone++
	if status == Broken || status == Invalid || status == BrokenFragment {
		r.broken++
	}
	done, total, nbroken := r.ndone+len(r.invalid)+len(r.foreign), len(r.results), r.broken+len(r.invalid)
	r.mu.Unlock()
	if r.Progress != nil {
		r.Progress(done, total, nbroken)
	}
	if follow {
		r.follow(ctx, t, doc)
	}
}

// robotsAllow reports whether the robots.txt of u's site lets u be
// fetched; when not, the outcome says why. The robots.txt of a site is
// fetched once per run, by the first visit that needs it.
func (r *Run) robotsAllow(ctx context.Context, u rfc1738.URL) (outcome, bool) {
	// §6: the robots.txt of a site is asked for only when the URL itself
	// may be (a page's link to port 25 sends nothing there).
	r.Checker.init()
	if o := r.Checker.guard(u); o.status != OK {
		return o, false
	}
	site := siteOf(u)
	r.mu.Lock()
	if r.robots == nil {
		r.robots = map[string]*robotsEntry{}
	}
	e := r.robots[site]
	if e == nil {
		e = &robotsEntry{ready: make(chan struct{})}
		r.robots[site] = e
		r.mu.Unlock()
		e.rules, e.err = r.Checker.fetchRobots(ctx, u)
		close(e.ready)
	} else {
		r.mu.Unlock()
		select {
		case <-e.ready:
		case <-ctx.Done():
			return outcome{status: Skipped, detail: "interrupted"}, false
		}
	}
	if e.err != nil {
		return outcome{status: Broken, detail: e.err.Error() + " (RFC 9309 §2.3.1.4: the site is not crawled)"}, false
	}
	return robotsVerdict(e.rules, u)
}

// robotsVerdict reports whether rules let u be fetched; when not, the
// outcome says why.
func robotsVerdict(rules robotsRules, u rfc1738.URL) (outcome, bool) {
	h, _ := u.HTTP()
	ok, rule := rules.allowed(h.RequestURI())
	if ok {
		return outcome{}, true
	}
	if rule == "" || rules.disallowAll {
		return skipped("%s", rules.why), false
	}
	return skipped("robots.txt disallows it (%s, in %s; RFC 9309)", rule, rules.why), false
}

// follow adds the links in what an ok URL retrieves (§3: the access
// method's own listing of menus and directories, or the document): doc,
// the page its check read, or what is fetched now.
func (r *Run) follow(ctx context.Context, t crawl.Task, doc *document) {
	switch t.URL.Kind() {
	case rfc1738.KindMailto, rfc1738.KindTelnet, rfc1738.KindNews, rfc1738.KindNNTP, rfc1738.KindWAIS:
		return // no links in what these retrieve, or nothing retrieved
	}
	name := access.Redact(t.URL.String())
	local := t.URL.Kind() == rfc1738.KindFile // a local file's listing or text
	g := Gatherer{KeepFragments: r.Fragments, Found: func(s string, p Place) {
		if _, _, err := readURL(s, r.Strict); err != nil {
			return // a link of a retrieved document is followed only when read
		}
		if next, ok := r.add(s, p, t.Depth+1, local); ok {
			r.follow(ctx, next, nil)
		}
	}}
	if isHTTP(t.URL) {
		if doc == nil { // a cached verdict: the page is read now
			_, _, doc = r.Checker.checkURL(ctx, t.URL, true)
		}
		if doc != nil {
			if doc.cut {
				r.readInPart(t, doc.total)
			}
			g.read(name, doc.base, bytes.NewReader(doc.body), doc.html)
		}
		return
	}
	resp, err := r.Checker.Client.Get(ctx, t.URL)
	if err != nil {
		return
	}
	defer resp.Body.Close()
	body, cut, err := readDocument(resp.Body, r.Checker.maxPage())
	if cut {
		r.readInPart(t, resp.Size)
	}
	g.read(name, "", bytes.NewReader(body), strings.HasPrefix(resp.Type, "text/html"))
}

// readDocument reads at most limit bytes of a document for its links;
// cut says it had more. A document cut ends at its last line end, space
// or '>' before the limit, so that a URL or a tag the limit cuts in two
// is not read as a shorter one.
func readDocument(body io.Reader, limit int64) (b []byte, cut bool, err error) {
	b, err = io.ReadAll(io.LimitReader(body, limit+1))
	if int64(len(b)) <= limit {
		return b, false, err
	}
	b = b[:limit]
	if i := bytes.LastIndexAny(b, " \t\r\n>"); i >= 0 {
		b = b[:i+1]
	}
	return b, true, nil
}

// readInPart notes, once, that the links of t's document were read from
// its first bytes only (total is its size when known, else -1): in its
// detail, and through Warn.
func (r *Run) readInPart(t crawl.Task, total int64) {
	msg := "links read from its first " + sizeText(r.Checker.maxPage()) + " only"
	if total > 0 {
		msg += ", of " + sizeText(total)
	}
	r.mu.Lock()
	i := r.byTask[t.ID]
	noted := r.cut[i]
	if !noted {
		if r.cut == nil {
			r.cut = map[int32]bool{}
		}
		r.cut[i] = true
		r.results[i].Detail += " (" + msg + ")"
	}
	url := r.results[i].URL
	r.mu.Unlock()
	if !noted && r.Warn != nil {
		r.Warn(url, msg)
	}
}

// sizeText writes a byte count for people: 4 MiB, 5.5 MiB, 900 bytes.
func sizeText(n int64) string {
	// Tests, not a switch: the coverage profile gremlins reads counts a
	// case's condition as never run.
	if n >= 1<<20 {
		if n%(1<<20) == 0 {
			return fmt.Sprintf("%d MiB", n>>20)
		}
		return fmt.Sprintf("%.1f MiB", float64(n)/(1<<20))
	}
	if n >= 1<<10 {
		return fmt.Sprintf("%.1f KiB", float64(n)/(1<<10))
	}
	return fmt.Sprintf("%d bytes", n)
}

// Results returns the verdicts so far, in order of first appearance;
// URLs not yet checked (an interrupted run) are left out. Once every URL
// is checked it is the run's own slice, not a copy: call it after Check
// returns, and do not change it.
func (r *Run) Results() []Result {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.ndone+len(r.invalid)+len(r.foreign) == len(r.results) {
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
