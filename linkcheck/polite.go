package linkcheck

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/http"
	"net/url"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/rfc1738/rfc1738"
	"github.com/rfc1738/rfc1738/crawl"
)

// DefaultMaxFailures is how many attempts in a row a host may refuse or
// let time out before a Polite check gives it up, when
// Polite.MaxFailures is zero.
const DefaultMaxFailures = 3

// A Polite checks the URLs of one site (scheme, host and port) as a
// crawler of many hosts must: never more than PerHost requests at the
// host at once, never two starting closer than Delay (retries and the
// robots.txt fetch included), its robots.txt obeyed (RFC 9309), a
// Retry-After honoured by the whole site, and a host that refuses or
// times out MaxFailures times in a row given up: its remaining URLs are
// broken without another connection. Each verdict is the Checker's own,
// reached by the same attempts.
type Polite struct {
	// Checker makes each attempt; nil means a zero Checker. Its Retries,
	// Backoff, Timeout, MaxRetryWait and Accept apply.
	Checker *Checker
	// PerHost is the checks of the site at once; zero means 1.
	PerHost int
	// Delay is the least time between the starts of two requests to the
	// site.
	Delay time.Duration
	// NoRobots checks what the site's robots.txt disallows; by default a
	// disallowed http or https URL is skipped, and a site whose
	// robots.txt cannot be reached is not checked (RFC 9309 §2.3.1.4).
	NoRobots bool
	// MaxFailures is the attempts in a row the site may refuse or let
	// time out; zero means DefaultMaxFailures.
	MaxFailures int
	// Strict holds each URL to RFC 1738 exactly (rfc1738.Parse); by
	// default it is read as browsers and curl read it (rfc1738.Read).
	Strict bool
	// Elsewhere says the URLs were found in documents not read from this
	// machine's files (a crawl, an archive): a file URL is then skipped
	// and nothing local is opened for it (§3.10: it names a file of the
	// machine that reads it, which the report must not disclose).
	Elsewhere bool
}

// A Verdict is the outcome of a Polite check of one URL.
type Verdict struct {
	Status Status
	Detail string // one line, safe to print
	// Code is what the server answered, where the scheme has a code: the
	// http status, or the ftp, nntp or smtp reply of a failure; 0 when
	// none.
	Code int
	// At is when the verdict was reached.
	At time.Time
}

// Site returns the site a URL is checked under: "scheme://host:port"
// (the scheme's default port when none is written), or "" when it names
// no host (file, mailto, news) or does not read as a URL.
func Site(s string, strict bool) string {
	u, _, err := readURL(s, strict)
	if err != nil || crawl.HostKey(u) == "" {
		return ""
	}
	return siteOf(u)
}

// gateKey is the context key of a gate: the politeHost whose requests
// are spaced by the http client itself (beforeRequest), each request, a
// redirect's or a GET after a refused HEAD included.
type gateKey struct{}

// gate is the value under gateKey. While first is set, the attempt's
// first request has not gone: if it finds the site asking to wait (a
// Retry-After another request got after checkOne's await), it does not go
// and sets deferred, and checkOne makes the attempt again after the wait,
// not counting it: the wait is never spent inside the attempt's timeout.
// The turn itself is taken at the gate, as close to the request as can
// be (after the §6 guard and the name's lookup), so that the server sees
// the requests spaced as said.
type gate struct {
	h        *politeHost
	first    atomic.Bool
	deferred atomic.Bool
}

// errDeferred is the error of a first request that did not go (gate).
var errDeferred = errors.New("the site asked to wait (Retry-After): the attempt is made after the wait")

// beforeRequest waits, for a request to the site of the politeHost in
// its context, until the site may be asked again.
func beforeRequest(req *http.Request) error {
	g, _ := req.Context().Value(gateKey{}).(*gate)
	if g == nil {
		return nil
	}
	h := g.h
	h.mu.Lock()
	site := h.site
	asked := h.until.After(time.Now())
	h.mu.Unlock()
	if requestSite(req.URL) != site {
		return nil // a redirect to another site: not this one's to space
	}
	if g.first.CompareAndSwap(true, false) && asked {
		g.deferred.Store(true)
		return errDeferred
	}
	return h.wait(req.Context())
}

