package access

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"net/textproto"
	"slices"
	"strings"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/rfc1738/rfc1738/access/ftp"
	"github.com/rfc1738/rfc1738/internal/testserver"
)

// TestRequestFTPResume: the plan shows REST right before RETR, the fake
// sends the rest of the file, and what cannot resume says ErrNoResume.
func TestRequestFTPResume(t *testing.T) {
	files := map[string]string{"/pub/f.bin": "0123456789"}
	fake := testserver.NewFTPFake(t, testserver.FTPFakeOptions{Files: files})
	c := NewClient()
	u := mustParse(t, "ftp://"+fake.Addr+"/pub/f.bin")
	p, err := c.PlanRequest(Request{URL: u, Offset: 4})
	if err != nil {
		t.Fatal(err)
	}
	want := []string{"USER anonymous", "PASS <e-mail address>", "CWD pub", "TYPE I", "REST 4", "RETR f.bin", "QUIT"}
	if !slices.Equal(p.Lines(), want) {
		t.Errorf("plan %q, want %q", p.Lines(), want)
	}
	resp, err := c.Do(ftpTestCtx(t), Request{URL: u, Offset: 4})
	if err != nil {
		t.Fatal(err)
	}
	b, _ := io.ReadAll(resp.Body)
	if err := resp.Body.Close(); err != nil || string(b) != "456789" || resp.Offset != 4 || resp.Size != 6 {
		t.Errorf("resumed body %q offset %d size %d, close %v", b, resp.Offset, resp.Size, err)
	}
	for _, bad := range []string{"ftp://h/pub/f.txt;type=a", "ftp://h/pub/;type=d"} {
		if _, err := c.PlanRequest(Request{URL: mustParse(t, bad), Offset: 4}); !errors.Is(err, ErrNoResume) {
			t.Errorf("%s at offset 4: %v, want ErrNoResume", bad, err)
		}
	}
	if _, err := c.PlanRequest(Request{URL: mustParse(t, "gopher://h/0x"), Offset: 4}); !errors.Is(err, ErrNoResume) {
		t.Errorf("gopher at offset 4: %v, want ErrNoResume", err)
	}

	refusing := testserver.NewFTPFake(t, testserver.FTPFakeOptions{Files: files,
		Handle: func(s *testserver.FTPSession, line string) bool {
			if strings.HasPrefix(line, "REST") {
				s.Reply("502 REST not implemented.")
				return true
			}
			return false
		}})
	_, err = c.Do(ftpTestCtx(t), Request{URL: mustParse(t, "ftp://"+refusing.Addr+"/pub/f.bin"), Offset: 4})
	if !errors.Is(err, ErrNoResume) {
		t.Errorf("a refused REST: %v, want ErrNoResume", err)
	}
}

