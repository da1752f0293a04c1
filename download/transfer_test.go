package download

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/rfc1738/rfc1738/access"
)

// script is a Do that answers each request with the next of its steps,
// and records the offsets asked for.
type script struct {
	mu      sync.Mutex
	steps   []func(req access.Request) (*access.Response, error)
	offsets []int64
}

func (s *script) do(ctx context.Context, req access.Request) (*access.Response, error) {
	s.mu.Lock()
	i := len(s.offsets)
	s.offsets = append(s.offsets, req.Offset)
	s.mu.Unlock()
	if i >= len(s.steps) {
		return nil, fmt.Errorf("request %d: not in the script", i+1)
	}
	return s.steps[i](req)
}

func (s *script) asked() []int64 {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]int64(nil), s.offsets...)
}

// answer is a step that sends content from the request's offset (or
// whole, from 0, when whole), then fails with err (nil: the end).
func answer(content string, whole bool, err error) func(req access.Request) (*access.Response, error) {
	return func(req access.Request) (*access.Response, error) {
		off := req.Offset
		if whole {
			off = 0
		}
		var r io.Reader = strings.NewReader(content[off:])
		if err != nil {
			r = io.MultiReader(r, failing{err})
		}
		return &access.Response{Body: io.NopCloser(r), Size: int64(len(content)) - off, Offset: off, URL: "http://127.0.0.1/f"}, nil
	}
}

// refuse is a step that fails with err.
func refuse(err error) func(req access.Request) (*access.Response, error) {
	return func(access.Request) (*access.Response, error) { return nil, err }
}

type failing struct{ err error }

func (f failing) Read([]byte) (int, error) { return 0, f.err }

// leave writes a .part that an earlier run left for path.
func leave(t *testing.T, path, content string) {
	t.Helper()
	if err := os.WriteFile(PartPath(path), []byte(content), 0o600); err != nil {
		t.Fatal(err)
	}
}

// unavailable is a transient failure: a 503 with no page.
var unavailable = &access.HTTPStatusError{URL: "http://127.0.0.1/f", Status: "503 Service Unavailable", Code: http.StatusServiceUnavailable}

// TestTransferRetries: Retries more attempts after a transient failure,
// no more; the Retrying events number them from 1.
func TestTransferRetries(t *testing.T) {
	path := filepath.Join(t.TempDir(), "f")
	s := &script{steps: []func(access.Request) (*access.Response, error){refuse(unavailable), refuse(unavailable), refuse(unavailable), answer("data", false, nil)}}
	rec := &recorder{}
	f := &Fetcher{Do: s.do, Retries: 2, RetryDelay: time.Millisecond, Events: rec.add}
	var st Stats
	within(t, "Run", func() { st = f.Run(context.Background(), []Job{job(t, "http://127.0.0.1/f", path)}) })
	if st.Failed != 1 || len(s.asked()) != 3 {
		t.Errorf("stats %+v after %d requests, want 1 failed after 3", st, len(s.asked()))
	}
	var attempts []int
	for _, ev := range rec.of(Retrying) {
		attempts = append(attempts, ev.Attempt)
	}
	if fmt.Sprint(attempts) != "[1 2]" {
		t.Errorf("Retrying attempts %v, want [1 2]", attempts)
	}
}

// TestTransferOutNeverRetried: an attempt that wrote bytes to Out is not
// retried (they cannot be taken back); one that wrote none is.
func TestTransferOutNeverRetried(t *testing.T) {
	cut := fmt.Errorf("cut: %w", io.ErrUnexpectedEOF)
	for _, tc := range []struct {
		first    func(access.Request) (*access.Response, error)
		requests int
		out      string
	}{
		{answer("abcdef", false, cut), 1, "abcdef"},
		{answer("", false, cut), 2, "abcdef"},
	} {
		var out strings.Builder
		s := &script{steps: []func(access.Request) (*access.Response, error){tc.first, answer("abcdef", false, nil)}}
		f := &Fetcher{Do: s.do, Retries: 3, RetryDelay: time.Millisecond}
		j := job(t, "http://127.0.0.1/f", "")
		j.Out = &out
		within(t, "Run", func() { f.Run(context.Background(), []Job{j}) })
		if n := len(s.asked()); n != tc.requests || out.String() != tc.out {
			t.Errorf("%d requests, Out %q; want %d, %q", n, out.String(), tc.requests, tc.out)
		}
	}
}

