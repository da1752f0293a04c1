package ftp_test

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/textproto"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/rfc1738/rfc1738/access/ftp"
	"github.com/rfc1738/rfc1738/internal/testserver"
	"github.com/rfc1738/rfc1738/internal/zerocopy"
)

// tracer collects a Trace conversation.
type tracer struct {
	mu    sync.Mutex
	lines []string
}

func (tr *tracer) trace(dir byte, line string) {
	tr.mu.Lock()
	defer tr.mu.Unlock()
	tr.lines = append(tr.lines, string(dir)+" "+line)
}

func (tr *tracer) String() string {
	tr.mu.Lock()
	defer tr.mu.Unlock()
	return strings.Join(tr.lines, "\n")
}

func testCtx(t *testing.T, d time.Duration) context.Context {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), d)
	t.Cleanup(cancel)
	return ctx
}

// dialFake dials the fake with a trace and logs in anonymously.
func dialFake(t *testing.T, f *testserver.FTPFake, cfg ftp.Config) (*ftp.Conn, *tracer) {
	t.Helper()
	tr := &tracer{}
	if cfg.Trace == nil {
		cfg.Trace = tr.trace
	}
	ctx := testCtx(t, 10*time.Second)
	c, err := ftp.Dial(ctx, f.Addr, cfg)
	if err != nil {
		t.Fatalf("Dial: %v", err)
	}
	t.Cleanup(func() { c.Close() })
	if _, err := c.Login(ctx, ftp.Credentials{}); err != nil {
		t.Fatalf("Login: %v\n%s", err, tr)
	}
	return c, tr
}

var fakeTree = map[string]string{
	"/etc/motd":          "fake motd\n",
	"/home/me/etc/motd":  "relative motd\n",
	"/pub/hello.txt":     "hello\r\n",
	"/pub/a b;c.txt":     "weird; name\n",
	"/pub/nested/in.txt": "nested\n",
}

// plan is what RFC 1738 §3.2.2 makes of a url-path: the decoded <cwd>
// segments, the typecode and the <name>.
type plan struct {
	cwds []string
	typ  string // "a", "i", "d"
	name string
}

// run drives the client through a plan exactly as §3.2.2 reads.
func run(ctx context.Context, c *ftp.Conn, p plan) ([]byte, error) {
	for _, d := range p.cwds {
		if _, err := c.Cwd(ctx, d); err != nil {
			return nil, err
		}
	}
	var body io.ReadCloser
	var err error
	if p.typ == "d" {
		body, err = c.Nlst(ctx, p.name)
	} else {
		if _, err = c.Type(ctx, strings.ToUpper(p.typ)); err != nil {
			return nil, err
		}
		body, _, err = c.Retr(ctx, p.name)
	}
	if err != nil {
		return nil, err
	}
	data, err := io.ReadAll(body)
	if cerr := body.Close(); err == nil {
		err = cerr
	}
	return data, err
}

var login = []string{"USER anonymous", "PASS anonymous@"}

// TestRFC1738Sequences drives the RFC 1738 §3.2.2 examples through the
// API and checks the exact command lines the server received.
func TestRFC1738Sequences(t *testing.T) {
	tests := []struct {
		url        string // the URL the plan comes from (for the record)
		plan       plan
		home       string // login directory of the fake
		emptyCwdOK bool   // answer "CWD " with 250, as pure-ftpd does
		want       []string
		body       string
	}{
		// §3.2.2: "%2Fetc/motd" → "CWD /etc" and then "RETR motd".
		{"ftp://myname@host.dom/%2Fetc/motd", plan{[]string{"/etc"}, "i", "motd"}, "/home/me", false,
			[]string{"CWD /etc", "TYPE I", "EPSV", "RETR motd", "QUIT"}, "fake motd\n"},
		// §3.2.2: "etc/motd" → "CWD etc", relative to the login directory.
		{"ftp://myname@host.dom/etc/motd", plan{[]string{"etc"}, "i", "motd"}, "/home/me", false,
			[]string{"CWD etc", "TYPE I", "EPSV", "RETR motd", "QUIT"}, "relative motd\n"},
		// §3.2.2: "//etc/motd" → "CWD " with a null argument, "CWD etc", "RETR motd".
		{"ftp://myname@host.dom//etc/motd", plan{[]string{"", "etc"}, "i", "motd"}, "/home/me", true,
			[]string{"CWD ", "CWD etc", "TYPE I", "EPSV", "RETR motd", "QUIT"}, "fake motd\n"},
		// §3.2.2: ;type=d → NLST <name>.
		{"ftp://host/pub;type=d", plan{nil, "d", "pub"}, "/", false,
			[]string{"EPSV", "NLST pub", "QUIT"}, "pub/a b;c.txt\r\npub/hello.txt\r\npub/nested\r\n"},
		// §3.2.2: ;type=d with an empty <name> → NLST with no argument.
		{"ftp://host/pub/;type=d", plan{[]string{"pub"}, "d", ""}, "/", false,
			[]string{"CWD pub", "EPSV", "NLST", "QUIT"}, "a b;c.txt\r\nhello.txt\r\nnested\r\n"},
		// §3.2.2: ;type=a → TYPE A.
		{"ftp://host/pub/hello.txt;type=a", plan{[]string{"pub"}, "a", "hello.txt"}, "/", false,
			[]string{"CWD pub", "TYPE A", "EPSV", "RETR hello.txt", "QUIT"}, "hello\r\n"},
		// §3.2.2: "/" and ";" in a name are encoded in the URL, decoded on the wire.
		{"ftp://host/pub/a%20b%3Bc.txt", plan{[]string{"pub"}, "i", "a b;c.txt"}, "/", false,
			[]string{"CWD pub", "TYPE I", "EPSV", "RETR a b;c.txt", "QUIT"}, "weird; name\n"},
	}
	for _, tt := range tests {
		t.Run(tt.url, func(t *testing.T) {
			f := testserver.NewFTPFake(t, testserver.FTPFakeOptions{
				Files: fakeTree,
				Handle: func(s *testserver.FTPSession, line string) bool {
					switch {
					case line == "PASS anonymous@":
						// Land in the home folder as a real server does.
						s.SetDir(tt.home)
					case line == "CWD " && tt.emptyCwdOK:
						s.SetDir("/")
						s.Reply("250 Directory successfully changed.")
						return true
					}
					return false
				},
			})
			ctx := testCtx(t, 10*time.Second)
			c, tr := dialFake(t, f, ftp.Config{})
			got, err := run(ctx, c, tt.plan)
			if err != nil {
				t.Fatalf("%v\n%s", err, tr)
			}
			if string(got) != tt.body {
				t.Errorf("body %q, want %q", got, tt.body)
			}
			if err := c.Quit(ctx); err != nil {
				t.Errorf("Quit: %v", err)
			}
			want := append(slices.Clone(login), tt.want...)
			if cmds := f.Commands(); !slices.Equal(cmds, want) {
				t.Errorf("commands\n got %q\nwant %q", cmds, want)
			}
		})
	}
}

