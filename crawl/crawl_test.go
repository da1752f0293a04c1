package crawl_test

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/rfc1738/rfc1738"
	"github.com/rfc1738/rfc1738/crawl"
)

func mustParse(t testing.TB, s string) rfc1738.URL {
	t.Helper()
	u, err := rfc1738.Parse(s)
	if err != nil {
		t.Fatal(err)
	}
	return u
}

// §2.2: equivalent spellings are one task.
func TestAddDedup(t *testing.T) {
	var f crawl.Frontier
	tests := []struct {
		url   string
		id    int
		added bool
	}{
		{"ftp://host.dom/hello", 0, true},
		{"ftp://host.dom/%68ello", 0, false},   // §2.2: an unreserved octet encoded
		{"FTP://HOST.dom:21/hello", 0, false},  // scheme and host case, default port
		{"ftp://host.dom/%2Fhello", 1, true},   // a reserved octet keeps its meaning
		{"http://host.dom/hello", 2, true},     // another scheme
		{"http://host.dom:80/hello", 2, false}, // §3.3 default port
		{"http://host.dom/hello?x", 3, true},   // a search is part of the URL
		{"gopher://host.dom/", 4, true},        // §3.4
		{"gopher://host.dom/1", 4, false},      // the default type 1 with an empty selector
		{"mailto:me@host.dom", 5, true},        // §3.5
		{"ftp://host.dom/hello#frag", 6, true}, // a fragment is not normalized away
	}
	for _, tt := range tests {
		id, added := f.Add(mustParse(t, tt.url), 0)
		if id != tt.id || added != tt.added {
			t.Errorf("Add(%s) = %d, %v; want %d, %v", tt.url, id, added, tt.id, tt.added)
		}
	}
	if f.Len() != 7 {
		t.Errorf("Len = %d, want 7", f.Len())
	}
}

func TestHostKey(t *testing.T) {
	tests := []struct{ url, want string }{
		{"ftp://Host.Dom/x", "host.dom:21"},
		{"ftp://host.dom:0021/x", "host.dom:21"},
		{"http://h/", "h:80"},
		{"gopher://h:7070/", "h:7070"},
		{"wais://h/db", "h:210"},
		{"telnet://h/", "h:23"},
		{"nntp://h/g/1", "h:119"},
		{"news:comp.x", ""},
		{"mailto:a@b", ""},
		{"file:///etc/motd", ""},
	}
	for _, tt := range tests {
		if got := crawl.HostKey(mustParse(t, tt.url)); got != tt.want {
			t.Errorf("HostKey(%s) = %q, want %q", tt.url, got, tt.want)
		}
	}
}

// No host sees more than PerHost visits at once, and all Jobs are used.
func TestLimits(t *testing.T) {
	f := crawl.Frontier{Jobs: 6, PerHost: 2}
	var mu sync.Mutex
	active := map[string]int{}
	maxHost := map[string]int{}
	var total, maxTotal, visits int32
	f.Visit = func(ctx context.Context, task crawl.Task) {
		mu.Lock()
		active[task.Host]++
		maxHost[task.Host] = max(maxHost[task.Host], active[task.Host])
		mu.Unlock()
		n := atomic.AddInt32(&total, 1)
		for {
			m := atomic.LoadInt32(&maxTotal)
			if n <= m || atomic.CompareAndSwapInt32(&maxTotal, m, n) {
				break
			}
		}
		time.Sleep(5 * time.Millisecond)
		atomic.AddInt32(&total, -1)
		atomic.AddInt32(&visits, 1)
		mu.Lock()
		active[task.Host]--
		mu.Unlock()
	}
	for h := range 4 {
		for i := range 10 {
			f.Add(mustParse(t, fmt.Sprintf("ftp://h%d.dom/f%d", h, i)), 0)
		}
	}
	if err := f.Run(context.Background()); err != nil {
		t.Fatal(err)
	}
	if visits != 40 {
		t.Errorf("%d visits, want 40", visits)
	}
	for h, m := range maxHost {
		if m > 2 {
			t.Errorf("host %s had %d visits at once, PerHost is 2", h, m)
		}
	}
	if maxTotal > 6 || maxTotal < 4 {
		t.Errorf("%d visits at once; Jobs is 6 and 4 hosts allow 8", maxTotal)
	}
}