// TestRequestHTTP: Range (RFC 9110 §14.2) answered by 206, 200 and 416,
// HEAD, and the error page kept on request.
func TestRequestHTTP(t *testing.T) {
	const content = "0123456789"
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch r.URL.Path {
		case "/whole": // ignores Range
			io.WriteString(w, content)
		case "/missing":
			w.WriteHeader(http.StatusNotFound)
			io.WriteString(w, "no such page")
		default:
			http.ServeContent(w, r, "f", time.Time{}, strings.NewReader(content))
		}
	}))
	defer srv.Close()
	c := NewClient()
	ctx := ftpTestCtx(t)
	get := func(path string, r Request) (*Response, string, error) {
		t.Helper()
		r.URL = mustParse(t, srv.URL+path)
		resp, err := c.Do(ctx, r)
		if err != nil {
			return nil, "", err
		}
		b, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		return resp, string(b), nil
	}
	p, _ := c.PlanRequest(Request{URL: mustParse(t, srv.URL+"/f"), Offset: 4, Head: true})
	if l := p.Lines(); l[0] != "HEAD /f HTTP/1.1" || l[len(l)-1] != "Range: bytes=4-" {
		t.Errorf("plan %q", l)
	}
	if resp, b, err := get("/f", Request{Offset: 4}); err != nil || b != "456789" || resp.Offset != 4 {
		t.Errorf("206: %q %v %+v", b, err, resp)
	}
	if resp, b, err := get("/whole", Request{Offset: 4}); err != nil || b != content || resp.Offset != 0 {
		t.Errorf("200 to a Range: %q %v %+v", b, err, resp)
	}
	if resp, b, err := get("/f", Request{Offset: 10}); err != nil || b != "" || resp.Offset != 10 {
		t.Errorf("416 at the end: %q %v %+v", b, err, resp)
	}
	if _, _, err := get("/f", Request{Offset: 11}); !errors.Is(err, ErrNoResume) {
		t.Errorf("416 beyond the end: %v, want ErrNoResume", err)
	}
	if resp, b, err := get("/f", Request{Head: true}); err != nil || b != "" || resp.Size != 10 || !strings.HasPrefix(resp.Status, "HTTP/1.1 200") || resp.Header.Get("Accept-Ranges") != "bytes" {
		t.Errorf("HEAD: %q %v %+v", b, err, resp)
	}
	_, _, err := get("/missing", Request{})
	var he *HTTPStatusError
	if !errors.As(err, &he) || he.Code != 404 || he.Response != nil {
		t.Errorf("404: %v", err)
	}
	_, _, err = get("/missing", Request{KeepErrorBody: true})
	if !errors.As(err, &he) || he.Response == nil {
		t.Fatalf("404 with KeepErrorBody: %v", err)
	}
	b, _ := io.ReadAll(he.Response.Body)
	he.Response.Body.Close()
	if string(b) != "no such page" {
		t.Errorf("error page %q", b)
	}
}

func TestTransient(t *testing.T) {
	for _, tc := range []struct {
		err  error
		want bool
	}{
		{&ftp.CommandError{Cmd: "RETR x", Reply: &textproto.Error{Code: 421, Msg: "Timeout."}}, true},
		{&ftp.CommandError{Cmd: "RETR x", Reply: &textproto.Error{Code: 450, Msg: "busy"}}, true},
		{&ftp.CommandError{Cmd: "RETR x", Reply: &textproto.Error{Code: 550, Msg: "no"}}, false},
		{&HTTPStatusError{Code: 503}, true},
		{&HTTPStatusError{Code: 429}, true},
		{&HTTPStatusError{Code: 408}, true},
		{&HTTPStatusError{Code: 404}, false},
		{fmt.Errorf("x: %w", ftp.ErrShortTransfer), true},
		{fmt.Errorf("x: %w", syscall.ECONNRESET), true},
		{fmt.Errorf("x: %w", context.DeadlineExceeded), true},
		{fmt.Errorf("x: %w", context.Canceled), false},
		{&GuardError{Rule: "port"}, false},
		{syscall.ECONNREFUSED, false},
	} {
		if got := Transient(tc.err); got != tc.want {
			t.Errorf("Transient(%v) = %v, want %v", tc.err, got, tc.want)
		}
	}
}

// TestCredentials: a stored login replaces anonymous FTP for a URL that
// names no user, and never one the URL names.
func TestCredentials(t *testing.T) {
	c := NewClient()
	c.Credentials = func(scheme, host string) (string, string, bool) {
		return "joe", "secret", scheme == "ftp" && host == "files.example"
	}
	p, err := c.Plan(mustParse(t, "ftp://files.example/x"))
	if err != nil || p.Lines()[0] != "USER joe" || p.Lines()[1] != "PASS <password>" || p.Steps[1].Arg != "secret" {
		t.Errorf("plan %q %v", p.Lines(), err)
	}
	p, _ = c.Plan(mustParse(t, "ftp://ann@files.example/x"))
	if p.Lines()[0] != "USER ann" {
		t.Errorf("the URL's user lost to the stored one: %q", p.Lines())
	}
	p, _ = c.Plan(mustParse(t, "ftp://other.example/x"))
	if p.Lines()[0] != "USER anonymous" {
		t.Errorf("another host: %q", p.Lines())
	}
}

