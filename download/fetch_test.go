package download

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/rfc1738/rfc1738"
	"github.com/rfc1738/rfc1738/access"
)

// serve starts an http server on 127.0.0.1 for the test.
func serve(t *testing.T, h http.HandlerFunc) *httptest.Server {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewUnstartedServer(h)
	srv.Listener.Close()
	srv.Listener = l
	srv.Start()
	t.Cleanup(srv.Close)
	return srv
}

// job makes the job of a URL saved to path.
func job(t *testing.T, raw, path string) Job {
	t.Helper()
	u, err := rfc1738.Parse(raw)
	if err != nil {
		t.Fatal(err)
	}
	return Job{URL: u, Path: path}
}

// recorder keeps the events of a run.
type recorder struct {
	mu     sync.Mutex
	events []Event
}

func (r *recorder) add(ev Event) {
	r.mu.Lock()
	r.events = append(r.events, ev)
	r.mu.Unlock()
}

// of returns the events of a kind.
func (r *recorder) of(kind EventKind) []Event {
	r.mu.Lock()
	defer r.mu.Unlock()
	var out []Event
	for _, ev := range r.events {
		if ev.Kind == kind {
			out = append(out, ev)
		}
	}
	return out
}

// names lists a folder.
func names(t *testing.T, dir string) []string {
	t.Helper()
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, e := range entries {
		out = append(out, e.Name())
	}
	return out
}

// body is the content of a test resource: n bytes that tell their offset.
func body(n int) string {
	var b strings.Builder
	for i := 0; b.Len() < n; i++ {
		fmt.Fprintf(&b, "%07d\n", i)
	}
	return b.String()[:n]
}

// TestFetcherParallel: many URLs, four at a time, each saved whole under
// the path given, nothing else left; the transfers did overlap.
func TestFetcherParallel(t *testing.T) {
	var now, most atomic.Int32
	srv := serve(t, func(w http.ResponseWriter, r *http.Request) {
		n := now.Add(1)
		defer now.Add(-1)
		for {
			m := most.Load()
			if n <= m || most.CompareAndSwap(m, n) {
				break
			}
		}
		time.Sleep(20 * time.Millisecond)
		size, _ := strconv.Atoi(strings.TrimPrefix(r.URL.Path, "/f"))
		w.Write([]byte(body(size)))
	})
	dir := t.TempDir()
	var jobs []Job
	for i := range 24 {
		jobs = append(jobs, job(t, fmt.Sprintf("%s/f%d", srv.URL, 1000+i), filepath.Join(dir, fmt.Sprintf("out-%02d", i))))
	}
	rec := &recorder{}
	f := &Fetcher{Client: access.NewClient(), Parallel: 4, Events: rec.add}
	st := f.Run(context.Background(), jobs)
	if st.Saved != 24 || st.Failed != 0 {
		t.Errorf("stats %+v, want 24 saved", st)
	}
	var want int64
	for i, j := range jobs {
		got, err := os.ReadFile(j.Path)
		if err != nil || string(got) != body(1000+i) {
			t.Errorf("%s: %d bytes, %v; want %d", j.Path, len(got), err, 1000+i)
		}
		want += int64(1000 + i)
	}
	if st.Bytes != want {
		t.Errorf("stats: %d bytes, want %d", st.Bytes, want)
	}
	if got := names(t, dir); len(got) != 24 {
		t.Errorf("the folder holds %v", got)
	}
	if m := most.Load(); m < 2 || m > 4 {
		t.Errorf("at most %d requests at once, want 2 to 4 with Parallel 4", m)
	}
	saved := rec.of(Saved)
	if len(saved) != 24 {
		t.Fatalf("%d Saved events", len(saved))
	}
	for _, ev := range saved {
		if ev.Path != jobs[ev.Job].Path || ev.N != int64(1000+ev.Job) {
			t.Errorf("Saved %s, %d bytes: job %d is %s, %d bytes", ev.Path, ev.N, ev.Job, jobs[ev.Job].Path, 1000+ev.Job)
		}
	}
}

