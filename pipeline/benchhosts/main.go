// Command benchhosts is the simulated internet of pipeline/bench-check.sh:
// one http server on each of N loopback addresses (127.0.1.1, …: Linux
// routes all of 127.0.0.0/8 to the loopback interface), all on one port.
// Each answers 200 to any page and 404 to robots.txt, and logs nothing
// but, on SIGINT or SIGTERM, its totals: the requests the hosts served,
// the most at once at one host, the least time between the starts of two
// at one host, and how many such gaps were shorter than -short, as the
// server sees them: on a busy machine a handler may start late, which
// makes the gap after it short and the one before it long.
//
//	benchhosts -hosts 100 -port 18080
package main

import (
	"flag"
	"fmt"
	"net"
	"net/http"
	"os"
	"os/signal"
	"sync"
	"syscall"
	"time"
)

type host struct {
	mu       sync.Mutex
	requests int
	open     int
	peak     int
	last     time.Time
	minGap   time.Duration
	short    int // gaps under -short
}

// shortGap is the gap below which two requests are counted as too close.
var shortGap time.Duration

func (h *host) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	now := time.Now()
	h.mu.Lock()
	h.requests++
	h.open++
	h.peak = max(h.peak, h.open)
	if gap := now.Sub(h.last); !h.last.IsZero() {
		if h.minGap == 0 || gap < h.minGap {
			h.minGap = gap
		}
		if gap < shortGap {
			h.short++
		}

	}
	h.last = now
	h.mu.Unlock()
	if r.URL.Path == "/robots.txt" {
		http.NotFound(w, r)
	}
	h.mu.Lock()
	h.open--
	h.mu.Unlock()
}

func main() {
	n := flag.Int("hosts", 100, "hosts, from 127.0.1.1")
	port := flag.Int("port", 18080, "the port of every host")
	flag.DurationVar(&shortGap, "short", 0, "count the gaps at one host shorter than this")
	flag.Parse()
	hosts := make([]*host, *n)
	for i := range hosts {
		hosts[i] = &host{}
		addr := fmt.Sprintf("127.%d.%d.%d:%d", i/(254*256)%256, 1+i/254%256, 1+i%254, *port)
		ln, err := net.Listen("tcp", addr)
		if err != nil {
			fmt.Fprintln(os.Stderr, "benchhosts:", err)
			os.Exit(1)
		}
		go http.Serve(ln, hosts[i])
	}
	fmt.Println("ready")
	sig := make(chan os.Signal, 1)
	signal.Notify(sig, syscall.SIGINT, syscall.SIGTERM)
	<-sig
	total, peak, short := 0, 0, 0
	var least time.Duration
	for _, h := range hosts {
		h.mu.Lock()
		total += h.requests
		peak = max(peak, h.peak)
		short += h.short
		if h.minGap > 0 && (least == 0 || h.minGap < least) {
			least = h.minGap
		}
		h.mu.Unlock()
	}
	fmt.Printf("requests %d, most at once at one host %d, least gap at one host %v, gaps under %v: %d\n", total, peak, least, shortGap, short)
}