func TestEmptyCwdRefused(t *testing.T) {
	// Like vsftpd: "CWD " is 550, and the reply is exposed.
	f := testserver.NewFTPFake(t, testserver.FTPFakeOptions{Files: fakeTree})
	c, _ := dialFake(t, f, ftp.Config{})
	rep, err := c.Cwd(testCtx(t, 5*time.Second), "")
	var te *textproto.Error
	if !errors.As(err, &te) || te.Code != 550 || rep.Code != 550 {
		t.Fatalf("Cwd(\"\") = %v, %v; want 550", rep, err)
	}
	if got := f.Commands()[2]; got != "CWD " {
		t.Errorf("sent %q, want %q", got, "CWD ")
	}
	// A refusal leaves the connection usable.
	if rep, err := c.Cwd(testCtx(t, 5*time.Second), "pub"); err != nil || rep.Code != 250 {
		t.Errorf("Cwd(pub) after 550 = %v, %v", rep, err)
	}
}

func TestRetrSizeAndErrors(t *testing.T) {
	f := testserver.NewFTPFake(t, testserver.FTPFakeOptions{Files: fakeTree})
	c, _ := dialFake(t, f, ftp.Config{})
	ctx := testCtx(t, 10*time.Second)
	_, _, err := c.Retr(ctx, "nofile")
	var te *textproto.Error
	if !errors.As(err, &te) || te.Code != 550 {
		t.Fatalf("Retr(nofile) err = %v, want a 550 *textproto.Error", err)
	}
	if got, want := err.Error(), "ftp: RETR nofile: 550 Failed to open file."; got != want {
		t.Errorf("error %q, want %q", got, want)
	}
	body, size, err := c.Retr(ctx, "/etc/motd")
	if err != nil {
		t.Fatal(err)
	}
	if size != int64(len(fakeTree["/etc/motd"])) {
		t.Errorf("size %d, want %d", size, len(fakeTree["/etc/motd"]))
	}
	data, err := io.ReadAll(body)
	if err != nil || string(data) != fakeTree["/etc/motd"] {
		t.Errorf("ReadAll = %q, %v", data, err)
	}
	if err := body.Close(); err != nil {
		t.Errorf("Close: %v", err)
	}
	if err := body.Close(); err != nil {
		t.Errorf("second Close: %v", err)
	}
	if _, err := body.Read(make([]byte, 1)); err == nil {
		t.Error("Read after Close succeeded")
	}
}

func TestTransferOpen(t *testing.T) {
	f := testserver.NewFTPFake(t, testserver.FTPFakeOptions{Files: fakeTree})
	c, _ := dialFake(t, f, ftp.Config{})
	ctx := testCtx(t, 10*time.Second)
	body, _, err := c.Retr(ctx, "/pub/hello.txt")
	if err != nil {
		t.Fatal(err)
	}
	n := len(f.Commands())
	if _, err := c.Cwd(ctx, "pub"); !errors.Is(err, ftp.ErrTransferOpen) {
		t.Fatalf("Cwd with a body open: %v, want ErrTransferOpen", err)
	}
	if _, _, err := c.Retr(ctx, "x"); !errors.Is(err, ftp.ErrTransferOpen) {
		t.Fatalf("Retr with a body open: %v, want ErrTransferOpen", err)
	}
	if got := len(f.Commands()); got != n {
		t.Errorf("commands were sent while the body was open: %q", f.Commands()[n:])
	}
	if _, err := io.Copy(io.Discard, body); err != nil {
		t.Fatal(err)
	}
	// At io.EOF the final reply has been read: the connection is free
	// even before Close.
	if _, err := c.Cwd(ctx, "pub"); err != nil {
		t.Fatalf("Cwd after the body's EOF: %v", err)
	}
	body.Close()
}