// TestTransferNoResume: a resume refused (access.ErrNoResume) starts the
// file over from byte 0, with a NoResume event; the same error to a
// request from byte 0 is the job's failure.
// TestTransferRestart: a server that cannot resume (ErrNoResume) or a
// body that runs past what was asked (ErrLongTransfer) makes the transfer
// start again from byte 0, once, with a NoResume event; from byte 0 the
// same error is a failure like another, and so is the new request's.
func TestTransferRestart(t *testing.T) {
	content := body(100)
	for _, tc := range []struct {
		name  string
		err   error
		first func(error) func(access.Request) (*access.Response, error)
	}{
		{"no resume", access.ErrNoResume, refuse},
		{"long transfer", access.ErrLongTransfer, func(err error) func(access.Request) (*access.Response, error) {
			return answer(content, false, err)
		}},
	} {
		wrapped := fmt.Errorf("%s: %w", tc.name, tc.err)
		run := func(partial bool, second func(access.Request) (*access.Response, error)) (Stats, *script, *recorder, string) {
			path := filepath.Join(t.TempDir(), "f")
			if partial {
				leave(t, path, content[:40])
			}
			s := &script{steps: []func(access.Request) (*access.Response, error){tc.first(wrapped), second}}
			rec := &recorder{}
			f := &Fetcher{Do: s.do, Resume: true, Events: rec.add}
			st := f.Run(context.Background(), []Job{job(t, "http://127.0.0.1/f", path)})
			return st, s, rec, path
		}

		st, s, rec, path := run(true, answer(content, false, nil))
		if got, _ := os.ReadFile(path); string(got) != content || st.Saved != 1 {
			t.Errorf("%s: stats %+v, the file %q; want the resource", tc.name, st, got)
		}
		if o := s.asked(); fmt.Sprint(o) != "[40 0]" {
			t.Errorf("%s: offsets asked %v, want [40 0]", tc.name, o)
		}
		if ev := rec.of(NoResume); len(ev) != 1 || !errors.Is(ev[0].Err, tc.err) {
			t.Errorf("%s: NoResume events %+v", tc.name, ev)
		}

		st, s, rec, _ = run(false, answer(content, false, nil))
		if st.Failed != 1 || len(s.asked()) != 1 || len(rec.of(NoResume)) != 0 {
			t.Errorf("%s from byte 0: stats %+v, %d requests, %d NoResume; want 1 failed, 1, 0", tc.name, st, len(s.asked()), len(rec.of(NoResume)))
		}

		gone := errors.New("gone")
		_, _, rec, _ = run(true, refuse(gone))
		if ev := rec.of(Failed); len(ev) != 1 || !errors.Is(ev[0].Err, gone) {
			t.Errorf("%s, the new request failing: %+v", tc.name, ev)
		}
	}
}

func TestTransferErrorPage(t *testing.T) {
	const page = "<h1>Not Found</h1>"
	notFound := func(access.Request) (*access.Response, error) {
		resp := &access.Response{Body: io.NopCloser(strings.NewReader(page)), Size: int64(len(page)), URL: "http://127.0.0.1/f"}
		return nil, &access.HTTPStatusError{URL: resp.URL, Status: "404 Not Found", Code: http.StatusNotFound, Response: resp}
	}
	for _, left := range []string{"", "earlier bytes"} {
		path := filepath.Join(t.TempDir(), "f")
		if left != "" {
			leave(t, path, left)
		}
		s := &script{steps: []func(access.Request) (*access.Response, error){notFound}}
		rec := &recorder{}
		f := &Fetcher{Do: s.do, Resume: true, KeepErrorBody: true, Events: rec.add}
		st := f.Run(context.Background(), []Job{job(t, "http://127.0.0.1/f", path)})
		var he *access.HTTPStatusError
		if ev := rec.of(Failed); st.Failed != 1 || len(ev) != 1 || !errors.As(ev[0].Err, &he) || he.Code != http.StatusNotFound {
			t.Errorf("left %q: stats %+v, Failed %+v; want the 404", left, st, ev)
		}
		if got, err := os.ReadFile(path); string(got) != page {
			t.Errorf("left %q: the file %q, %v; want the page", left, got, err)
		}
		if got := names(t, filepath.Dir(path)); len(got) != 1 {
			t.Errorf("left %q: the folder holds %v", left, got)
		}
	}
	var out strings.Builder
	s := &script{steps: []func(access.Request) (*access.Response, error){notFound}}
	f := &Fetcher{Do: s.do, KeepErrorBody: true}
	j := job(t, "http://127.0.0.1/f", "")
	j.Out = &out
	if st := f.Run(context.Background(), []Job{j}); st.Failed != 1 || out.String() != page {
		t.Errorf("to Out: stats %+v, %q", st, out.String())
	}
}

