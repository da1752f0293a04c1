package rfc1738

import (
	"bytes"
	"fmt"
	"net/url"
	"os"
	"sort"
	"strings"
	"testing"

	"github.com/rfc1738/rfc1738/internal/testserver"
)

// The URL lists of shared/bench/urls: real data used by published URL
// parser benchmarks. They are read from beside the checkout, never copied.
var datasets = []string{"kasztp.txt", "node_files.txt", "isaacs_files.txt"}

func loadDataset(tb testing.TB, name string) []string {
	tb.Helper()
	data, err := os.ReadFile(testserver.SharedFile(tb, "bench/urls/"+name))
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

// BenchmarkParse parses every line of each dataset with Parse and, in the
// same run, with net/url.Parse. One op is the whole dataset; ns/url is the
// figure to compare. "valid" parses only the lines the strict grammar
// accepts, to show the success path allocates nothing.
func BenchmarkParse(b *testing.B) {
	for _, name := range datasets {
		urls := loadDataset(b, name)
		var valid []string
		var bytesTotal int64
		for _, u := range urls {
			bytesTotal += int64(len(u))
			if _, err := Parse(u); err == nil {
				valid = append(valid, u)
			}
		}
		b.Run(name+"/rfc1738", func(b *testing.B) {
			b.ReportAllocs()
			b.SetBytes(bytesTotal)
			for b.Loop() {
				for _, u := range urls {
					Parse(u)
				}
			}
			reportPerURL(b, len(urls))
		})
		b.Run(name+"/rfc1738-valid", func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				for _, u := range valid {
					Parse(u)
				}
			}
			reportPerURL(b, len(valid))
		})
		b.Run(name+"/net-url", func(b *testing.B) {
			b.ReportAllocs()
			b.SetBytes(bytesTotal)
			for b.Loop() {
				for _, u := range urls {
					url.Parse(u)
				}
			}
			reportPerURL(b, len(urls))
		})
	}
}

// BenchmarkCheck measures the collecting parser with warnings.
func BenchmarkCheck(b *testing.B) {
	urls := loadDataset(b, "kasztp.txt")
	b.ReportAllocs()
	for b.Loop() {
		for _, u := range urls {
			Check(u)
		}
	}
	reportPerURL(b, len(urls))
}

// reportPerURL reports the time of one URL, when an op covers n of them.
func reportPerURL(b *testing.B, n int) {
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(n), "ns/url")
}

// TestDatasets runs the strict grammar over the real datasets: Parse and
// Check must agree on every line, every accepted line must round-trip, and
// the acceptance table (go test -run TestDatasets -v) is what the README
// shows.
func TestDatasets(t *testing.T) {
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