func TestEarlyClose(t *testing.T) {
	big := strings.Repeat("0123456789abcdef", 1<<18) // 4 MiB: more than the socket buffers
	f := testserver.NewFTPFake(t, testserver.FTPFakeOptions{Files: map[string]string{"/big": big}})
	c, _ := dialFake(t, f, ftp.Config{})
	ctx := testCtx(t, 10*time.Second)
	body, _, err := c.Retr(ctx, "big")
	if err != nil {
		t.Fatal(err)
	}
	buf := make([]byte, 10)
	if _, err := io.ReadFull(body, buf); err != nil {
		t.Fatal(err)
	}
	// The fake answers 426 to the dropped data connection: expected, so
	// not an error.
	if err := body.Close(); err != nil {
		t.Fatalf("early Close: %v", err)
	}
	if _, err := c.Cwd(ctx, "/"); err != nil {
		t.Fatalf("Cwd after early Close: %v", err)
	}
}

func TestDroppedTransfer(t *testing.T) {
	const announced = 1000
	partial := strings.Repeat("x", 100)
	tests := []struct {
		name  string
		after func(s *testserver.FTPSession) // after 100 bytes and closing the data connection
		check func(t *testing.T, err error)
	}{
		{"426", func(s *testserver.FTPSession) { s.Reply("426 Connection closed; transfer aborted.") },
			func(t *testing.T, err error) {
				var te *textproto.Error
				if !errors.As(err, &te) || te.Code != 426 {
					t.Errorf("err = %v, want 426", err)
				}
			}},
		{"226 but short", func(s *testserver.FTPSession) { s.Reply("226 Transfer complete.") },
			func(t *testing.T, err error) {
				if !errors.Is(err, ftp.ErrShortTransfer) {
					t.Errorf("err = %v, want ErrShortTransfer", err)
				}
			}},
		{"control dropped", func(s *testserver.FTPSession) { s.Drop() },
			func(t *testing.T, err error) {
				var pe *ftp.ProtocolError
				if !errors.As(err, &pe) || !errors.Is(err, io.ErrUnexpectedEOF) {
					t.Errorf("err = %v, want a *ProtocolError with io.ErrUnexpectedEOF", err)
				}
			}},
	}
	for _, tt := range tests {
		for _, zeroCopy := range []bool{false, true} {
			t.Run(fmt.Sprintf("%s/zero-copy=%v", tt.name, zeroCopy), func(t *testing.T) {
				if zeroCopy {
					zerocopy.FromStart(t, 16)
				}
				f := testserver.NewFTPFake(t, testserver.FTPFakeOptions{
					Handle: func(s *testserver.FTPSession, line string) bool {
						if line != "RETR file" {
							return false
						}
						dc, err := s.AcceptData()
						if err != nil {
							s.Reply("425 no data connection")
							return true
						}
						s.Reply("150 Opening BINARY mode data connection for file (1000 bytes).")
						dc.Write([]byte(partial))
						dc.Close()
						tt.after(s)
						return true
					},
				})
				c, _ := dialFake(t, f, ftp.Config{})
				ctx := testCtx(t, 10*time.Second)
				if _, err := c.Type(ctx, "I"); err != nil {
					t.Fatal(err)
				}
				body, size, err := c.Retr(ctx, "file")
				if err != nil {
					t.Fatal(err)
				}
				if size != announced {
					t.Errorf("size %d, want %d", size, announced)
				}
				var data []byte
				var rerr error
				if zeroCopy {
					var buf bytes.Buffer // an io.ReaderFrom
					_, rerr = io.Copy(&buf, body)
					data = buf.Bytes()
				} else {
					data, rerr = io.ReadAll(body)
				}
				if string(data) != partial {
					t.Errorf("got %d bytes, want the %d sent", len(data), len(partial))
				}
				cerr := body.Close()
				tt.check(t, rerr)
				if cerr == nil || cerr.Error() != rerr.Error() {
					t.Errorf("Close = %v, want the Read error %v", cerr, rerr)
				}
			})
		}
	}
}