// liar serves a resource of size bytes whose first answer breaks off
// half way (the connection dropped); later ones honour a Range, unless
// ignoreRange, when they send the whole resource with 200. It returns
// the Range header of each request.
func liar(t *testing.T, content string, ignoreRange bool) (*httptest.Server, func() []string) {
	var mu sync.Mutex
	var ranges []string
	srv := serve(t, func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		first := len(ranges) == 0
		ranges = append(ranges, r.Header.Get("Range"))
		mu.Unlock()
		if first {
			w.Header().Set("Content-Length", strconv.Itoa(len(content)))
			w.WriteHeader(http.StatusOK)
			w.Write([]byte(content[:len(content)/2]))
			w.(http.Flusher).Flush()
			conn, _, err := w.(http.Hijacker).Hijack()
			if err == nil {
				conn.Close()
			}
			return
		}
		var from int
		if _, err := fmt.Sscanf(r.Header.Get("Range"), "bytes=%d-", &from); err != nil || ignoreRange {
			w.Write([]byte(content))
			return
		}
		w.Header().Set("Content-Range", fmt.Sprintf("bytes %d-%d/%d", from, len(content)-1, len(content)))
		w.WriteHeader(http.StatusPartialContent)
		w.Write([]byte(content[from:]))
	})
	return srv, func() []string {
		mu.Lock()
		defer mu.Unlock()
		return append([]string(nil), ranges...)
	}
}

// TestFetcherRetryResumes: an answer cut short half way is retried from
// where it stopped (a Range request, RFC 9110 §14.2), and the file is
// the resource, byte for byte. A server that ignores the Range and sends
// the whole resource again (200) has the file started over, not doubled.
func TestFetcherRetryResumes(t *testing.T) {
	content := body(64 << 10)
	half := len(content) / 2
	for _, ignore := range []bool{false, true} {
		t.Run(fmt.Sprintf("ignoreRange=%v", ignore), func(t *testing.T) {
			srv, ranges := liar(t, content, ignore)
			dir := t.TempDir()
			path := filepath.Join(dir, "f.bin")
			rec := &recorder{}
			f := &Fetcher{Client: access.NewClient(), Retries: 2, RetryDelay: time.Millisecond, Events: rec.add}
			st := f.Run(context.Background(), []Job{job(t, srv.URL+"/f.bin", path)})
			got, err := os.ReadFile(path)
			if err != nil || string(got) != content {
				t.Fatalf("the file: %d bytes, %v; want the %d of the resource (stats %+v)", len(got), err, len(content), st)
			}
			if r := ranges(); len(r) != 2 || r[0] != "" || r[1] != fmt.Sprintf("bytes=%d-", half) {
				t.Errorf("Range headers %q, want none then bytes=%d-", r, half)
			}
			if n := len(rec.of(Retrying)); n != 1 {
				t.Errorf("%d Retrying events, want 1", n)
			}
			if whole := rec.of(SentWhole); ignore != (len(whole) == 1) || ignore && whole[0].N != int64(half) {
				t.Errorf("SentWhole events %+v, want one from byte %d exactly when the Range is ignored", whole, half)
			}
			wantBytes := int64(len(content) - half)
			if ignore {
				wantBytes = int64(len(content))
			}
			if st.Saved != 1 || st.Bytes != int64(half)+wantBytes {
				t.Errorf("stats %+v, want 1 saved and %d bytes", st, int64(half)+wantBytes)
			}
			if got := names(t, dir); len(got) != 1 {
				t.Errorf("the folder holds %v", got)
			}
		})
	}
}

