package crawl

import (
	"context"
	"strings"
	"sync"
	"time"

	"github.com/rfc1738/rfc1738"
)

// DefaultJobs is the number of visits running at once when
// Frontier.Jobs is zero.
const DefaultJobs = 16

// DefaultPerHost is the number of visits running at once against one
// host when Frontier.PerHost is zero: two, as RFC 2616 §8.1.4 asked of a
// client's connections to one server.
const DefaultPerHost = 2

// A Task is one distinct URL to visit.
type Task struct {
	// URL is the URL as it was first added.
	URL rfc1738.URL
	// Key is its §2.2 normalized form (rfc1738.Normalize), which all its
	// equivalent spellings share.
	Key string
	// Host is the "host:port" the visit talks to, lower case, with the
	// scheme's default port; "" for URLs that reach no host (file, mailto,
	// news, which uses a configured server). Visits of one Host are
	// limited together.
	Host string
	// ID numbers distinct URLs in the order they were first added, from 0.
	ID int
	// Depth is the Depth given to Add: 0 for the URLs of the input, n+1
	// for a URL found while visiting one of depth n.
	Depth int
}

// A Visitor visits one task. It runs on one of the frontier's workers and
// may Add the URLs it finds. It should honour ctx.
type Visitor func(ctx context.Context, t Task)

// A Frontier holds the URLs to visit, each once, and runs the visits with
// per-host limits. Set its fields, Add the first URLs, then call Run; a
// Visitor may Add more while Run runs. Run returns when nothing is queued
// and no visit runs.
type Frontier struct {
	// Visit is called once per distinct URL.
	Visit Visitor
	// Jobs bounds the visits running at once; zero means DefaultJobs.
	Jobs int
	// PerHost bounds the visits running at once against one Task.Host;
	// zero means DefaultPerHost. Hostless tasks are bounded by Jobs only.
	PerHost int
	// Delay is the least time between the start of two visits of one
	// host (politeness); zero means none.
	Delay time.Duration

	mu      sync.Mutex
	cond    *sync.Cond
	seen    map[string]int
	hosts   map[string]*hostQueue
	ready   []*hostQueue // hosts with queued tasks and a free slot
	pending int          // tasks queued or running
	closed  bool
}

// hostQueue is the work of one host: queued tasks in chunks, so that
// memory is given back as the queue drains.
type hostQueue struct {
	host    string
	chunks  [][]queued
	head    int // next in chunks[0]
	n       int // queued tasks
	active  int
	inReady bool
	next    time.Time // earliest start of the next visit (Delay)
}

// queued is a task waiting in a hostQueue, smaller than a Task: its key
// and host are known again when it is taken.
type queued struct {
	u     rfc1738.URL
	id    int32
	depth int32
}

// queueChunk is the number of tasks per chunk of a hostQueue.
const queueChunk = 512

func (h *hostQueue) queued() int { return h.n }

func (h *hostQueue) push(q queued) {
	last := len(h.chunks) - 1
	if last < 0 || len(h.chunks[last]) >= queueChunk {
		// A chunk grows by append, so a host with one URL costs one.
		h.chunks = append(h.chunks, nil)
		last++
	}
	h.chunks[last] = append(h.chunks[last], q)
	h.n++
}

func (h *hostQueue) pop() queued {
	c := h.chunks[0]
	q := c[h.head]
	c[h.head] = queued{}
	h.head++
	h.n--
	if h.head == len(c) {
		h.chunks[0] = nil
		h.chunks = h.chunks[1:]
		h.head = 0
	}
	return q
}

func (f *Frontier) init() {
	if f.seen == nil {
		f.seen = map[string]int{}
		f.hosts = map[string]*hostQueue{}
		f.cond = sync.NewCond(&f.mu)
	}
}

// Add queues u unless an equivalent URL (§2.2) was added before. It
// returns the task's ID and whether u was new.
func (f *Frontier) Add(u rfc1738.URL, depth int) (id int, added bool) {
	key := rfc1738.Normalize(u)
	f.mu.Lock()
	defer f.mu.Unlock()
	f.init()
	if id, ok := f.seen[key]; ok {
		return id, false
	}
	id = len(f.seen)
	// The key shares the URL's memory when the URL was normal already
	// (Normalize returns its input then): one string for both.
	f.seen[key] = id
	host := HostKey(u)
	h := f.hosts[host]
	if h == nil {
		h = &hostQueue{host: host}
		f.hosts[host] = h
	}
	h.push(queued{u: u, id: int32(id), depth: int32(depth)})
	f.pending++
	f.makeReady(h)
	return id, true
}

// Seen returns the ID of the URL equivalent to u, if it was added.
func (f *Frontier) Seen(u rfc1738.URL) (id int, ok bool) {
	key := rfc1738.Normalize(u)
	f.mu.Lock()
	defer f.mu.Unlock()
	id, ok = f.seen[key]
	return id, ok
}

