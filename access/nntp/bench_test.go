package nntp

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"net/textproto"
	"runtime"
	"runtime/metrics"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/rfc1738/rfc1738/internal/testserver"
)

// bigGroup is a fake server holding big.group with n articles. Its replies
// are rendered once, up front, so the fake's own allocations stay out of
// the client's figures (it still allocates one string per command line it
// reads).
func bigGroup(b *testing.B, n int) *testserver.NNTPFake {
	b.Helper()
	over := testserver.BigGroupOverview(n)
	overCmd := "OVER 1-" + strconv.Itoa(n)
	groupReply := fmt.Sprintf("211 %d 1 %d big.group\r\n", n, n)
	var art []byte
	return testserver.NNTPFakeFunc(b, "200 fake ready", func(cmd string, w *bufio.Writer) bool {
		switch {
		case cmd == "GROUP big.group":
			w.WriteString(groupReply)
		case cmd == overCmd:
			w.Write(over)
		case strings.HasPrefix(cmd, "ARTICLE "):
			k, err := strconv.Atoi(cmd[len("ARTICLE "):])
			if err != nil || k < 1 || k > n {
				w.WriteString("423 No such article number\r\n")
				return true
			}
			art = art[:0]
			art = fmt.Appendf(art, "220 %d <%d.big@example.com>\r\n", k, k)
			art = fmt.Appendf(art, "Path: fake!not-for-mail\r\nFrom: Poster %d <p%d@example.com>\r\nNewsgroups: big.group\r\nSubject: Subject of article %d in a group that is big\r\nDate: Sat, 21 Nov 2026 04:%02d:00 +0000\r\nMessage-ID: <%d.big@example.com>\r\nReferences: <%d.big@example.com>\r\n\r\n",
				k%97, k%97, k, k%60, k, max(1, k-1))
			for l := 0; l < 10+k%40; l++ {
				art = append(art, "A body line of an article of the big group, long enough to count.\r\n"...)
			}
			art = append(art, ".\r\n"...)
			w.Write(art)
		case cmd == "QUIT":
			w.WriteString("205 bye\r\n")
			return false
		default:
			w.WriteString("500 What?\r\n")
		}
		return true
	})
}

// heapSampler records the largest heap-objects figure (live plus not yet
// swept) seen while it runs, sampled every millisecond.
type heapSampler struct {
	peak atomic.Uint64
	stop chan struct{}
	wg   sync.WaitGroup
}

func heapObjects() uint64 {
	s := []metrics.Sample{{Name: "/memory/classes/heap/objects:bytes"}}
	metrics.Read(s)
	return s[0].Value.Uint64()
}

func startHeapSampler() *heapSampler {
	h := &heapSampler{stop: make(chan struct{})}
	h.wg.Add(1)
	go func() {
		defer h.wg.Done()
		t := time.NewTicker(time.Millisecond)
		defer t.Stop()
		for {
			if v := heapObjects(); v > h.peak.Load() {
				h.peak.Store(v)
			}
			select {
			case <-h.stop:
				return
			case <-t.C:
			}
		}
	}()
	return h
}

func (h *heapSampler) Stop() uint64 {
	close(h.stop)
	h.wg.Wait()
	return h.peak.Load()
}

// liveHeap is the heap that survives a collection.
func liveHeap() uint64 {
	runtime.GC()
	var m runtime.MemStats
	runtime.ReadMemStats(&m)
	return m.HeapAlloc
}

// listFunc lists big.group over c; mid is called once, halfway through,
// with the data the lister holds at that point still reachable.
type listFunc func(ctx context.Context, c *Conn, n int, mid func()) (int, error)

// listOver is the streaming form: GROUP, then OVER in one exchange, each
// line handled and dropped.
func listOver(ctx context.Context, c *Conn, n int, mid func()) (int, error) {
	g, err := c.Group(ctx, "big.group")
	if err != nil {
		return 0, err
	}
	count, bytes := 0, int64(0)
	for ov, err := range c.Over(ctx, Range{g.Low, g.High}) {
		if err != nil {
			return 0, err
		}
		count++
		bytes += ov.Bytes
		if count == n/2 {
			mid()
		}
	}
	return count, nil
}