// requestSite is the site a request goes to: scheme, host and port (the
// scheme's default when none is written), lower case.
func requestSite(u *url.URL) string {
	port := u.Port()
	if port == "" {
		port = "80"
		if strings.EqualFold(u.Scheme, "https") {
			port = "443"
		}
	}
	return strings.ToLower(u.Scheme + "://" + net.JoinHostPort(u.Hostname(), port))
}

// politeHost is the state of one site during a check.
type politeHost struct {
	site  string // requestSite of its http URLs
	delay time.Duration
	max   int

	mu       sync.Mutex
	next     time.Time // the earliest start of the next request
	until    time.Time // the end of the last Retry-After (RFC 9110 §10.2.3)
	failures int       // refused or timed-out attempts in a row
	down     string    // why the site was given up; "" while it is not

	robotsOnce sync.Once
	robots     robotsRules
	robotsErr  error
}

// wait returns when the next request may start: Delay after the one
// before started, and not before a Retry-After ends. The turn is taken
// when wait returns, at the time it returns: a waiter woken late does
// not bring the next one closer.
func (h *politeHost) wait(ctx context.Context) error {
	for {
		h.mu.Lock()
		now := time.Now()
		if !h.next.After(now) { // the turn has come
			h.next = now.Add(h.delay)
			h.mu.Unlock()
			return nil
		}
		d := h.next.Sub(now)
		h.mu.Unlock()
		t := time.NewTimer(d)
		select {
		case <-t.C:
		case <-ctx.Done():
			t.Stop()
			return ctx.Err()
		}
	}
}

// await returns when the site may be asked again, without taking the
// turn: the request that then goes takes it (wait, at the gate).
func (h *politeHost) await(ctx context.Context) error {
	for {
		h.mu.Lock()
		now := time.Now()
		next := h.next
		h.mu.Unlock()
		if !next.After(now) { // the site may be asked now
			return nil
		}
		t := time.NewTimer(next.Sub(now))
		select {
		case <-t.C:
		case <-ctx.Done():
			t.Stop()
			return ctx.Err()
		}
	}
}

// record counts an attempt's outcome toward giving the site up, and
// postpones its next request by what the server asked.
func (h *politeHost) record(o outcome, wait time.Duration) {
	h.mu.Lock()
	defer h.mu.Unlock()
	// A wait of 0 or less gives a time not after now, which moves next
	// to no later than now: the next request may go at once either way.
	if t := time.Now().Add(wait); t.After(h.next) {
		h.next = t
		h.until = t
	}
	if !o.refused && !o.timeout {
		h.failures = 0
		return
	}
	h.failures++
	if h.failures >= h.max && h.down == "" {
		h.down = fmt.Sprintf("host unreachable: %d attempts in a row refused or timed out (the last: %s); not tried", h.failures, oneLine(o.detail))
	}
}

// setSite sets the site the http client's gate spaces.
func (h *politeHost) setSite(site string) {
	h.mu.Lock()
	h.site = site
	h.mu.Unlock()
}

// gone is why the site was given up, or "".
func (h *politeHost) gone() string {
	h.mu.Lock()
	defer h.mu.Unlock()
	return h.down
}

// CheckHost checks urls, all of one site (Site is the same for each, or
// "" for each). found is told each verdict, from one goroutine at a time,
// in the order they are reached; i is the URL's index in urls. It returns
// when every URL has its verdict, or ctx ends (the URLs not reached then
// are not told).
func (p *Polite) CheckHost(ctx context.Context, urls []string, found func(i int, v Verdict)) {
	k := p.Checker
	if k == nil {
		k = &Checker{}
	}
	k.init()
	h := &politeHost{delay: p.Delay, max: p.MaxFailures}
	if h.max <= 0 {
		h.max = DefaultMaxFailures
	}
	jobs := max(p.PerHost, 1)
	var mu sync.Mutex
	tell := func(i int, o outcome) {
		mu.Lock()
		defer mu.Unlock()
		found(i, Verdict{Status: o.status, Detail: oneLine(o.detail), Code: o.code, At: time.Now()})
	}
	next := make(chan int)
	var wg sync.WaitGroup
	for range min(jobs, len(urls)) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range next {
				if o, ok := p.checkOne(ctx, k, h, urls[i]); ok {
					tell(i, o)
				}
			}
		}()
	}
	for i := range urls {
		if ctx.Err() != nil {
			break
		}
		next <- i
	}
	close(next)
	wg.Wait()
}