// A visit may add what it finds; each URL is visited once, at its depth.
func TestRecursiveAdd(t *testing.T) {
	var f crawl.Frontier
	var mu sync.Mutex
	depth := map[string]int{}
	f.Visit = func(ctx context.Context, task crawl.Task) {
		mu.Lock()
		if _, dup := depth[task.Key]; dup {
			t.Errorf("%s visited twice", task.Key)
		}
		depth[task.Key] = task.Depth
		mu.Unlock()
		if task.Depth < 3 {
			for i := range 3 {
				f.Add(mustParse(t, fmt.Sprintf("gopher://h/1/%d", (task.ID*3+i)%7)), task.Depth+1)
			}
		}
	}
	f.Add(mustParse(t, "gopher://h/1/0"), 0)
	if err := f.Run(context.Background()); err != nil {
		t.Fatal(err)
	}
	if len(depth) != 7 {
		t.Errorf("%d URLs visited, want 7: %v", len(depth), depth)
	}
}

// Cancelled, Run returns without visiting what is queued.
func TestCancel(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	f := crawl.Frontier{Jobs: 1}
	var visits int32
	f.Visit = func(ctx context.Context, task crawl.Task) {
		if atomic.AddInt32(&visits, 1) == 3 {
			cancel()
		}
	}
	for i := range 100 {
		f.Add(mustParse(t, fmt.Sprintf("http://h/%d", i)), 0)
	}
	done := make(chan error)
	go func() { done <- f.Run(ctx) }()
	select {
	case err := <-done:
		if err != context.Canceled {
			t.Errorf("Run = %v, want context.Canceled", err)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("Run did not return after cancel")
	}
	if visits != 3 {
		t.Errorf("%d visits after cancel at the third", visits)
	}
}

// Delay spaces the visits of one host.
func TestDelay(t *testing.T) {
	f := crawl.Frontier{Jobs: 4, PerHost: 4, Delay: 20 * time.Millisecond}
	var mu sync.Mutex
	var starts []time.Time
	f.Visit = func(ctx context.Context, task crawl.Task) {
		mu.Lock()
		starts = append(starts, time.Now())
		mu.Unlock()
	}
	for i := range 4 {
		f.Add(mustParse(t, fmt.Sprintf("http://h/%d", i)), 0)
	}
	f.Run(context.Background())
	if len(starts) != 4 {
		t.Fatalf("%d visits", len(starts))
	}
	if d := starts[len(starts)-1].Sub(starts[0]); d < 55*time.Millisecond {
		t.Errorf("4 visits of one host within %v; Delay 20ms asks at least 60ms", d)
	}
}

// TestVisitPanics: a visit that panics crashes the program with its own
// panic, at once; not with "unlock of unlocked mutex", a fatal error the
// runtime raises when a deferred unlock runs on the way out, and after
// which the process can hang. The crash runs in a child process, this
// test binary run again.
func TestVisitPanics(t *testing.T) {
	if os.Getenv("CRAWL_TEST_PANIC") == "1" {
		f := crawl.Frontier{Jobs: 2}
		f.Visit = func(context.Context, crawl.Task) { panic("the visit's own panic") }
		f.Add(mustParse(t, "http://h/a"), 0)
		f.Add(mustParse(t, "http://h/b"), 0)
		f.Run(context.Background())
		return
	}
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, os.Args[0], "-test.run=^TestVisitPanics$")
	cmd.Env = append(os.Environ(), "CRAWL_TEST_PANIC=1")
	out, err := cmd.CombinedOutput()
	if ctx.Err() != nil {
		t.Fatalf("the child did not end in 20 s:\n%s", out)
	}
	if err == nil || !strings.Contains(string(out), "panic: the visit's own panic") ||
		strings.Contains(string(out), "unlock of unlocked mutex") {
		t.Errorf("child: %v\n%s", err, out)
	}
}
