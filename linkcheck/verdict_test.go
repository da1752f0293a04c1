package linkcheck

import (
	"context"
	"encoding/json"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/rfc1738/rfc1738/access"
)

func loopbackChecker(t *testing.T) *Checker {
	t.Helper()
	c := access.NewClient()
	c.AllowAnyPort = true // the test servers listen on free ports
	k := &Checker{Client: c}
	t.Cleanup(func() { k.Close() })
	return k
}

// TestRetryBackoff: a transient failure (http 503) is tried again
// Retries times, waiting Backoff and then twice as long each time
// (DefaultBackoff when Backoff is zero); the detail counts the attempts.
// A failure that is not transient (404) is tried once.
func TestRetryBackoff(t *testing.T) {
	var asked atomic.Int32
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		asked.Add(1)
		if r.URL.Path == "/busy" {
			w.WriteHeader(http.StatusServiceUnavailable)
			return
		}
		w.WriteHeader(http.StatusNotFound)
	}))
	defer srv.Close()
	for _, tt := range []struct {
		path      string
		retries   int
		backoff   time.Duration
		asked     int32
		least     time.Duration
		detail    string
		noAttempt bool
	}{
		{"/busy", 2, 40 * time.Millisecond, 3, 120 * time.Millisecond, "503 Service Unavailable (after 3 attempts)", false},
		{"/busy", 1, 0, 2, DefaultBackoff, "503 Service Unavailable (after 2 attempts)", false},
		{"/busy", 0, time.Millisecond, 1, 0, "503 Service Unavailable", true},
		{"/gone", 3, time.Millisecond, 1, 0, "404 Not Found", true},
	} {
		k := loopbackChecker(t)
		k.Retries, k.Backoff = tt.retries, tt.backoff
		asked.Store(0)
		// A retry loop that does not stop at Retries ends at this
		// deadline, with too many attempts, instead of hanging the test.
		ctx, cancel := context.WithTimeout(context.Background(), 3*time.Second)
		start := time.Now()
		st, detail := k.Check(ctx, srv.URL+tt.path)
		took := time.Since(start)
		cancel()
		if st != Broken || detail != tt.detail {
			t.Errorf("%s, %d retries: %s, %q; want broken, %q", tt.path, tt.retries, st, detail, tt.detail)
		}
		if n := asked.Load(); n != tt.asked {
			t.Errorf("%s, %d retries: asked %d times, want %d", tt.path, tt.retries, n, tt.asked)
		}
		if took < tt.least || tt.least == 0 && took > DefaultBackoff {
			t.Errorf("%s, %d retries, backoff %v: took %v, want at least %v", tt.path, tt.retries, tt.backoff, took, tt.least)
		}
	}
}

// TestRetryTimeout: an attempt that runs out of Timeout is broken, and
// transient: tried again, its detail saying so once; a zero Timeout is
// DefaultTimeout, not none.
func TestRetryTimeout(t *testing.T) {
	var asked atomic.Int32
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		asked.Add(1)
		if r.URL.Path == "/stall" {
			select {
			case <-r.Context().Done():
			case <-time.After(5 * time.Second):
			}
			return
		}
		w.Write([]byte("here"))
	}))
	defer srv.Close()
	k := loopbackChecker(t)
	k.Timeout, k.Retries, k.Backoff = 100*time.Millisecond, 1, time.Millisecond
	st, detail := k.Check(context.Background(), srv.URL+"/stall")
	if st != Broken || !strings.HasPrefix(detail, "timeout after 100ms: ") || strings.Count(detail, "timeout after") != 1 ||
		!strings.HasSuffix(detail, "(after 2 attempts)") || asked.Load() != 2 {
		t.Errorf("stall: %s, %q, asked %d times; want broken, timeout after 100ms, 2 attempts", st, detail, asked.Load())
	}
	k = loopbackChecker(t)
	if st, detail := k.Check(context.Background(), srv.URL+"/ok"); st != OK || detail != "200 OK" {
		t.Errorf("zero Timeout: %s, %q; want ok", st, detail)
	}
	// A run cancelled while waiting to retry stops without another try.
	ctx, cancel := context.WithCancel(context.Background())
	k = loopbackChecker(t)
	k.Timeout, k.Retries, k.Backoff = 50*time.Millisecond, 5, time.Hour
	asked.Store(0)
	time.AfterFunc(300*time.Millisecond, cancel)
	start := time.Now()
	if st, _ := k.Check(ctx, srv.URL+"/stall"); st != Broken || asked.Load() != 1 || time.Since(start) > 5*time.Second {
		t.Errorf("cancelled: %s after %v, asked %d times", st, time.Since(start), asked.Load())
	}
}

