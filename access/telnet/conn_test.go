package telnet

import (
	"bytes"
	"context"
	"errors"
	"io"
	"net"
	"strings"
	"testing"
	"time"
)

// fakeServer accepts one connection on 127.0.0.1:0 and hands it to serve.
func fakeServer(t *testing.T, serve func(c net.Conn)) string {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	done := make(chan struct{})
	go func() {
		defer close(done)
		c, err := l.Accept()
		if err != nil {
			return
		}
		defer c.Close()
		c.SetDeadline(time.Now().Add(10 * time.Second))
		serve(c)
	}()
	t.Cleanup(func() {
		l.Close()
		<-done
	})
	return l.Addr().String()
}

func readN(c net.Conn, n int) []byte {
	b := make([]byte, n)
	k, _ := io.ReadFull(c, b)
	return b[:k]
}

func dialTest(t *testing.T, addr string, cfg Config) *Conn {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	c, err := Dial(ctx, addr, cfg)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Close() })
	c.SetDeadline(time.Now().Add(10 * time.Second))
	return c
}

// TestConnReadAnswers: a packet of pure negotiation does not surface as an
// empty Read; the answers reach the server before the data is returned.
func TestConnReadAnswers(t *testing.T) {
	answers := make(chan []byte, 1)
	addr := fakeServer(t, func(c net.Conn) {
		c.Write(telnetdOpening)
		answers <- readN(c, len(telnetdOpening))
		c.Write(cat("login: ", IAC, IAC, "\r", 0))
	})
	c := dialTest(t, addr, Config{})
	got, err := io.ReadAll(c)
	if err != nil {
		t.Fatal(err)
	}
	if string(got) != "login: \xff\r" {
		t.Errorf("data = %q", got)
	}
	want := cat(IAC, DONT, optAuth, IAC, DONT, optEncrypt,
		IAC, WONT, optTTYPE, IAC, WONT, optTSpeed, IAC, WONT, optXDispLoc,
		IAC, WONT, optNewEnviron, IAC, WONT, optOldEnviron)
	if a := <-answers; !bytes.Equal(a, want) {
		t.Errorf("answers\n% x\nwant\n% x", a, want)
	}
}

// TestConnWrite: NVT form on the wire (RFC 854), negotiation answers kept
// in order before the data.
func TestConnWrite(t *testing.T) {
	got := make(chan []byte, 1)
	addr := fakeServer(t, func(c net.Conn) {
		b, _ := io.ReadAll(c)
		got <- b
	})
	c := dialTest(t, addr, Config{})
	if err := c.SetWindowSize(80, 24); err != nil {
		t.Fatal(err)
	}
	// The CR of the second CR LF is the last byte of the first chunk.
	in := "ls\r\xff\r\n" + strings.Repeat("x", writeChunk-7) + "\r\nend\r"
	n, err := c.Write([]byte(in))
	if err != nil || n != len(in) {
		t.Fatalf("Write = %d, %v; want %d", n, err, len(in))
	}
	c.Close()
	want := cat(IAC, WILL, optNAWS, "ls\r", 0, IAC, IAC, "\r\n", strings.Repeat("x", writeChunk-7), "\r\nend\r", 0)
	if b := <-got; !bytes.Equal(b, want) {
		i := 0
		for i < min(len(b), len(want)) && b[i] == want[i] {
			i++
		}
		t.Errorf("wire differs at byte %d of %d: got %q, want %q",
			i, len(want), b[max(i-4, 0):min(i+4, len(b))], want[max(i-4, 0):min(i+4, len(want))])
	}
}

func TestSetWindowSizeRange(t *testing.T) {
	addr := fakeServer(t, func(c net.Conn) { io.Copy(io.Discard, c) })
	c := dialTest(t, addr, Config{})
	for _, s := range [][2]int{{-1, 24}, {80, 65536}} {
		if err := c.SetWindowSize(s[0], s[1]); err == nil {
			t.Errorf("SetWindowSize(%d, %d) succeeded", s[0], s[1])
		}
	}
}

type refuseDialer struct{ called bool }

func (d *refuseDialer) DialContext(ctx context.Context, network, addr string) (net.Conn, error) {
	d.called = true
	return nil, errors.New("refused by test dialer")
}

// TestDialTerminalType: RFC 1738 §6 — a name that would put CR, LF or NUL
// (or anything unprintable) on the wire is refused before connecting.
func TestDialTerminalType(t *testing.T) {
	for _, tt := range []string{"xterm\r\nIAC", "vt\x00100", "two words", "\xffxterm", strings.Repeat("A", 41)} {
		d := &refuseDialer{}
		_, err := Dial(context.Background(), "127.0.0.1:23", Config{TerminalType: tt, Dialer: d})
		if err == nil || d.called {
			t.Errorf("TerminalType %q: err %v, dialed %v", tt, err, d.called)
		}
	}
	d := &refuseDialer{}
	_, err := Dial(context.Background(), "127.0.0.1:23", Config{TerminalType: "xterm-256color", Dialer: d})
	if err == nil || !d.called || !strings.Contains(err.Error(), "127.0.0.1:23") {
		t.Errorf("valid type: err %v, dialed %v", err, d.called)
	}
}

type recordDialer struct{ addr string }

func (d *recordDialer) DialContext(ctx context.Context, network, addr string) (net.Conn, error) {
	d.addr = addr
	return nil, errors.New("recorded")
}

// TestDialDefaultPort: RFC 1738 §3.8, port 23 when none is given.
func TestDialDefaultPort(t *testing.T) {
	for _, tt := range []struct{ in, want string }{
		{"host.example", "host.example:23"},
		{"host.example:2323", "host.example:2323"},
		{"[::1]", "[::1]:23"},
		{"[::1]:99", "[::1]:99"},
		{"10.0.0.1", "10.0.0.1:23"},
	} {
		d := &recordDialer{}
		Dial(context.Background(), tt.in, Config{Dialer: d})
		if d.addr != tt.want {
			t.Errorf("Dial(%q) dialed %q, want %q", tt.in, d.addr, tt.want)
		}
	}
}

// TestDialContext: an expired context stops the dial.
func TestDialContext(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	_, err := Dial(ctx, "127.0.0.1:1", Config{})
	if !errors.Is(err, context.Canceled) {
		t.Errorf("err = %v, want context.Canceled", err)
	}
}

func BenchmarkRead(b *testing.B) {
	in := bytes.Repeat([]byte("a line of terminal output, with a \xff\xff and CR\r\x00 \r\n"), 64)
	buf := make([]byte, len(in))
	var n negotiator
	b.SetBytes(int64(len(in)))
	b.ReportAllocs()
	for b.Loop() {
		copy(buf, in)
		n.process(buf)
	}
}

func BenchmarkWrite(b *testing.B) {
	in := bytes.Repeat([]byte("typed keys \r and a \xff\r\n"), 128)
	var out []byte
	b.SetBytes(int64(len(in)))
	b.ReportAllocs()
	for b.Loop() {
		out = appendData(out[:0], in)
	}
}
