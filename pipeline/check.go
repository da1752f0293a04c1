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

// siteItems are the URLs of one site from one shard part: what crosses
// the runner on the way to the check is a few elements per site, not one
// per URL (Prism holds and copies every element: a million URLs as
// elements of their own took 1.5 GB and 145 s of CPU, most of it Prism's).
type siteItems struct {
	Items []checkItem
}

// siteOld are the earlier verdicts of one site from one checks file.
type siteOld struct {
	Lines []CheckLine
}

func init() {
	for _, t := range []any{CheckLine{}, checkItem{}, siteItems{}, siteOld{}, checkBatch{}} {
		beam.RegisterType(reflect.TypeOf(t))
	}
	register.Function3x1(checkItems)
	register.Emitter2[string, siteItems]()
	register.DoFn6x0[context.Context, string, func(*siteItems) bool, func(*siteOld) bool, func(int, checkBatch), func(string, int64)](&checkSiteFn{})
	register.Iter1[siteItems]()
	register.Iter1[siteOld]()
	register.Emitter2[int, checkBatch]()
	register.Emitter2[string, int64]()
}

var (
	checkedCounter = beam.NewCounter("check", "urls_checked")
	reusedCounter  = beam.NewCounter("check", "urls_reused")
	brokenCounter  = beam.NewCounter("check", "urls_broken")
	sitesCounter   = beam.NewCounter("check", "sites")
)

// checkItems hands on the distinct URLs of a shard part (appendPart),
// one element per site (linkcheck.Site: "scheme://host:port"; the URLs
// that name no host share ""). The part brings the shard count, so that
// no step of the check reads a side input (Prism re-examines such a step
// without pause while it waits, which took most of a core for the whole
// check).
func checkItems(_ int, part []byte, emit func(string, siteItems)) error {
	shards, packed, err := readPart(part)
	var raw []byte
	if err == nil {
		raw, err = unpackBatch(packed)
	}
	if err != nil {
		return err
	}
	bySite := map[string][]checkItem{}
	r := newBatchReader(raw)
	for r.next() {
		site := linkcheck.Site(r.url, false)
		bySite[site] = append(bySite[site], checkItem{URL: r.url, Scheme: r.stats.Scheme, Year: r.stats.Year, Shards: shards})
	}
	if r.err() != nil {
		return r.err()
	}
	for site, items := range bySite {
		emit(site, siteItems{items})
	}
	return nil
}

// checkStage checks the distinct URLs of the census's shard parts, those
// an earlier run's verdicts do not answer, and returns the verdicts as
// batches keyed by shard, and each host's broken URLs.
func checkStage(s beam.Scope, o *CheckOptions, parts beam.PCollection) (batches, broken beam.PCollection) {
	s = s.Scope("check")
	items := beam.ParDo(s, checkItems, parts)
	old := oldVerdicts(s, o.From)
	return beam.ParDo2(s, newCheckSiteFn(o), beam.CoGroupByKey(s, items, old))
}

// checkSiteFn checks the URLs of each site it is given with a
// linkcheck.Polite of its own, Jobs sites at a time: a site's URLs all
// arrive in one element, so a site is served by one place at a time, and
// the sites of a bundle are checked side by side. A URL whose earlier
// verdict (--check-from) is younger than MaxAge keeps it. The verdicts
// are gathered per shard into sorted batches of at most batchLines,
// handed on as they fill and when the bundle ends.
type checkSiteFn struct {
	PerHost, HostFailures, Retries, Jobs int
	HostDelay, Timeout, MaxAge           time.Duration
	NoRobots                             bool
	AllowPorts                           []int
	UserAgent                            string
	Now                                  string // RFC 3339: the run's time, the same on every worker

	k      *linkcheck.Checker
	slots  chan struct{}
	wg     sync.WaitGroup
	mu     sync.Mutex
	acc    map[int]*batchAcc // by shard
	ready  []shardBatch
	broken map[string]int64 // by host, for the sites done
	counts [3]int64         // checked, reused, broken since handed on
	cancel context.CancelFunc
	ctx    context.Context
}

// shardBatch is a batch ready to be handed on, with its shard.
type shardBatch struct {
	shard int
	b     checkBatch
}

func newCheckSiteFn(o *CheckOptions) *checkSiteFn {
	return &checkSiteFn{PerHost: o.PerHost, HostFailures: o.HostFailures, Retries: o.Retries, Jobs: o.Jobs,
		HostDelay: o.HostDelay, Timeout: o.Timeout, MaxAge: o.MaxAge, NoRobots: o.NoRobots, AllowPorts: o.AllowPorts,
		UserAgent: o.UserAgent, Now: o.Now.UTC().Format(time.RFC3339Nano)}
}

func (fn *checkSiteFn) Setup() {
	c := access.NewClient()
	c.AllowPorts = fn.AllowPorts
	if fn.UserAgent != "" {
		h := c.HTTPSettings()
		h.UserAgent = fn.UserAgent
		c.SetHTTP(h)
	}
	fn.k = &linkcheck.Checker{Client: c, PerHost: max(fn.PerHost, 1), Timeout: fn.Timeout, Retries: fn.Retries}
	fn.slots = make(chan struct{}, max(fn.Jobs, 1))
	fn.ctx, fn.cancel = context.WithCancel(context.Background())
	fn.acc = map[int]*batchAcc{}
	fn.broken = map[string]int64{}
}