// TestTransferHeader: Header and Head write an http response's status
// line and header before the body; a response with no status (another
// scheme) has none written.
func TestTransferHeader(t *testing.T) {
	withStatus := func(status string) func(access.Request) (*access.Response, error) {
		return func(access.Request) (*access.Response, error) {
			return &access.Response{Body: io.NopCloser(strings.NewReader("body")), Size: 4, Status: status,
				Header: http.Header{"Content-Type": {"text/plain"}}}, nil
		}
	}
	for _, tc := range []struct {
		f      Fetcher
		status string
		want   string
	}{
		{Fetcher{Header: true}, "HTTP/1.1 200 OK", "HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\n\r\nbody"},
		{Fetcher{Head: true}, "HTTP/1.1 200 OK", "HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\n\r\nbody"},
		{Fetcher{Header: true}, "", "body"},
		{Fetcher{}, "HTTP/1.1 200 OK", "body"},
	} {
		path := filepath.Join(t.TempDir(), "f")
		s := &script{steps: []func(access.Request) (*access.Response, error){withStatus(tc.status)}}
		f := tc.f
		f.Do = s.do
		f.Run(context.Background(), []Job{job(t, "http://127.0.0.1/f", path)})
		if got, _ := os.ReadFile(path); string(got) != tc.want {
			t.Errorf("Header %v, Head %v, status %q: %q, want %q", tc.f.Header, tc.f.Head, tc.status, got, tc.want)
		}
	}
}

// TestTransferEvents: a job's events tell its progress, byte for byte.
func TestTransferEvents(t *testing.T) {
	content := body(5000)
	path := filepath.Join(t.TempDir(), "f")
	s := &script{steps: []func(access.Request) (*access.Response, error){answer(content, false, nil)}}
	rec := &recorder{}
	f := &Fetcher{Do: s.do, Events: rec.add}
	f.Run(context.Background(), []Job{job(t, "http://127.0.0.1/f", path)})
	var n int64
	for _, ev := range rec.of(Progress) {
		n += ev.N
	}
	if n != int64(len(content)) {
		t.Errorf("Progress events sum to %d bytes, want %d", n, len(content))
	}
	if ev := rec.of(Saved); len(ev) != 1 || ev[0].N != int64(len(content)) || ev[0].Path != path {
		t.Errorf("Saved events %+v", ev)
	}
}

// TestTransferAnnouncedMaxSize: a size announced equal to MaxSize is
// allowed; one byte more is refused.
func TestTransferAnnouncedMaxSize(t *testing.T) {
	content := body(100)
	for _, limit := range []int64{100, 99} {
		path := filepath.Join(t.TempDir(), "f")
		s := &script{steps: []func(access.Request) (*access.Response, error){answer(content, false, nil)}}
		f := &Fetcher{Do: s.do, LimitSize: true, MaxSize: limit}
		st := f.Run(context.Background(), []Job{job(t, "http://127.0.0.1/f", path)})
		if (st.Saved == 1) != (limit == 100) {
			t.Errorf("100 bytes announced, MaxSize %d: %+v", limit, st)
		}
	}
}

