package access

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"runtime"
	"strconv"
	"testing"

	"github.com/rfc1738/rfc1738"
	"github.com/rfc1738/rfc1738/internal/testserver"
)

// newsBigGroup is a fake server holding big.group with n articles, its
// OVER reply rendered once, up front.
func newsBigGroup(b *testing.B, n int) *testserver.NNTPFake {
	b.Helper()
	over := testserver.BigGroupOverview(n)
	overCmd := "OVER 1-" + strconv.Itoa(n)
	groupReply := fmt.Sprintf("211 %d 1 %d big.group\r\n", n, n)
	return testserver.NNTPFakeFunc(b, "200 fake ready", func(cmd string, w *bufio.Writer) bool {
		switch cmd {
		case "GROUP big.group":
			w.WriteString(groupReply)
		case overCmd:
			w.Write(over)
		case "QUIT":
			w.WriteString("205 bye\r\n")
			return false
		default:
			w.WriteString("500 What?\r\n")
		}
		return true
	})
}

// BenchmarkNewsGroupListing measures what the handler adds to the
// client's OVER stream (access/nntp BenchmarkListGroup): rendering a
// group of n articles as text, JSON Lines or raw lines, through Get and
// the streamed body, as "rfc1738 get news:big.group" does. Besides
// ns/op, B/op and allocs/op it reports ns/article and live-heap-KB, the
// heap that survives a collection halfway through the body beyond what
// was live before Get (the fake's rendered reply): it stays the size of a
// page and the connection's buffers whatever the size of the group.
func BenchmarkNewsGroupListing(b *testing.B) {
	for _, n := range []int{1000, 10000} {
		for _, l := range []struct {
			name string
			l    Listing
		}{{"text", ListingText}, {"json", ListingJSON}, {"raw", ListingRaw}} {
			b.Run(fmt.Sprintf("%s/%d", l.name, n), func(b *testing.B) {
				f := newsBigGroup(b, n)
				c := NewClient()
				setNews(c, func(n *News) { n.Server = f.Addr })
				c.Listing = l.l
				u, err := rfc1738.Parse("news:big.group")
				if err != nil {
					b.Fatal(err)
				}
				ctx := context.Background()
				buf := make([]byte, 32<<10)
				// fetch gets the listing; with sample > 0 it records the
				// live heap once sample bytes of the body have been read.
				var live, base uint64
				fetch := func(sample int64) int64 {
					resp, err := c.Get(ctx, u)
					if err != nil {
						b.Fatal(err)
					}
					var total int64
					for {
						k, err := resp.Body.Read(buf)
						total += int64(k)
						if sample > 0 && total > sample && live == 0 {
							b.StopTimer()
							live = liveHeap() - base
							b.StartTimer()
						}
						if err == io.EOF {
							break
						}
						if err != nil {
							b.Fatal(err)
						}
					}
					if err := resp.Body.Close(); err != nil {
						b.Fatal(err)
					}
					return total
				}
				size := fetch(0)
				base = liveHeap() // the fake's own reply included
				b.SetBytes(size)
				b.ReportAllocs()
				b.ResetTimer()
				for i := 0; i < b.N; i++ {
					if i == 0 {
						fetch(size / 2)
					} else {
						fetch(0)
					}
				}
				b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(n), "ns/article")
				b.ReportMetric(float64(live)/1024, "live-heap-KB")
			})
		}
	}
}

// liveHeap is the heap that survives a collection.
func liveHeap() uint64 {
	runtime.GC()
	var m runtime.MemStats
	runtime.ReadMemStats(&m)
	return m.HeapAlloc
}