// Len returns the number of distinct URLs added.
func (f *Frontier) Len() int {
	f.mu.Lock()
	defer f.mu.Unlock()
	return len(f.seen)
}

// makeReady puts h on the ready list if it has work and a free slot.
func (f *Frontier) makeReady(h *hostQueue) {
	if h.inReady || h.queued() == 0 || (h.host != "" && h.active >= f.perHost()) {
		return
	}
	h.inReady = true
	f.ready = append(f.ready, h)
	f.cond.Signal()
}

func (f *Frontier) perHost() int {
	if f.PerHost > 0 {
		return f.PerHost
	}
	return DefaultPerHost
}

// Run visits every task, including those added while it runs, and
// returns when none is left or ctx is done (then queued tasks are
// dropped and running visits see the cancelled ctx). Run may be called
// once.
func (f *Frontier) Run(ctx context.Context) error {
	f.mu.Lock()
	f.init()
	f.mu.Unlock()
	jobs := f.Jobs
	if jobs <= 0 {
		jobs = DefaultJobs
	}
	stop := context.AfterFunc(ctx, func() {
		f.mu.Lock()
		f.closed = true
		f.cond.Broadcast()
		f.mu.Unlock()
	})
	defer stop()
	var wg sync.WaitGroup
	for range jobs {
		wg.Add(1)
		go func() {
			defer wg.Done()
			f.work(ctx)
		}()
	}
	wg.Wait()
	return ctx.Err()
}

// work runs tasks until none is left. The lock is held only inside take
// and done: a visit runs without it, so a visit that panics crashes with
// its own panic, not with an unlock of an unlocked mutex on the way out
// (which the runtime reports as a fatal error, and which can hang the
// process).
func (f *Frontier) work(ctx context.Context) {
	for {
		t, h, wait, ok := f.take()
		if !ok {
			return
		}
		if wait > 0 {
			timer := time.NewTimer(wait)
			select {
			case <-timer.C:
			case <-ctx.Done():
				timer.Stop()
			}
		}
		if ctx.Err() == nil {
			f.Visit(ctx, t)
		}
		f.done(h)
	}
}

// take waits for a ready task and returns it, its host's queue and how
// long to wait before visiting it (the host's Delay); ok is false when none
// is left or the run is closed.
func (f *Frontier) take() (t Task, h *hostQueue, wait time.Duration, ok bool) {
	f.mu.Lock()
	defer f.mu.Unlock()
	for len(f.ready) == 0 && f.pending > 0 && !f.closed {
		f.cond.Wait()
	}
	if f.closed || f.pending == 0 {
		f.cond.Broadcast()
		return Task{}, nil, 0, false
	}
	h = f.ready[0]
	f.ready[0] = nil
	f.ready = f.ready[1:]
	h.inReady = false
	q := h.pop()
	// Every task of a host shares the queue's copy of its name.
	t = Task{URL: q.u, Key: rfc1738.Normalize(q.u), Host: h.host, ID: int(q.id), Depth: int(q.depth)}
	h.active++
	if f.Delay > 0 && h.host != "" {
		now := time.Now()
		if h.next.After(now) {
			wait = h.next.Sub(now)
		} else {
			h.next = now
		}
		h.next = h.next.Add(f.Delay)
	}
	f.makeReady(h)
	return t, h, wait, true
}

// done records the end of a visit to a task of h.
func (f *Frontier) done(h *hostQueue) {
	f.mu.Lock()
	defer f.mu.Unlock()
	h.active--
	f.pending--
	f.makeReady(h)
	if f.pending == 0 {
		f.cond.Broadcast()
	}
}

// HostKey returns the "host:port" that visiting u talks to, lower case,
// with the scheme's default port when the URL has none (§3.1: "the port
// defaults to" the scheme's own); "" when u names no host (file, mailto,
// news: the server of news URLs is configured, §3.6).
func HostKey(u rfc1738.URL) string {
	switch u.Kind() {
	case rfc1738.KindFile, rfc1738.KindMailto, rfc1738.KindNews:
		return ""
	}
	host := u.Host()
	if host == "" {
		return ""
	}
	port, ok := u.Port()
	if !ok {
		def := u.DefaultPort()
		if def == 0 {
			return strings.ToLower(host)
		}
		return strings.ToLower(host) + ":" + itoa(def)
	}
	return strings.ToLower(host) + ":" + strings.TrimLeft(port, "0")
}

func itoa(n int) string {
	var b [20]byte
	i := len(b)
	for {
		i--
		b[i] = byte('0' + n%10)
		if n /= 10; n == 0 {
			return string(b[i:])
		}
	}
}