// TestTransferDevice: a path that is a device is written in place, and
// one that cannot be opened (a socket) fails the job.
func TestTransferDevice(t *testing.T) {
	s := &script{steps: []func(access.Request) (*access.Response, error){answer("data", false, nil)}}
	rec := &recorder{}
	f := &Fetcher{Do: s.do, Events: rec.add}
	if st := f.Run(context.Background(), []Job{job(t, "http://127.0.0.1/f", os.DevNull)}); st.Saved != 1 || st.Bytes != 4 {
		t.Errorf("%s: %+v", os.DevNull, st)
	}
	if ev := rec.of(Saved); len(ev) != 1 || ev[0].N != 4 {
		t.Errorf("Saved events %+v", ev)
	}
	dir, err := os.MkdirTemp("", "dl")
	if err != nil {
		t.Fatal(err)
	}
	defer os.RemoveAll(dir)
	sock := filepath.Join(dir, "s")
	l, err := net.Listen("unix", sock)
	if err != nil {
		t.Skip("no unix socket:", err)
	}
	defer l.Close()
	s = &script{steps: []func(access.Request) (*access.Response, error){answer("data", false, nil)}}
	rec = &recorder{}
	f = &Fetcher{Do: s.do, Events: rec.add}
	if st := f.Run(context.Background(), []Job{job(t, "http://127.0.0.1/f", sock)}); st.Failed != 1 {
		t.Errorf("a socket: %+v", st)
	}
}

// TestTransferFoundEmptyPart: a .part left empty is neither resumed nor
// started over (no event); one with bytes is one or the other.
func TestTransferFoundEmptyPart(t *testing.T) {
	for _, tc := range []struct {
		left   string
		resume bool
		want   EventKind
	}{
		{"", true, 0},
		{"", false, 0},
		{"ab", true, Resuming},
		{"ab", false, StartingOver},
	} {
		path := filepath.Join(t.TempDir(), "f")
		leave(t, path, tc.left)
		s := &script{steps: []func(access.Request) (*access.Response, error){answer("abcd", false, nil)}}
		rec := &recorder{}
		f := &Fetcher{Do: s.do, Resume: tc.resume, Events: rec.add}
		f.Run(context.Background(), []Job{job(t, "http://127.0.0.1/f", path)})
		got := EventKind(0)
		if r, so := rec.of(Resuming), rec.of(StartingOver); len(r)+len(so) > 1 {
			t.Errorf("left %q, resume %v: %d Resuming, %d StartingOver", tc.left, tc.resume, len(r), len(so))
		} else if len(r) == 1 {
			got = Resuming
		} else if len(so) == 1 {
			got = StartingOver
		}
		if got != tc.want {
			t.Errorf("left %q, resume %v: event %d, want %d", tc.left, tc.resume, got, tc.want)
		}
		if b, _ := os.ReadFile(path); string(b) != "abcd" {
			t.Errorf("left %q, resume %v: the file %q", tc.left, tc.resume, b)
		}
	}
}

// TestNamed: a limit is written with its name when it has one.
func TestNamed(t *testing.T) {
	if got := named("", time.Second); got != "1s" {
		t.Errorf("named(\"\", 1s) = %q", got)
	}
	if got := named("--timeout", time.Second); got != "--timeout 1s" {
		t.Errorf("named(--timeout, 1s) = %q", got)
	}
}

// TestTransferCanceledWhileWaiting: a ctx that ends during the wait
// before a retry fails the job at once, keeping the bytes that came
// (Resume or not) in the .part file that the Failed event names.
func TestTransferCanceledWhileWaiting(t *testing.T) {
	content := body(100)
	cut := fmt.Errorf("cut: %w", io.ErrUnexpectedEOF)
	path := filepath.Join(t.TempDir(), "f")
	s := &script{steps: []func(access.Request) (*access.Response, error){func(req access.Request) (*access.Response, error) {
		return &access.Response{Body: io.NopCloser(io.MultiReader(strings.NewReader(content[:30]), failing{cut})), Size: 100}, nil
	}}}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	rec := &recorder{}
	f := &Fetcher{Do: s.do, Retries: 1, RetryDelay: time.Minute, Events: func(ev Event) {
		rec.add(ev)
		if ev.Kind == Retrying {
			cancel()
		}
	}}
	within(t, "Run", func() { f.Run(ctx, []Job{job(t, "http://127.0.0.1/f", path)}) })
	if ev := rec.of(Failed); len(ev) != 1 || ev[0].Kept != PartPath(path) || ev[0].N != 30 || !errors.Is(ev[0].Err, context.Canceled) {
		t.Errorf("Failed events %+v, want one keeping %s with 30 bytes", ev, PartPath(path))
	}
	if got, _ := os.ReadFile(PartPath(path)); string(got) != content[:30] {
		t.Errorf("the .part holds %q", got)
	}
}