// listOverCollect keeps every line, as a client returning a slice would:
// memory grows with the group.
func listOverCollect(ctx context.Context, c *Conn, n int, mid func()) (int, error) {
	g, err := c.Group(ctx, "big.group")
	if err != nil {
		return 0, err
	}
	var all []OverviewLine
	for ov, err := range c.Over(ctx, Range{g.Low, g.High}) {
		if err != nil {
			return 0, err
		}
		all = append(all, ov)
		if len(all) == n/2 {
			mid()
		}
	}
	runtime.KeepAlive(all)
	return len(all), nil
}

// listArticles is the per-item form: GROUP, then ARTICLE n for each
// article, reading the headers and discarding the body (Close drains).
func listArticles(ctx context.Context, c *Conn, n int, mid func()) (int, error) {
	g, err := c.Group(ctx, "big.group")
	if err != nil {
		return 0, err
	}
	count := 0
	br := bufio.NewReader(nil)
	tp := textproto.NewReader(br)
	for k := g.Low; k <= g.High; k++ {
		a, err := c.Article(ctx, k)
		if err != nil {
			return 0, err
		}
		br.Reset(a)
		h, err := tp.ReadMIMEHeader()
		if err != nil {
			return 0, err
		}
		if h.Get("Subject") == "" {
			return 0, fmt.Errorf("article %d: no Subject", k)
		}
		if err := a.Close(); err != nil {
			return 0, err
		}
		count++
		if count == n/2 {
			mid()
		}
	}
	return count, nil
}

// BenchmarkListGroup lists a group of 10,000 articles (and 1,000, to show
// that the streaming form's memory does not follow the group's size) in
// one OVER exchange and with one ARTICLE per item. Besides ns/op, B/op and
// allocs/op it reports:
//
//   - live-mid-B: heap still reachable halfway through the listing, over
//     the heap before it (measured once, outside the timer);
//   - peak-heap-B: the largest heap (live and garbage not yet collected)
//     seen during the timed loop, over the heap before it.
func BenchmarkListGroup(b *testing.B) {
	for _, bc := range []struct {
		name string
		n    int
		list listFunc
	}{
		{"OVER-stream/1000", 1000, listOver},
		{"OVER-stream/10000", 10000, listOver},
		{"OVER-collect/10000", 10000, listOverCollect},
		{"ARTICLE-per-item/10000", 10000, listArticles},
	} {
		b.Run(bc.name, func(b *testing.B) {
			fake := bigGroup(b, bc.n)
			ctx, cancel := context.WithTimeout(context.Background(), 10*time.Minute)
			defer cancel()
			c, err := Dial(ctx, fake.Addr, Config{})
			if err != nil {
				b.Fatal(err)
			}
			defer c.Close()

			// One untimed run to measure what is held mid-listing.
			base := liveHeap()
			var mid uint64
			if _, err := bc.list(ctx, c, bc.n, func() { mid = liveHeap() }); err != nil {
				b.Fatal(err)
			}
			base = min(base, liveHeap())

			b.ReportAllocs()
			sampler := startHeapSampler()
			b.ResetTimer()
			for b.Loop() {
				got, err := bc.list(ctx, c, bc.n, func() {})
				if err != nil {
					b.Fatal(err)
				}
				if got != bc.n {
					b.Fatalf("listed %d articles, want %d", got, bc.n)
				}
			}
			b.StopTimer()
			peak := sampler.Stop()
			b.ReportMetric(float64(sub(mid, base)), "live-mid-B")
			b.ReportMetric(float64(sub(peak, base)), "peak-heap-B")
			b.ReportMetric(float64(bc.n), "articles")
		})
	}
}

func sub(a, b uint64) uint64 {
	if a < b {
		return 0
	}
	return a - b
}

var _ io.Reader = (*Article)(nil)