// TestStall checks that a server that stops answering costs the
// context's deadline, not a hang: during the greeting, a reply, and the
// data.
func TestStall(t *testing.T) {
	stall := func(s *testserver.FTPSession) { <-s.Done() }
	// stallData sends a few bytes and stalls; the body is copied to to.
	stallData := func(to io.Writer) (testserver.FTPFakeOptions, func(ctx context.Context, addr string) error) {
		return testserver.FTPFakeOptions{Handle: func(s *testserver.FTPSession, line string) bool {
				if line == "RETR file" {
					dc, _ := s.AcceptData()
					s.Reply("150 Opening BINARY mode data connection for file (1000 bytes).")
					dc.Write([]byte("some bytes"))
					stall(s)
					dc.Close()
					return true
				}
				return false
			}}, func(ctx context.Context, addr string) error {
				c, err := ftp.Dial(ctx, addr, ftp.Config{})
				if err != nil {
					return nil
				}
				defer c.Close()
				body, _, err := c.Retr(ctx, "file")
				if err != nil {
					return nil
				}
				_, err = io.Copy(to, body)
				if cerr := body.Close(); cerr == nil || err == nil {
					return nil
				}
				// Later commands report the broken connection.
				if _, err := c.Cwd(context.Background(), "x"); err == nil || !errors.Is(err, context.DeadlineExceeded) {
					return errors.New("Cwd after the failed transfer: " + errString(err))
				}
				return err
			}
	}
	dataOpts, dataAction := stallData(io.Discard)
	zcOpts, zcAction := stallData(new(bytes.Buffer)) // an io.ReaderFrom: the zero-copy path
	tests := []struct {
		name   string
		opts   testserver.FTPFakeOptions
		action func(ctx context.Context, addr string) error
	}{
		{"greeting", testserver.FTPFakeOptions{Greeting: []string{"220-hello, wait for it"}},
			func(ctx context.Context, addr string) error {
				_, err := ftp.Dial(ctx, addr, ftp.Config{})
				return err
			}},
		{"reply", testserver.FTPFakeOptions{Handle: func(s *testserver.FTPSession, line string) bool {
			if line == "CWD pub" {
				stall(s)
				return true
			}
			return false
		}}, func(ctx context.Context, addr string) error {
			c, err := ftp.Dial(ctx, addr, ftp.Config{})
			if err != nil {
				return nil // reported as "no error" below
			}
			defer c.Close()
			_, err = c.Cwd(ctx, "pub")
			return err
		}},
		{"data", dataOpts, dataAction},
		{"data zero-copy", zcOpts, zcAction},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if strings.HasSuffix(tt.name, "zero-copy") {
				zerocopy.FromStart(t, 4)
			}
			f := testserver.NewFTPFake(t, tt.opts)
			const limit = 300 * time.Millisecond
			ctx, cancel := context.WithTimeout(context.Background(), limit)
			defer cancel()
			start := time.Now()
			err := tt.action(ctx, f.Addr)
			elapsed := time.Since(start)
			if !errors.Is(err, context.DeadlineExceeded) {
				t.Errorf("err = %v, want context.DeadlineExceeded", err)
			}
			// Not a speed assertion: a guard against hanging on the peer.
			if elapsed > limit+5*time.Second {
				t.Errorf("returned after %v with a %v deadline", elapsed, limit)
			}
		})
	}
}

func errString(err error) string {
	if err == nil {
		return "<nil>"
	}
	return err.Error()
}

func TestCancel(t *testing.T) {
	f := testserver.NewFTPFake(t, testserver.FTPFakeOptions{Handle: func(s *testserver.FTPSession, line string) bool {
		if line == "CWD pub" {
			<-s.Done()
			return true
		}
		return false
	}})
	c, _ := dialFake(t, f, ftp.Config{})
	ctx, cancel := context.WithCancel(context.Background())
	time.AfterFunc(100*time.Millisecond, cancel)
	if _, err := c.Cwd(ctx, "pub"); !errors.Is(err, context.Canceled) {
		t.Fatalf("Cwd = %v, want context.Canceled", err)
	}
	if _, err := c.Cwd(context.Background(), "pub"); !errors.Is(err, context.Canceled) {
		t.Errorf("Cwd on the cancelled connection = %v, want the first error", err)
	}
}

func TestCloseAborts(t *testing.T) {
	// Close from another goroutine interrupts a body blocked on a stalled server.
	f := testserver.NewFTPFake(t, testserver.FTPFakeOptions{Handle: func(s *testserver.FTPSession, line string) bool {
		if line == "RETR file" {
			dc, _ := s.AcceptData()
			s.Reply("150 Opening BINARY mode data connection for file.")
			<-s.Done()
			dc.Close()
			return true
		}
		return false
	}})
	c, _ := dialFake(t, f, ftp.Config{})
	body, _, err := c.Retr(context.Background(), "file")
	if err != nil {
		t.Fatal(err)
	}
	time.AfterFunc(100*time.Millisecond, func() { c.Close() })
	if _, err := io.ReadAll(body); err == nil {
		t.Fatal("ReadAll succeeded on a closed connection")
	}
}

