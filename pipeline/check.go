package main

import (
	"context"
	"reflect"
	"strings"
	"sync"
	"time"

	"github.com/apache/beam/sdks/v2/go/pkg/beam"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/register"

	"github.com/rfc1738/rfc1738/access"
	"github.com/rfc1738/rfc1738/linkcheck"
)

// CheckOptions turn the census's check on: each distinct URL checked once
// with linkcheck's own code (linkcheck.Polite), one site (scheme, host and
// port) at a time in one place.
type CheckOptions struct {
	PerHost      int           // checks of one site at once (1)
	HostDelay    time.Duration // least time between two requests to a site (1s)
	NoRobots     bool          // check what robots.txt disallows
	HostFailures int           // refusals or timeouts in a row that give a site up (3)
	AllowPorts   []int         // ports the §6 guard lets through
	Timeout      time.Duration // one attempt (linkcheck.DefaultTimeout)
	Retries      int           // further attempts after a transient failure
	Jobs         int           // sites checked at once by one worker (256)
	UserAgent    string        // "": access.DefaultUserAgent

	// From is the output folder of an earlier run whose verdicts younger
	// than MaxAge are kept, not checked again; Now is this run's time.
	From   string
	MaxAge time.Duration
	Now    time.Time
}

// CheckLine is one line of checks-*.jsonl: the verdict on one distinct
// URL. Its keys are fixed: scripts rely on them.
type CheckLine struct {
	URL       string `json:"url"`    // as in urls-*.jsonl
	Scheme    string `json:"scheme"` // lower case
	Host      string `json:"host"`   // "host:port" checked; "" when none
	Verdict   string `json:"verdict"`
	Detail    string `json:"detail"`
	Status    int    `json:"status"`     // the server's code where the scheme has one; 0: none
	CheckedAt string `json:"checked_at"` // RFC 3339, UTC
	// Year is the year of the earliest dated document the URL is in (0:
	// none); not written to the line, it feeds the summary's table.
	Year int `json:"-"`
	// Reused marks a verdict of an earlier run (--check-from); Shards is
	// the run's shard count, on the way to the writer.
	Reused bool `json:"-"`
	Shards int  `json:"-"`
}

// checkItem is a distinct URL on its way to its check, with the run's
// shard count (its line goes to the shard its urls-*.jsonl line is in).
type checkItem struct {
	URL, Scheme string
	Year        int
	Shards      int
}

func init() {
	for _, t := range []any{CheckLine{}, checkItem{}} {
		beam.RegisterType(reflect.TypeOf(t))
	}
	register.Function3x1(checkItems)
	register.Emitter1[checkItem]()
	register.Function2x0(bySite)
	register.Emitter2[string, checkItem]()
	register.DoFn4x0[context.Context, string, func(*checkItem) bool, func(CheckLine)](&checkSiteFn{})
	register.Iter1[checkItem]()
	register.Emitter1[CheckLine]()
}

var (
	checkedCounter = beam.NewCounter("check", "urls_checked")
	brokenCounter  = beam.NewCounter("check", "urls_broken")
	sitesCounter   = beam.NewCounter("check", "sites")
)

// checkItems hands on each distinct URL of a shard part (appendPart):
// the part brings the shard count, so that no step of the check reads a
// side input (Prism re-examines such a step without pause while it waits,
// which took most of a core for the whole check).
func checkItems(_ int, part []byte, emit func(checkItem)) error {
	shards, packed, err := readPart(part)
	var raw []byte
	if err == nil {
		raw, err = unpackBatch(packed)
	}
	if err != nil {
		return err
	}
	r := newBatchReader(raw)
	for r.next() {
		emit(checkItem{URL: r.url, Scheme: r.stats.Scheme, Year: r.stats.Year, Shards: shards})
	}
	return r.err()
}

// bySite keys a URL by its site ("scheme://host:port"), the unit of
// politeness; URLs that name no host share the key "".
func bySite(it checkItem, emit func(string, checkItem)) {
	emit(linkcheck.Site(it.URL, false), it)
}

// checkStage checks the distinct URLs of the census's shard parts, those
// an earlier run's verdicts do not answer, and returns every URL's
// CheckLine.
func checkStage(s beam.Scope, o *CheckOptions, parts beam.PCollection) beam.PCollection {
	s = s.Scope("check")
	items := beam.ParDo(s, checkItems, parts)
	var kept beam.PCollection
	if o.From != "" {
		items, kept = reuseChecks(s, o, items)
	}
	sites := beam.GroupByKey(s, beam.ParDo(s, bySite, items))
	checked := beam.ParDo(s, newCheckSiteFn(o), sites)
	if o.From != "" {
		return beam.Flatten(s, checked, kept)
	}
	return checked
}