// checkOne reaches the verdict on one URL of the site; false when ctx
// ended first.
func (p *Polite) checkOne(ctx context.Context, k *Checker, h *politeHost, s string) (outcome, bool) {
	u, _, err := readURL(s, p.Strict)
	if err != nil {
		return outcome{status: Invalid, detail: invalidDetail(err)}, true
	}
	if p.Elsewhere && u.Kind() == rfc1738.KindFile {
		return outcome{status: Skipped, detail: notLocal}, true
	}
	if crawl.HostKey(u) == "" {
		// No host: nothing to be polite to (a local stat, an address's
		// syntax, a news server that is configured, or not).
		o, _ := k.attempt(ctx, u, false)
		return o, ctx.Err() == nil
	}
	if why := h.gone(); why != "" {
		return outcome{status: Broken, detail: why}, true
	}
	if o := k.guard(u); o.status != OK {
		return o, true // §6: nothing is sent, robots.txt included
	}
	gated := isHTTP(u)
	if gated {
		// The http client waits before each request to the site.
		if t, err := url.Parse(httpTarget(u)); err == nil {
			h.setSite(requestSite(t))
		}
	}
	if !p.NoRobots && gated {
		rctx := context.WithValue(ctx, gateKey{}, &gate{h: h})
		if o, ok := p.robotsAllow(rctx, k, h, u); !ok {
			return o, ctx.Err() == nil
		}
	}
	backoff := k.backoff()
	for attempt := 0; ; attempt++ {
		if why := h.gone(); why != "" {
			return outcome{status: Broken, detail: why}, true
		}
		o, ok := p.try(ctx, k, h, u, gated)
		if !ok {
			return outcome{}, false
		}
		asked := min(o.wait, k.maxRetryWait())
		h.record(o, asked)
		if !o.transient || attempt >= k.Retries {
			o.detail = afterAttempts(o.detail, attempt+1)
			return o, true
		}
		t := time.NewTimer(k.retryWait(backoff, attempt, o.wait))
		select {
		case <-t.C:
		case <-ctx.Done():
			t.Stop()
			return outcome{}, false
		}
	}
}

// try makes one attempt at u, once the site may be asked: an http
// attempt's requests wait at the gate for their turn (within the
// attempt's time), but a wait for a Retry-After is made before the
// attempt, here, and an attempt whose first request found one (gate) is
// made again after it. false: ctx ended.
func (p *Polite) try(ctx context.Context, k *Checker, h *politeHost, u rfc1738.URL, gated bool) (outcome, bool) {
	for {
		if gated && h.await(ctx) != nil || !gated && h.wait(ctx) != nil {
			return outcome{}, false
		}
		actx := ctx
		var g *gate // an http attempt's: it may defer the first request
		if gated {
			g = &gate{h: h}
			g.first.Store(true)
			actx = context.WithValue(ctx, gateKey{}, g)
		}
		o, _ := k.attempt(actx, u, false)
		if ctx.Err() != nil {
			return outcome{}, false
		}
		if !gated || !g.deferred.Load() {
			return o, true
		}
	}
}

// robotsAllow fetches the site's robots.txt once (RFC 9309 §2.3.1), as a
// request of the site, and reports whether it lets u be fetched; when
// not, the outcome says why, as a recursive Run says it.
func (p *Polite) robotsAllow(ctx context.Context, k *Checker, h *politeHost, u rfc1738.URL) (outcome, bool) {
	h.robotsOnce.Do(func() {
		h.robots, h.robotsErr = k.fetchRobots(ctx, u) // spaced by the gate in ctx
		if h.robotsErr != nil {
			o := broken(h.robotsErr)
			h.record(o, 0)
			h.mu.Lock()
			if h.down == "" {
				// §2.3.1.4: an unreachable robots.txt keeps the whole
				// site from being crawled.
				h.down = h.robotsErr.Error() + " (RFC 9309 §2.3.1.4: the site is not crawled)"
			}
			h.mu.Unlock()
		}
	})
	if ctx.Err() != nil {
		return outcome{}, false
	}
	if h.robotsErr != nil {
		return outcome{status: Broken, detail: h.gone()}, false
	}
	return robotsVerdict(h.robots, u)
}