func TestBadReplies(t *testing.T) {
	tests := []struct {
		name   string
		cfg    ftp.Config
		reply  string // raw answer to "CWD pub"
		reason string // in the ProtocolError
	}{
		{"garbage", ftp.Config{}, "garbage\r\n", "three-digit code"},
		{"code 600", ftp.Config{}, "600 no such class\r\n", "three-digit code"},
		{"no separator", ftp.Config{}, "250x\r\n", "three-digit code"},
		{"line too long", ftp.Config{MaxLineLength: 64}, "250 " + strings.Repeat("a", 100) + "\r\n", "longer than 64 bytes"},
		{"line too long default", ftp.Config{}, "250 " + strings.Repeat("a", 5000) + "\r\n", "longer than 4096 bytes"},
		{"line too long bare LF", ftp.Config{MaxLineLength: 40}, "250 " + strings.Repeat("a", 37) + "\n", "longer than 40 bytes"},
		{"too many lines", ftp.Config{MaxReplyLines: 5}, "250-a\r\n" + strings.Repeat("more\r\n", 10) + "250 end\r\n", "longer than 5 lines"},
		{"EOF mid reply", ftp.Config{}, "250-first line\r\nsecond", "closed in the middle"},
		{"EOF before reply", ftp.Config{}, "", "closed before the reply"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f := testserver.NewFTPFake(t, testserver.FTPFakeOptions{Handle: func(s *testserver.FTPSession, line string) bool {
				if line == "CWD pub" {
					s.Raw(tt.reply)
					if strings.Contains(tt.name, "EOF") {
						s.Drop()
					}
					return true
				}
				return false
			}})
			c, _ := dialFake(t, f, tt.cfg)
			ctx := testCtx(t, 5*time.Second)
			_, err := c.Cwd(ctx, "pub")
			var pe *ftp.ProtocolError
			if !errors.As(err, &pe) {
				t.Fatalf("err = %v, want *ProtocolError", err)
			}
			if pe.Cmd != "CWD pub" || !strings.Contains(pe.Reason, tt.reason) {
				t.Errorf("ProtocolError %+v, want Cmd \"CWD pub\" and reason with %q", pe, tt.reason)
			}
			if len(pe.Line) > 125 {
				t.Errorf("ProtocolError.Line is %d bytes long", len(pe.Line))
			}
			// The connection is given up.
			if _, err := c.Cwd(ctx, "pub"); !errors.As(err, &pe) {
				t.Errorf("next command: %v, want the first error", err)
			}
		})
	}
}

func TestMultiLineReplies(t *testing.T) {
	greeting := []string{"220-Welcome to the fake.", "220-Second line.", "  text without a code", "220 Ready."}
	f := testserver.NewFTPFake(t, testserver.FTPFakeOptions{
		Greeting: greeting,
		Handle: func(s *testserver.FTPSession, line string) bool {
			if line == "CWD pub" {
				// RFC 959 §4.2: inner lines that start with digits are text.
				s.Reply("250-Directory changed.", "250-", "123 not the end", "250 The end.")
				return true
			}
			return false
		},
	})
	c, tr := dialFake(t, f, ftp.Config{})
	if got, want := tr.String(), "< "+strings.Join(greeting, "\n< "); !strings.HasPrefix(got, want) {
		t.Errorf("trace starts\n%s\nwant\n%s", got, want)
	}
	rep, err := c.Cwd(testCtx(t, 5*time.Second), "pub")
	if err != nil {
		t.Fatal(err)
	}
	want := ftp.Reply{Code: 250, Msg: "Directory changed.\n\n123 not the end\nThe end."}
	if rep != want {
		t.Errorf("reply %q, want %q", rep, want)
	}
}

func TestGreetings(t *testing.T) {
	tests := []struct {
		greeting []string
		code     int // 0: success
	}{
		{[]string{"220 (vsFTPd 3.0.3)"}, 0},
		{[]string{"120 Ready in 1 minute.", "220 Ready now."}, 0}, // RFC 959 §5.4
		{[]string{"220"}, 0},                                      // no text at all
		{[]string{"421 Too many users."}, 421},
		{[]string{"530 Not from your address."}, 530},
	}
	for _, tt := range tests {
		t.Run(tt.greeting[0], func(t *testing.T) {
			f := testserver.NewFTPFake(t, testserver.FTPFakeOptions{Greeting: tt.greeting})
			c, err := ftp.Dial(testCtx(t, 5*time.Second), f.Addr, ftp.Config{})
			if tt.code == 0 {
				if err != nil {
					t.Fatal(err)
				}
				c.Close()
				return
			}
			var te *textproto.Error
			if !errors.As(err, &te) || te.Code != tt.code {
				t.Fatalf("Dial err = %v, want %d", err, tt.code)
			}
		})
	}
}

