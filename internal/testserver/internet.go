package testserver

import (
	"bufio"
	"fmt"
	"net"
	"net/http"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

// An Internet is a set of servers on distinct loopback addresses
// (127.0.1.1, 127.0.1.2, …): Linux routes all of 127.0.0.0/8 to the
// loopback interface, so each address is a host of its own with no
// setup, written into URLs as an IP literal. Each server has its own
// behaviour, and every request is logged with its host and times, so a
// test can prove what a crawler of many hosts did to each: how many
// requests at once, how close together.
type Internet struct {
	t testing.TB

	mu   sync.Mutex
	hits []Hit
	open map[string]int // requests being served, by host
	peak map[string]int
}

// A Hit is one request a host of an Internet served.
type Hit struct {
	Host       string // "ip:port"
	Request    string // "GET /path", a gopher selector, an ftp command
	Start, End time.Time
}

// internetHosts numbers the addresses of every Internet of the process,
// so that two at once never share one.
var internetHosts atomic.Int32

// NewInternet makes an empty Internet; the test's cleanup stops its
// servers.
func NewInternet(t testing.TB) *Internet {
	return &Internet{t: t, open: map[string]int{}, peak: map[string]int{}}
}

// NextIP is a loopback address no server of the process has had, from
// 127.0.1.1 on (the 254 of 127.0.1.x, then 127.0.2.x, …).
func NextIP() string {
	n := int(internetHosts.Add(1)) - 1
	return fmt.Sprintf("127.%d.%d.%d", n/(254*256)%256, 1+n/254%256, 1+n%254)
}

// begin logs the start of a request; the func it returns logs its end.
func (n *Internet) begin(host, req string) func() {
	n.mu.Lock()
	i := len(n.hits)
	n.hits = append(n.hits, Hit{Host: host, Request: req, Start: time.Now()})
	n.open[host]++
	n.peak[host] = max(n.peak[host], n.open[host])
	n.mu.Unlock()
	return func() {
		n.mu.Lock()
		n.hits[i].End = time.Now()
		n.open[host]--
		n.mu.Unlock()
	}
}

// HTTP starts an http server with handler h on a host of its own and
// returns its "ip:port".
func (n *Internet) HTTP(h http.HandlerFunc) string {
	n.t.Helper()
	ln, err := net.Listen("tcp", net.JoinHostPort(NextIP(), "0"))
	if err != nil {
		n.t.Fatalf("internet: %v", err)
	}
	host := ln.Addr().String()
	srv := &http.Server{Handler: http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		defer n.begin(host, r.Method+" "+r.URL.RequestURI())()
		h(w, r)
	}), ReadHeaderTimeout: 10 * time.Second}
	go srv.Serve(ln)
	n.t.Cleanup(func() { srv.Close() })
	return host
}

// Closed returns the "ip:port" of a host whose port refuses every
// connection: a listener opened on a host of its own, then closed.
func (n *Internet) Closed() string {
	n.t.Helper()
	ln, err := net.Listen("tcp", net.JoinHostPort(NextIP(), "0"))
	if err != nil {
		n.t.Fatalf("internet: %v", err)
	}
	host := ln.Addr().String()
	ln.Close()
	return host
}

// Gopher starts a gopher server (RFC 1436) on a host of its own that
// answers each selector with reply(selector), and returns its "ip:port".
func (n *Internet) Gopher(reply func(selector string) string) string {
	n.t.Helper()
	l := listenOn(n.t, "internet gopher", NextIP())
	host := l.addr()
	l.serve(func(c net.Conn) {
		c.SetDeadline(time.Now().Add(10 * time.Second))
		line, err := bufio.NewReader(c).ReadString('\n')
		if err != nil {
			return
		}
		sel := strings.TrimRight(line, "\r\n")
		defer n.begin(host, sel)()
		fmt.Fprint(c, reply(sel))
	})
	n.t.Cleanup(l.Close)
	return host
}

// FTP starts an FTPFake over files on a host of its own and returns its
// "ip:port"; each command line is a hit.
func (n *Internet) FTP(files map[string]string) string {
	n.t.Helper()
	var host string
	f := NewFTPFake(n.t, FTPFakeOptions{IP: NextIP(), Files: files, Handle: func(s *FTPSession, line string) bool {
		n.begin(host, line)()
		return false
	}})
	host = f.Addr
	return host
}

// Hits returns the requests host served, in the order they came.
func (n *Internet) Hits(host string) []Hit {
	n.mu.Lock()
	defer n.mu.Unlock()
	var out []Hit
	for _, h := range n.hits {
		if h.Host == host {
			out = append(out, h)
		}
	}
	return out
}

// AllHits returns every request of every host, in the order they came.
func (n *Internet) AllHits() []Hit {
	n.mu.Lock()
	defer n.mu.Unlock()
	return slices.Clone(n.hits)
}

// Peak is the most requests host served at once.
func (n *Internet) Peak(host string) int {
	n.mu.Lock()
	defer n.mu.Unlock()
	return n.peak[host]
}

// MinGap is the least time between the starts of two requests host
// served, and the two; 0 and nil with fewer than two.
func (n *Internet) MinGap(host string) (time.Duration, []Hit) {
	hits := n.Hits(host)
	var least time.Duration
	var pair []Hit
	for i := 1; i < len(hits); i++ {
		if d := hits[i].Start.Sub(hits[i-1].Start); pair == nil || d < least {
			least, pair = d, hits[i-1:i+1]
		}
	}
	return least, pair
}

// CheckSpacing reports whether the requests host served started at
// least delay apart, as well as the server can tell: a request is seen
// when its handler starts, later than it was sent by its connection's
// setup (the first request of a host) or a loaded machine's scheduling,
// which shortens the gap after it. So each gap must be at least half of
// delay, and the gaps on average three quarters of it: a client that
// ignores the delay, or halves it, fails. It returns what fell short,
// or "".
func (n *Internet) CheckSpacing(host string, delay time.Duration) string {
	hits := n.Hits(host)
	if len(hits) < 2 {
		return ""
	}
	if gap, pair := n.MinGap(host); gap < delay/2 {
		return fmt.Sprintf("%v between %s and %s", gap, pair[0].Request, pair[1].Request)
	}
	mean := hits[len(hits)-1].Start.Sub(hits[0].Start) / time.Duration(len(hits)-1)
	if mean < delay*3/4 {
		return fmt.Sprintf("%v apart on average over %d requests", mean, len(hits))
	}
	return ""
}