// TestFTPReuse: with an FTP.Pool, the second URL of a login reuses the
// connection (no second USER; back to the login directory first), and
// a kept connection the server timed out (421) costs a new login, not
// an error.
func TestFTPReuse(t *testing.T) {
	files := map[string]string{"/pub/a": "A", "/pub/b": "B", "/c": "C"}
	var retrs atomic.Int32
	var timeOut atomic.Bool
	fake := testserver.NewFTPFake(t, testserver.FTPFakeOptions{Files: files,
		Handle: func(s *testserver.FTPSession, line string) bool {
			if strings.HasPrefix(line, "RETR") {
				retrs.Add(1)
				return false
			}
			if timeOut.Load() { // the kept connection's next command
				timeOut.Store(false)
				s.Reply("421 Timeout.")
				s.Drop()
				return true
			}
			return false
		}})
	c := NewClient()
	pool := &ftp.Pool{MaxIdlePerLogin: 1}
	c.RegisterProtocol("ftp", FTP{Pool: pool})
	defer pool.Close()
	get := func(path string) string {
		t.Helper()
		resp, err := c.Get(ftpTestCtx(t), mustParse(t, "ftp://"+fake.Addr+path))
		if err != nil {
			t.Fatalf("%s: %v\n%s", path, err, strings.Join(fake.Commands(), "\n"))
		}
		b, _ := io.ReadAll(resp.Body)
		if err := resp.Body.Close(); err != nil {
			t.Fatal(err)
		}
		return string(b)
	}
	if get("/pub/a")+get("/c")+get("/pub/b") != "ACB" {
		t.Fatal("wrong bodies")
	}
	cmds := strings.Join(fake.Commands(), "\n")
	if strings.Count(cmds, "USER") != 1 || !strings.Contains(cmds, "RETR a\nCWD /\nTYPE I") || strings.Contains(cmds, "QUIT") {
		t.Errorf("commands:\n%s", cmds)
	}
	timeOut.Store(true)
	if get("/pub/a") != "A" {
		t.Fatal("wrong body after a timed-out connection")
	}
	if cmds := strings.Join(fake.Commands(), "\n"); strings.Count(cmds, "USER") != 2 {
		t.Errorf("commands after the 421:\n%s", cmds)
	}
}

func TestRetryAfter(t *testing.T) {
	h := http.Header{}
	h.Set("Retry-After", "3")
	if got := RetryAfter(fmt.Errorf("x: %w", &HTTPStatusError{Code: 503, Header: h})); got != 3*time.Second {
		t.Errorf("RetryAfter = %v", got)
	}
	if got := RetryAfter(errors.New("x")); got != 0 {
		t.Errorf("RetryAfter of another error = %v", got)
	}
}

// TestRequestMaxBytes: MaxBytes counts the bytes as they arrive, whatever
// was announced: a 150 reply saying 10 bytes and 100,000 sent stops at
// the limit with ErrTooLarge, one byte beyond never handed on; a body of
// exactly MaxBytes is whole; an announced size beyond it fails Do.
func TestRequestMaxBytes(t *testing.T) {
	big := strings.Repeat("x", 100_000)
	fake := testserver.NewFTPFake(t, testserver.FTPFakeOptions{
		Files: map[string]string{"/big": big, "/ten": "0123456789"},
		Handle: func(s *testserver.FTPSession, line string) bool {
			if line == "RETR big" {
				s.Send("150 Opening BINARY mode data connection for big (10 bytes).", big)
				return true
			}
			return false
		},
	})
	c := NewClient()
	get := func(name string, limit int64) (string, error) {
		resp, err := c.Do(ftpTestCtx(t), Request{URL: mustParse(t, "ftp://"+fake.Addr+"/"+name), MaxBytes: limit})
		if err != nil {
			return "", err
		}
		defer resp.Body.Close()
		b, err := io.ReadAll(resp.Body)
		return string(b), err
	}
	if b, err := get("big", 1000); !errors.Is(err, ErrTooLarge) || len(b) != 1000 {
		t.Errorf("big under 1000: %d bytes, %v; want 1000 and ErrTooLarge", len(b), err)
	}
	if b, err := get("ten", 10); err != nil || b != "0123456789" {
		t.Errorf("ten under 10: %q, %v", b, err)
	}
	if _, err := get("ten", 9); !errors.Is(err, ErrTooLarge) {
		t.Errorf("ten under 9: %v, want ErrTooLarge (announced 10)", err)
	}
}