func TestPASV(t *testing.T) {
	files := map[string]string{"/f": "data over PASV\n"}
	t.Run("other IP", func(t *testing.T) {
		// The server's 227 names 10.255.1.2; the client goes to 127.0.0.1
		// (the control peer) with the port and says so in the trace.
		f := testserver.NewFTPFake(t, testserver.FTPFakeOptions{Files: files, NoEPSV: true, PASVHost: "10.255.1.2"})
		c, tr := dialFake(t, f, ftp.Config{})
		ctx := testCtx(t, 10*time.Second)
		for i := 0; i < 2; i++ {
			body, _, err := c.Retr(ctx, "f")
			if err != nil {
				t.Fatal(err)
			}
			data, err := io.ReadAll(body)
			body.Close()
			if err != nil || string(data) != files["/f"] {
				t.Fatalf("ReadAll = %q, %v", data, err)
			}
		}
		// EPSV refused once is not tried again (RFC 2428 §4).
		want := append(slices.Clone(login), "EPSV", "PASV", "RETR f", "PASV", "RETR f")
		if cmds := f.Commands(); !slices.Equal(cmds, want) {
			t.Errorf("commands %q, want %q", cmds, want)
		}
		if !strings.Contains(tr.String(), "! PASV address 10.255.1.2 ignored: the data connection goes to the control peer 127.0.0.1") {
			t.Errorf("no '!' note about the PASV address in the trace:\n%s", tr)
		}
	})
	t.Run("DisableEPSV", func(t *testing.T) {
		f := testserver.NewFTPFake(t, testserver.FTPFakeOptions{Files: files})
		c, tr := dialFake(t, f, ftp.Config{DisableEPSV: true})
		body, _, err := c.Retr(testCtx(t, 10*time.Second), "f")
		if err != nil {
			t.Fatal(err)
		}
		body.Close()
		want := append(slices.Clone(login), "PASV", "RETR f")
		if cmds := f.Commands(); !slices.Equal(cmds, want) {
			t.Errorf("commands %q, want %q", cmds, want)
		}
		if strings.Contains(tr.String(), "!") {
			t.Errorf("unexpected note:\n%s", tr)
		}
	})
	t.Run("EPSV 425 is an error", func(t *testing.T) {
		f := testserver.NewFTPFake(t, testserver.FTPFakeOptions{Handle: func(s *testserver.FTPSession, line string) bool {
			if line == "EPSV" {
				s.Reply("425 Cannot open data connection.")
				return true
			}
			return false
		}})
		c, _ := dialFake(t, f, ftp.Config{})
		_, _, err := c.Retr(testCtx(t, 10*time.Second), "f")
		var te *textproto.Error
		if !errors.As(err, &te) || te.Code != 425 || !strings.HasPrefix(err.Error(), "ftp: EPSV: 425") {
			t.Errorf("err = %v, want ftp: EPSV: 425", err)
		}
	})
}

func TestLogin(t *testing.T) {
	const secret = "s3cr3t-pw"
	tests := []struct {
		name    string
		cred    ftp.Credentials
		handle  func(s *testserver.FTPSession, line string) bool
		want    []string // command lines received
		errIs   error
		code    int // *textproto.Error code expected, or 0
		repCode int // reply code on success
	}{
		{"anonymous", ftp.Credentials{}, nil, []string{"USER anonymous", "PASS anonymous@"}, nil, 0, 230},
		{"anonymous with e-mail", ftp.Credentials{Password: "me@example.com"}, nil,
			[]string{"USER anonymous", "PASS me@example.com"}, nil, 0, 230},
		{"user and password", ftp.Credentials{User: "me", Password: secret, HasPassword: true}, nil,
			[]string{"USER me", "PASS " + secret}, nil, 0, 230},
		{"empty password", ftp.Credentials{User: "me", HasPassword: true}, nil,
			[]string{"USER me", "PASS "}, nil, 0, 230},
		{"asked", ftp.Credentials{User: "me", AskPassword: func() (string, error) { return secret, nil }}, nil,
			[]string{"USER me", "PASS " + secret}, nil, 0, 230},
		{"ask fails", ftp.Credentials{User: "me", AskPassword: func() (string, error) { return "", io.ErrUnexpectedEOF }}, nil,
			[]string{"USER me"}, io.ErrUnexpectedEOF, 0, 0},
		// RFC 1738 §3.2.1: no password and no way to ask.
		{"331 without password", ftp.Credentials{User: "me"}, nil, []string{"USER me"}, ftp.ErrPasswordRequired, 0, 0},
		{"230 after USER", ftp.Credentials{User: "me"}, func(s *testserver.FTPSession, line string) bool {
			if line == "USER me" {
				s.Reply("230 No password needed.")
				return true
			}
			return false
		}, []string{"USER me"}, nil, 0, 230},
		{"530", ftp.Credentials{User: "me", Password: secret, HasPassword: true}, func(s *testserver.FTPSession, line string) bool {
			if strings.HasPrefix(line, "PASS") {
				s.Reply("530 Login incorrect.")
				return true
			}
			return false
		}, []string{"USER me", "PASS " + secret}, nil, 530, 0},
		{"530 to USER", ftp.Credentials{User: "root"}, func(s *testserver.FTPSession, line string) bool {
			if strings.HasPrefix(line, "USER") {
				s.Reply("530 Permission denied.")
				return true
			}
			return false
		}, []string{"USER root"}, nil, 530, 0},
		{"332", ftp.Credentials{User: "me", Password: secret, HasPassword: true}, func(s *testserver.FTPSession, line string) bool {
			if strings.HasPrefix(line, "PASS") {
				s.Reply("332 Need account for login.")
				return true
			}
			return false
		}, []string{"USER me", "PASS " + secret}, ftp.ErrAccountRequired, 0, 0},
		{"202 to PASS", ftp.Credentials{User: "me", Password: secret, HasPassword: true}, func(s *testserver.FTPSession, line string) bool {
			if strings.HasPrefix(line, "PASS") {
				s.Reply("202 Already logged in.")
				return true
			}
			return false
		}, []string{"USER me", "PASS " + secret}, nil, 0, 202},
		{"password with CRLF", ftp.Credentials{User: "me", Password: secret + "\r\nDELE x", HasPassword: true}, nil,
			nil, ftp.ErrUnsafeArgument, 0, 0},
		{"user with NUL", ftp.Credentials{User: "me\x00"}, nil, nil, ftp.ErrUnsafeArgument, 0, 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f := testserver.NewFTPFake(t, testserver.FTPFakeOptions{Handle: tt.handle})
			tr := &tracer{}
			ctx := testCtx(t, 5*time.Second)
			c, err := ftp.Dial(ctx, f.Addr, ftp.Config{Trace: tr.trace})
			if err != nil {
				t.Fatal(err)
			}
			defer c.Close()
			rep, err := c.Login(ctx, tt.cred)
			switch {
			case tt.errIs != nil:
				if !errors.Is(err, tt.errIs) {
					t.Errorf("err = %v, want %v", err, tt.errIs)
				}
			case tt.code != 0:
				var te *textproto.Error
				if !errors.As(err, &te) || te.Code != tt.code {
					t.Errorf("err = %v, want %d", err, tt.code)
				}
			case err != nil:
				t.Errorf("err = %v", err)
			case rep.Code != tt.repCode:
				t.Errorf("reply %v, want %d", rep, tt.repCode)
			}
			// Make sure the fake has seen everything before comparing.
			c.Quit(ctx)
			got := f.Commands()
			if len(got) > 0 && got[len(got)-1] == "QUIT" {
				got = got[:len(got)-1]
			}
			if !slices.Equal(got, tt.want) {
				t.Errorf("commands %q, want %q", got, tt.want)
			}
			for _, s := range []string{tr.String(), errString(err)} {
				if strings.Contains(s, secret) {
					t.Errorf("the password shows in %q", s)
				}
			}
			if slices.Contains(tt.want, "PASS "+secret) && !strings.Contains(tr.String(), "> PASS ****") {
				t.Errorf("trace lacks \"PASS ****\":\n%s", tr)
			}
		})
	}
}