// checkSiteFn checks the URLs of each site it is given with a
// linkcheck.Polite of its own, Jobs sites at a time: a site's URLs all
// arrive in one element, so a site is served by one place at a time, and
// the sites of a bundle are checked side by side. The verdicts are handed
// on as they come, the last ones when the bundle ends.
type checkSiteFn struct {
	PerHost, HostFailures, Retries, Jobs int
	HostDelay, Timeout                   time.Duration
	NoRobots                             bool
	AllowPorts                           []int
	UserAgent                            string

	k      *linkcheck.Checker
	slots  chan struct{}
	wg     sync.WaitGroup
	mu     sync.Mutex
	ready  []CheckLine
	cancel context.CancelFunc
	ctx    context.Context
}

func newCheckSiteFn(o *CheckOptions) *checkSiteFn {
	return &checkSiteFn{PerHost: o.PerHost, HostFailures: o.HostFailures, Retries: o.Retries, Jobs: o.Jobs,
		HostDelay: o.HostDelay, Timeout: o.Timeout, NoRobots: o.NoRobots, AllowPorts: o.AllowPorts, UserAgent: o.UserAgent}
}

func (fn *checkSiteFn) Setup() {
	c := access.NewClient()
	c.AllowPorts = fn.AllowPorts
	if fn.UserAgent != "" {
		c.UserAgent = fn.UserAgent
	}
	fn.k = &linkcheck.Checker{Client: c, PerHost: max(fn.PerHost, 1), Timeout: fn.Timeout, Retries: fn.Retries}
	fn.slots = make(chan struct{}, max(fn.Jobs, 1))
	fn.ctx, fn.cancel = context.WithCancel(context.Background())
}

func (fn *checkSiteFn) Teardown() {
	fn.cancel()
	fn.k.Close()
}

func (fn *checkSiteFn) ProcessElement(ctx context.Context, site string, urls func(*checkItem) bool, emit func(CheckLine)) {
	var items []checkItem
	for it := (checkItem{}); urls(&it); {
		items = append(items, it)
	}
	fn.handOn(ctx, emit)
	fn.slots <- struct{}{}
	sitesCounter.Inc(ctx, 1)
	fn.wg.Add(1)
	go func() {
		defer func() { <-fn.slots; fn.wg.Done() }()
		fn.checkSite(site, items)
	}()
}

func (fn *checkSiteFn) FinishBundle(ctx context.Context, emit func(CheckLine)) {
	fn.wg.Wait()
	fn.handOn(ctx, emit)
}

// handOn emits the verdicts reached so far.
func (fn *checkSiteFn) handOn(ctx context.Context, emit func(CheckLine)) {
	fn.mu.Lock()
	ready := fn.ready
	fn.ready = nil
	fn.mu.Unlock()
	var broken int64
	for _, l := range ready {
		if l.Verdict == "broken" {
			broken++
		}
		emit(l)
	}
	checkedCounter.Inc(ctx, int64(len(ready)))
	brokenCounter.Inc(ctx, broken)
}

// checkSite checks one site's URLs.
func (fn *checkSiteFn) checkSite(site string, items []checkItem) {
	p := &linkcheck.Polite{Checker: fn.k, PerHost: max(fn.PerHost, 1), Delay: fn.HostDelay,
		NoRobots: fn.NoRobots, MaxFailures: fn.HostFailures}
	if site == "" {
		// No host to be polite to: nothing waits for another.
		p.PerHost, p.Delay = 8, 0
	}
	urls := make([]string, len(items))
	for i, it := range items {
		urls[i] = it.URL
	}
	host := strings.TrimPrefix(site[strings.Index(site, ":")+1:], "//")
	p.CheckHost(fn.ctx, urls, func(i int, v linkcheck.Verdict) {
		it := items[i]
		l := CheckLine{URL: it.URL, Scheme: it.Scheme, Host: host, Verdict: v.Status.String(), Detail: v.Detail,
			Status: v.Code, CheckedAt: v.At.UTC().Format(time.RFC3339), Year: it.Year, Shards: it.Shards}
		fn.mu.Lock()
		fn.ready = append(fn.ready, l)
		fn.mu.Unlock()
	})
}