// TestFetcherFailureLeavesNoFile: a job that fails leaves no final name.
// Without Resume nothing is left; with Resume, the .part file keeps the
// bytes that came, named in the Failed event, and the next run with
// Resume goes on from them.
func TestFetcherFailureLeavesNoFile(t *testing.T) {
	content := body(32 << 10)
	half := len(content) / 2
	missing := serve(t, func(w http.ResponseWriter, r *http.Request) { http.NotFound(w, r) })

	for _, resume := range []bool{false, true} {
		t.Run(fmt.Sprintf("resume=%v", resume), func(t *testing.T) {
			srv, _ := liar(t, content, false)
			dir := t.TempDir()
			cut, gone := filepath.Join(dir, "cut.bin"), filepath.Join(dir, "gone.bin")
			rec := &recorder{}
			f := &Fetcher{Client: access.NewClient(), Resume: resume, Events: rec.add}
			st := f.Run(context.Background(), []Job{job(t, srv.URL+"/cut.bin", cut), job(t, missing.URL+"/gone.bin", gone)})
			if st.Failed != 2 || st.Saved != 0 {
				t.Errorf("stats %+v, want 2 failed", st)
			}
			var he *access.HTTPStatusError
			failed := map[string]Event{}
			for _, ev := range rec.of(Failed) {
				failed[ev.Path] = ev
			}
			if !errors.As(failed[gone].Err, &he) || he.Code != http.StatusNotFound || failed[gone].Kept != "" {
				t.Errorf("the 404: %+v", failed[gone])
			}
			if !access.Transient(failed[cut].Err) {
				t.Errorf("the cut transfer: %v, want a transient failure", failed[cut].Err)
			}
			want := []string(nil)
			if resume {
				want = []string{".cut.bin.part"}
				if ev := failed[cut]; ev.Kept != PartPath(cut) || ev.N != int64(half) {
					t.Errorf("Failed: kept %q, %d bytes; want %s, %d", ev.Kept, ev.N, PartPath(cut), half)
				}
			} else if failed[cut].Kept != "" {
				t.Errorf("kept %s without Resume", failed[cut].Kept)
			}
			if got := names(t, dir); fmt.Sprint(got) != fmt.Sprint(want) {
				t.Fatalf("the folder holds %q, want %q", got, want)
			}
			if !resume {
				return
			}
			// The next run resumes from the .part the first one kept.
			rec = &recorder{}
			f.Events = rec.add
			if st := f.Run(context.Background(), []Job{job(t, srv.URL+"/cut.bin", cut)}); st.Saved != 1 || st.Bytes != int64(len(content)-half) {
				t.Errorf("the resumed run: %+v", st)
			}
			if got, _ := os.ReadFile(cut); string(got) != content {
				t.Errorf("the resumed file: %d bytes, want %d", len(got), len(content))
			}
			if r := rec.of(Resuming); len(r) != 1 || r[0].Part.Found != int64(half) {
				t.Errorf("Resuming events %+v, want one at byte %d", r, half)
			}
		})
	}
}

// TestFetcherLimits: the limits fail a job with their names in the
// error: a size announced over MaxSize before any byte is written, a
// body that runs past it as it is counted, an idle connection.
func TestFetcherLimits(t *testing.T) {
	content := body(4096)
	srv := serve(t, func(w http.ResponseWriter, r *http.Request) {
		switch r.URL.Path {
		case "/told":
			w.Header().Set("Content-Length", strconv.Itoa(len(content)))
			w.Write([]byte(content))
		case "/untold":
			w.Header().Set("Transfer-Encoding", "chunked")
			w.Write([]byte(content[:2048]))
			w.(http.Flusher).Flush()
			w.Write([]byte(content[2048:]))
		case "/stall":
			w.Header().Set("Content-Length", "10")
			w.Write([]byte("12345"))
			w.(http.Flusher).Flush()
			<-r.Context().Done()
		}
	})
	for _, tc := range []struct {
		path, want string
		tooLarge   bool
	}{
		{"/told", srv.URL + "/told: 4096 bytes is more than --max-size 4095", true},
		{"/untold", "more data than --max-size allows", true},
		{"/stall", "nothing arrived for 200ms (--idle-timeout)", false},
	} {
		dir := t.TempDir()
		rec := &recorder{}
		f := &Fetcher{Client: access.NewClient(), MaxSize: 4095, LimitSize: true, IdleTimeout: 200 * time.Millisecond,
			MaxSizeName: "--max-size", IdleTimeoutName: "--idle-timeout", Events: rec.add}
		within(t, "Run", func() { f.Run(context.Background(), []Job{job(t, srv.URL+tc.path, filepath.Join(dir, "f"))}) })
		failed := rec.of(Failed)
		if len(failed) != 1 || !strings.Contains(failed[0].Err.Error(), tc.want) || errors.Is(failed[0].Err, ErrTooLarge) != tc.tooLarge {
			t.Errorf("%s: %+v, want one failure saying %q", tc.path, failed, tc.want)
		}
		if got := names(t, dir); len(got) != 0 {
			t.Errorf("%s: the folder holds %v", tc.path, got)
		}
	}
	// Exactly MaxSize bytes pass.
	dir := t.TempDir()
	f := &Fetcher{Client: access.NewClient(), MaxSize: 4096, LimitSize: true}
	var st Stats
	within(t, "Run", func() { st = f.Run(context.Background(), []Job{job(t, srv.URL+"/untold", filepath.Join(dir, "f"))}) })
	if st.Saved != 1 {
		t.Errorf("4096 bytes under MaxSize 4096: %+v", st)
	}
}