func TestDataPortGuard(t *testing.T) {
	// RFC 1738 §6: a 229 or 227 naming port 25 must not make the client
	// connect there and save the SMTP banner as the file.
	smtp, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer smtp.Close()
	smtpPort := smtp.Addr().(*net.TCPAddr).Port
	go func() {
		for {
			c, err := smtp.Accept()
			if err != nil {
				return
			}
			c.Write([]byte("220 smtp.example ESMTP\r\n"))
			c.Close()
		}
	}()
	refuse := errors.New("port refused by the test's guard")
	for _, noEPSV := range []bool{false, true} {
		t.Run(fmt.Sprintf("NoEPSV=%v", noEPSV), func(t *testing.T) {
			f := testserver.NewFTPFake(t, testserver.FTPFakeOptions{Files: fakeTree, NoEPSV: noEPSV, DataPort: smtpPort})
			var asked []int
			c, _ := dialFake(t, f, ftp.Config{CheckDataPort: func(port int) error {
				asked = append(asked, port)
				return refuse
			}})
			ctx := testCtx(t, 5*time.Second)
			body, _, err := c.Retr(ctx, "/etc/motd")
			if err == nil {
				data, _ := io.ReadAll(body)
				body.Close()
				t.Fatalf("Retr followed the data port %d: got %q", smtpPort, data)
			}
			if !errors.Is(err, refuse) || !strings.Contains(err.Error(), fmt.Sprintf("data connection to port %d refused", smtpPort)) {
				t.Errorf("err = %v, want the guard's refusal naming port %d", err, smtpPort)
			}
			if !slices.Equal(asked, []int{smtpPort}) {
				t.Errorf("guard asked about %v, want [%d]", asked, smtpPort)
			}
			// The control connection is still in step.
			if _, err := c.Cwd(ctx, "/etc"); err != nil {
				t.Errorf("Cwd after the refusal: %v", err)
			}
		})
	}
}

func TestTelnetIAC(t *testing.T) {
	// RFC 959 §4, RFC 854: the control connection is Telnet; a decoded
	// 0xFF goes out as IAC IAC, never as a lone IAC that a Telnet-aware
	// server reads as a command (0xFF 0xF4 is Interrupt Process).
	f := testserver.NewFTPFake(t, testserver.FTPFakeOptions{Files: fakeTree})
	c, tr := dialFake(t, f, ftp.Config{})
	ctx := testCtx(t, 5*time.Second)
	c.Cwd(ctx, "d\xff\xf4")
	c.Login(ctx, ftp.Credentials{User: "u\xff", Password: "p\xffw", HasPassword: true})
	cmds := f.Commands()
	want := []string{"CWD d\xff\xff\xf4", "USER u\xff\xff", "PASS p\xff\xffw"}
	if got := cmds[len(cmds)-3:]; !slices.Equal(got, want) {
		t.Errorf("commands on the wire %q, want %q", got, want)
	}
	// The trace shows the argument as the caller gave it.
	if !strings.Contains(tr.String(), "> CWD d\xff\xf4") {
		t.Errorf("trace:\n%s", tr)
	}
}

