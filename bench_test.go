package rfc1738

import (
	"bytes"
	"fmt"
	"net/url"
	"os"
	"runtime"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/rfc1738/rfc1738/internal/testenv"
)

// The URL lists of shared/bench/urls: real data used by published URL
// parser benchmarks. They are read from beside the checkout, never copied.
var datasets = []string{"kasztp.txt", "node_files.txt", "isaacs_files.txt"}

func loadDataset(tb testing.TB, name string) []string {
	tb.Helper()
	data, err := os.ReadFile(testenv.SharedFile(tb, "bench/urls/"+name))
	if err != nil {
		tb.Fatal(err)
	}
	data = bytes.TrimPrefix(data, []byte("\xef\xbb\xbf")) // kasztp.txt starts with a BOM
	var lines []string
	for _, l := range strings.Split(string(data), "\n") {
		l = strings.TrimSuffix(l, "\r")
		if l != "" {
			lines = append(lines, l)
		}
	}
	return lines
}

// BenchmarkParse runs Parse, Valid and Check over every line of each
// dataset and, in the same run, net/url.Parse, the peer. One op is the
// whole dataset; ns/url is the figure to compare. "Parse-accepted" parses
// only the lines the strict grammar accepts, to show that the success path
// allocates nothing (and Parse allocates nothing on the others either).
func BenchmarkParse(b *testing.B) {
	for _, name := range datasets {
		urls := loadDataset(b, name)
		var accepted []string
		var bytesTotal int64
		for _, u := range urls {
			bytesTotal += int64(len(u))
			if _, err := Parse(u); err == nil {
				accepted = append(accepted, u)
			}
		}
		run := func(what string, lines []string, f func(string)) {
			b.Run(name+"/"+what, func(b *testing.B) {
				b.ReportAllocs()
				if len(lines) == len(urls) {
					b.SetBytes(bytesTotal)
				}
				for b.Loop() {
					for _, u := range lines {
						f(u)
					}
				}
				reportPerURL(b, len(lines))
			})
		}
		run("net-url", urls, func(u string) { url.Parse(u) })
		run("Parse", urls, func(u string) { Parse(u) })
		run("Valid", urls, func(u string) { Valid(u) })
		run("Check", urls, func(u string) { Check(u) })
		run("Parse-accepted", accepted, func(u string) { Parse(u) })
	}
}

// reportPerURL reports the time of one URL, when an op covers n of them.
func reportPerURL(b *testing.B, n int) {
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(n), "ns/url")
}

// TestDatasets runs the strict grammar over the real datasets: Parse and
// Check must agree on every line, every accepted line must round-trip, and
// the acceptance table (go test -run TestDatasets -v) is what the README
// shows.
func TestDatasets(t *testing.T) { bothReadings(t, testDatasets) }

func testDatasets(t *testing.T) {
	for _, name := range datasets {
		urls := loadDataset(t, name)
		accepted := 0
		reasons := map[string]int{}
		for _, in := range urls {
			checkAgrees(t, in)
			u, err := Parse(in)
			if err == nil {
				accepted++
				if u.String() != in {
					t.Fatalf("%s: String() differs for %q", name, in)
				}
				continue
			}
			reasons[reason(in, err.(*Error))]++
		}
		type kv struct {
			k string
			n int
		}
		var top []kv
		for k, n := range reasons {
			top = append(top, kv{k, n})
		}
		sort.Slice(top, func(i, j int) bool { return top[i].n > top[j].n || top[i].n == top[j].n && top[i].k < top[j].k })
		if len(top) > 6 {
			top = top[:6]
		}
		var b strings.Builder
		for _, r := range top {
			fmt.Fprintf(&b, "%s ×%d; ", r.k, r.n)
		}
		t.Logf("%s: %d lines, %d accepted (%.1f%%), rejected %d: %s", name, len(urls), accepted,
			100*float64(accepted)/float64(len(urls)), len(urls)-accepted, b.String())
		if accepted == 0 {
			t.Errorf("%s: the strict grammar accepted nothing; the datasets hold plain valid URLs", name)
		}
	}
}

// reason names why a line was rejected: the rule and the byte it met.
func reason(in string, e *Error) string {
	r := e.Rule
	if e.Offset < len(in) {
		c := in[e.Offset]
		switch {
		case c == ' ':
			r += " (space)"
		case c < ' ' || c >= 0x7f:
			r += " (8-bit or control)"
		default:
			r += fmt.Sprintf(" %q", c)
		}
	} else {
		r += " (end)"
	}
	if strings.HasPrefix(in, "https:") && (e.Rule == "toplabel" || e.Rule == "domainlabel" || e.Rule == "hostnumber" || e.Rule == "port") {
		r = "https host: " + r
	}
	return r
}

// BenchmarkRatio measures Parse, Valid and Check against net/url.Parse in
// interleaved slices of each dataset (1,024 lines of one, then the same
// lines of the next), timed by the CPU clock of the thread, so that neither
// a change in the machine's load between two benchmarks nor the time spent
// waiting for a core can tilt the comparison. It reports the time of each
// as a fraction of net/url's ("Parse/net-url" 0.30: Parse takes 30% of the
// time net/url.Parse takes on the same lines) and the CPU ns per URL.
// (net/url's garbage is partly collected on other threads, which is not
// counted: the comparison is, if anything, kind to net/url.)
func BenchmarkRatio(b *testing.B) {
	for _, name := range datasets {
		urls := loadDataset(b, name)
		b.Run(name, func(b *testing.B) {
			runtime.LockOSThread()
			defer runtime.UnlockOSThread()
			var peer, parse, valid, check time.Duration
			timed := func(lines []string, f func(string)) time.Duration {
				t := testenv.ThreadCPU()
				for _, u := range lines {
					f(u)
				}
				return testenv.ThreadCPU() - t
			}
			for b.Loop() {
				for i := 0; i < len(urls); i += 1024 {
					lines := urls[i:min(i+1024, len(urls))]
					peer += timed(lines, func(u string) { url.Parse(u) })
					parse += timed(lines, func(u string) { Parse(u) })
					valid += timed(lines, func(u string) { Valid(u) })
					check += timed(lines, func(u string) { Check(u) })
				}
			}
			n := float64(b.N) * float64(len(urls))
			b.ReportMetric(float64(peer.Nanoseconds())/n, "net-url-ns/url")
			b.ReportMetric(float64(parse.Nanoseconds())/n, "Parse-ns/url")
			b.ReportMetric(float64(valid.Nanoseconds())/n, "Valid-ns/url")
			b.ReportMetric(float64(check.Nanoseconds())/n, "Check-ns/url")
			b.ReportMetric(float64(parse)/float64(peer), "Parse/net-url")
			b.ReportMetric(float64(valid)/float64(peer), "Valid/net-url")
			b.ReportMetric(float64(check)/float64(peer), "Check/net-url")
		})
	}
}