func (fn *checkSiteFn) Teardown() {
	fn.cancel()
	fn.k.Close()
}

func (fn *checkSiteFn) ProcessElement(ctx context.Context, site string, items func(*siteItems) bool, olds func(*siteOld) bool,
	emit func(int, checkBatch), emitBroken func(string, int64)) {
	var all []checkItem
	for v := (siteItems{}); items(&v); {
		all = append(all, v.Items...)
	}
	if len(all) == 0 {
		return // verdicts of an earlier run for a site this run does not name
	}
	old := map[string]CheckLine{}
	for v := (siteOld{}); olds(&v); {
		for _, l := range v.Lines {
			old[l.URL] = l
		}
	}
	fn.handOn(ctx, emit, emitBroken)
	fn.slots <- struct{}{}
	sitesCounter.Inc(ctx, 1)
	fn.wg.Add(1)
	go func() {
		defer func() { <-fn.slots; fn.wg.Done() }()
		fn.checkSite(site, all, old)
	}()
}

func (fn *checkSiteFn) FinishBundle(ctx context.Context, emit func(int, checkBatch), emitBroken func(string, int64)) {
	fn.wg.Wait()
	fn.mu.Lock()
	for shard, a := range fn.acc {
		fn.ready = append(fn.ready, shardBatch{shard, a.finish()})
	}
	clear(fn.acc)
	fn.mu.Unlock()
	fn.handOn(ctx, emit, emitBroken)
}

// handOn emits the batches that are full, the broken counts of the
// sites done, and the counters.
func (fn *checkSiteFn) handOn(ctx context.Context, emit func(int, checkBatch), emitBroken func(string, int64)) {
	fn.mu.Lock()
	ready, broken, counts := fn.ready, fn.broken, fn.counts
	fn.ready, fn.broken, fn.counts = nil, map[string]int64{}, [3]int64{}
	fn.mu.Unlock()
	for _, b := range ready {
		emit(b.shard, b.b)
	}
	for host, n := range broken {
		emitBroken(host, n)
	}
	checkedCounter.Inc(ctx, counts[0])
	reusedCounter.Inc(ctx, counts[1])
	brokenCounter.Inc(ctx, counts[2])
}

// checkSite checks one site's URLs, those without a fresh verdict.
func (fn *checkSiteFn) checkSite(site string, items []checkItem, old map[string]CheckLine) {
	host := ""
	if i := strings.Index(site, "://"); i >= 0 {
		host = site[i+3:]
	}
	now, _ := time.Parse(time.RFC3339Nano, fn.Now)
	var todo []checkItem
	var kept []CheckLine
	for _, it := range items {
		if l, ok := old[it.URL]; ok && fresh(l, now, fn.MaxAge) {
			l.Reused, l.Year, l.Scheme, l.Shards = true, it.Year, it.Scheme, it.Shards
			kept = append(kept, l)
		} else {
			todo = append(todo, it)
		}
	}
	fn.add(kept...)
	p := &linkcheck.Polite{Checker: fn.k, PerHost: max(fn.PerHost, 1), Delay: fn.HostDelay,
		NoRobots: fn.NoRobots, MaxFailures: fn.HostFailures, Elsewhere: true}
	if site == "" {
		// No host to be polite to: nothing waits for another.
		p.PerHost, p.Delay = 8, 0
	}
	urls := make([]string, len(todo))
	for i, it := range todo {
		urls[i] = it.URL
	}
	p.CheckHost(fn.ctx, urls, func(i int, v linkcheck.Verdict) {
		it := todo[i]
		fn.add(CheckLine{URL: it.URL, Scheme: it.Scheme, Host: host, Verdict: v.Status.String(), Detail: v.Detail,
			Status: v.Code, CheckedAt: v.At.UTC().Format(time.RFC3339), Year: it.Year, Shards: it.Shards})
	})
}

// fresh reports whether an earlier verdict is young enough to keep; one
// from the future (a clock set wrong) is not.
func fresh(l CheckLine, now time.Time, maxAge time.Duration) bool {
	at, err := time.Parse(time.RFC3339, l.CheckedAt)
	return err == nil && !at.After(now) && now.Sub(at) <= maxAge
}

// add puts verdicts into their shards' batches; a batch that fills is
// made ready.
func (fn *checkSiteFn) add(lines ...CheckLine) {
	fn.mu.Lock()
	defer fn.mu.Unlock()
	for _, l := range lines {
		shard := shardOf(l.URL, l.Shards)
		a := fn.acc[shard]
		if a == nil {
			a = &batchAcc{}
			fn.acc[shard] = a
		}
		a.add(l)
		if l.Reused {
			fn.counts[1]++
		} else {
			fn.counts[0]++
		}
		if l.Verdict == "broken" {
			fn.counts[2]++
			if l.Host != "" {
				fn.broken[l.Host]++
			}
		}
		if len(a.lines) >= batchLines {
			fn.ready = append(fn.ready, shardBatch{shard, a.finish()})
			delete(fn.acc, shard)
		}
	}
}