func TestUnsafeArguments(t *testing.T) {
	f := testserver.NewFTPFake(t, testserver.FTPFakeOptions{Files: fakeTree})
	c, _ := dialFake(t, f, ftp.Config{})
	ctx := testCtx(t, 5*time.Second)
	before := f.Commands()
	calls := []struct {
		name   string
		call   func() error
		offset int
	}{
		{"Cwd", func() error { _, err := c.Cwd(ctx, "pub\r\nDELE x"); return err }, 3},
		{"Type", func() error { _, err := c.Type(ctx, "I\n"); return err }, 1},
		{"Retr", func() error { _, _, err := c.Retr(ctx, "a\x00b"); return err }, 1},
		{"Nlst", func() error { _, err := c.Nlst(ctx, "\rx"); return err }, 0},
		{"List", func() error { _, err := c.List(ctx, "x\n"); return err }, 1},
	}
	for _, tt := range calls {
		err := tt.call()
		var ae *ftp.ArgumentError
		if !errors.Is(err, ftp.ErrUnsafeArgument) || !errors.As(err, &ae) || ae.Offset != tt.offset {
			t.Errorf("%s: err = %v, want ErrUnsafeArgument at %d", tt.name, err, tt.offset)
		}
	}
	// Nothing was sent, not even EPSV, and the connection is fine.
	if after := f.Commands(); !slices.Equal(after, before) {
		t.Errorf("commands were sent: %q", after[len(before):])
	}
	if _, err := c.Cwd(ctx, "pub"); err != nil {
		t.Errorf("Cwd after refusals: %v", err)
	}
}

func TestListings(t *testing.T) {
	f := testserver.NewFTPFake(t, testserver.FTPFakeOptions{Files: fakeTree})
	c, _ := dialFake(t, f, ftp.Config{})
	ctx := testCtx(t, 5*time.Second)
	read := func(body io.ReadCloser, err error) string {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
		var b bytes.Buffer
		if _, err := b.ReadFrom(body); err != nil {
			t.Fatal(err)
		}
		if err := body.Close(); err != nil {
			t.Fatal(err)
		}
		return b.String()
	}
	if got, want := read(c.Nlst(ctx, "")), "etc\r\nhome\r\npub\r\n"; got != want {
		t.Errorf("NLST = %q, want %q", got, want)
	}
	if got := read(c.List(ctx, "pub/nested")); !strings.HasSuffix(got, " pub/nested/in.txt\r\n") {
		t.Errorf("LIST pub/nested = %q", got)
	}
	want := append(slices.Clone(login), "EPSV", "NLST", "EPSV", "LIST pub/nested")
	if cmds := f.Commands(); !slices.Equal(cmds, want) {
		t.Errorf("commands %q, want %q", cmds, want)
	}
}

func TestClosedConn(t *testing.T) {
	f := testserver.NewFTPFake(t, testserver.FTPFakeOptions{})
	c, _ := dialFake(t, f, ftp.Config{})
	if err := c.Quit(testCtx(t, 5*time.Second)); err != nil {
		t.Fatal(err)
	}
	if err := c.Close(); err != nil {
		t.Errorf("Close after Quit: %v", err)
	}
	if _, err := c.Cwd(context.Background(), "x"); !errors.Is(err, net.ErrClosed) {
		t.Errorf("Cwd after Quit: %v, want net.ErrClosed", err)
	}
}

// TestZeroCopy checks the body's zero-copy WriteTo: into an *os.File
// (splice(2) from the data socket) the bytes are those sent and the
// connection stays usable; a writer's own failure is returned as it is,
// and the control connection survives it (the server's 426 to the
// dropped data connection is expected). The faults of the data
// connection are TestDroppedTransfer's and TestStall's zero-copy cases.
func TestZeroCopy(t *testing.T) {
	big := strings.Repeat("0123456789abcdef", 1<<18) // 4 MiB: more than the socket buffers
	f := testserver.NewFTPFake(t, testserver.FTPFakeOptions{Files: map[string]string{"/big": big}})
	zerocopy.FromStart(t, 64<<10)
	c, _ := dialFake(t, f, ftp.Config{})
	ctx := testCtx(t, 10*time.Second)
	if _, err := c.Type(ctx, "I"); err != nil {
		t.Fatal(err)
	}

	body, _, err := c.Retr(ctx, "big")
	if err != nil {
		t.Fatal(err)
	}
	out, err := os.Create(filepath.Join(t.TempDir(), "big"))
	if err != nil {
		t.Fatal(err)
	}
	defer out.Close()
	n, err := io.Copy(out, body)
	if err != nil || n != int64(len(big)) {
		t.Fatalf("copy: %d bytes, %v", n, err)
	}
	if err := body.Close(); err != nil {
		t.Fatal(err)
	}
	if got, _ := os.ReadFile(out.Name()); string(got) != big {
		t.Fatalf("the file differs from the %d bytes sent (%d bytes)", len(big), len(got))
	}

	body, _, err = c.Retr(ctx, "big")
	if err != nil {
		t.Fatal(err)
	}
	n, err = io.Copy(&testserver.FailAfter{N: 100 << 10}, body)
	if !errors.Is(err, testserver.ErrDiskFull) || n != 100<<10 {
		t.Errorf("copy to a failing writer: %d bytes, %v; want %d, %v", n, err, 100<<10, testserver.ErrDiskFull)
	}
	if err := body.Close(); err != nil {
		t.Errorf("Close after the writer failed: %v", err)
	}
	if _, err := c.Cwd(ctx, "/"); err != nil {
		t.Fatalf("Cwd after the writer failed: %v", err)
	}
}