// TestTelnetAccept: §3.8: a telnet URL is ok when its TCP connection is
// accepted, broken when refused (a gopher telnet item too, RFC 1436).
func TestTelnetAccept(t *testing.T) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	go func() {
		for {
			c, err := l.Accept()
			if err != nil {
				return
			}
			c.Close()
		}
	}()
	open := l.Addr().String()
	closed, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	shut := closed.Addr().String()
	closed.Close()
	defer l.Close()
	k := loopbackChecker(t)
	for _, tt := range []struct {
		url    string
		status Status
		detail string
	}{
		{"telnet://" + open + "/", OK, "connection accepted"},
		{"gopher://" + open + "/8", OK, "connection accepted"},
		{"telnet://" + shut + "/", Broken, "refused"},
	} {
		if st, detail := k.Check(context.Background(), tt.url); st != tt.status || !strings.Contains(detail, tt.detail) {
			t.Errorf("%s: %s, %q; want %s with %q", tt.url, st, detail, tt.status, tt.detail)
		}
	}
}

// TestCacheAge: a verdict is fresh for MaxAge (a day when zero), to the
// instant; an older one is not answered and is dropped when saved.
func TestCacheAge(t *testing.T) {
	path := filepath.Join(t.TempDir(), "cache")
	now := time.Date(2025, 1, 2, 3, 4, 5, 0, time.UTC)
	for _, tt := range []struct {
		maxAge, age time.Duration
		fresh       bool
	}{
		{0, 24 * time.Hour, true},
		{0, 24*time.Hour + 1, false},
		{time.Hour, time.Hour, true},
		{time.Hour, time.Hour + 1, false},
		{-time.Hour, 24 * time.Hour, true},
	} {
		c, err := OpenCache(path+"-missing", tt.maxAge)
		if err != nil {
			t.Fatal(err)
		}
		c.path = path
		c.now = func() time.Time { return now.Add(-tt.age) }
		c.Store("k", "http://h/", Broken, "404")
		c.now = func() time.Time { return now }
		if e, ok := c.Lookup("k"); ok != tt.fresh || ok && (e.Status != Broken || e.Detail != "404" || e.URL != "http://h/") {
			t.Errorf("max age %v, age %v: Lookup = %+v, %v; want fresh %v", tt.maxAge, tt.age, e, ok, tt.fresh)
		}
		if err := c.Save(); err != nil {
			t.Fatal(err)
		}
		b, _ := os.ReadFile(path)
		if saved := strings.Contains(string(b), `"key":"k"`); saved != tt.fresh {
			t.Errorf("max age %v, age %v: saved %v, want %v (%s)", tt.maxAge, tt.age, saved, tt.fresh, b)
		}
		again, err := OpenCache(path, tt.maxAge)
		if err != nil {
			t.Fatal(err)
		}
		again.now = func() time.Time { return now }
		if _, ok := again.Lookup("k"); ok != tt.fresh {
			t.Errorf("max age %v, age %v: read back fresh %v", tt.maxAge, tt.age, ok)
		}
	}
}

// TestCacheCorrupt: a cache line that is not a verdict is an error
// naming the file and the line.
func TestCacheCorrupt(t *testing.T) {
	path := filepath.Join(t.TempDir(), "cache")
	os.WriteFile(path, []byte(`{"key":"a","result":"ok"}`+"\n"+`{"key":`+"\n"), 0o644)
	if _, err := OpenCache(path, 0); err == nil || !strings.HasPrefix(err.Error(), path+":2: ") {
		t.Errorf("OpenCache = %v, want an error at %s:2", err, path)
	}
}

// TestStatusNames: each verdict reads and writes its name; another value
// is printed as a number and refused as a name.
func TestStatusNames(t *testing.T) {
	for s, name := range map[Status]string{OK: "ok", Broken: "broken", Invalid: "invalid", Skipped: "skipped", BrokenFragment: "broken fragment", BrokenFragment + 1: "Status(5)"} {
		if s.String() != name {
			t.Errorf("Status(%d) = %q, want %q", s, s.String(), name)
		}
		var back Status
		err := back.UnmarshalText([]byte(name))
		if s <= BrokenFragment && (err != nil || back != s) || s > BrokenFragment && err == nil {
			t.Errorf("UnmarshalText(%q) = %v, %v", name, back, err)
		}
	}
	b, err := json.Marshal(Result{URL: "http://h/", Status: Broken, Elapsed: 1500 * time.Microsecond})
	if err != nil {
		t.Fatal(err)
	}
	if want := `{"url":"http://h/","result":"broken","detail":"","scheme":"","places":[],"elapsed_ms":1.5}`; string(b) != want {
		t.Errorf("JSON %s, want %s", b, want)
	}
}
