package testserver

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"net"
	"net/textproto"
	"strings"
	"sync"
	"testing"
)

// NNTPStep is one exchange of a scripted NNTP session: the command the
// client must send, then what the fake answers.
type NNTPStep struct {
	// Expect is the exact command line the client must send, without CRLF.
	Expect string
	// Reply is sent back; each "\n" goes out as CRLF unless Raw is set.
	Reply string
	// Raw sends Reply byte for byte (bare LFs, truncated lines).
	Raw bool
	// Close hangs up right after Reply (a peer that drops mid-reply).
	Close bool
	// Stall sends Reply, then nothing more: the fake waits until the client
	// hangs up or the test ends (a peer that stops answering).
	Stall bool
}

// NNTPHandler answers one command line for NNTPFakeFunc by writing to w
// (flushed by the fake). Returning false hangs up.
type NNTPHandler func(cmd string, w *bufio.Writer) bool

// NNTPFake is a scripted NNTP server on 127.0.0.1. Each connection gets the
// greeting and then the whole script; every command line received, from
// every connection, is recorded in order. After the script, QUIT is
// answered "205" and anything else is a mismatch. Mismatches (a command
// other than the one expected) are answered "500" and reported as test
// errors when the test ends.
type NNTPFake struct {
	Addr string // host:port on 127.0.0.1

	t        testing.TB
	ln       net.Listener
	greeting string
	steps    []NNTPStep
	handler  NNTPHandler

	mu       sync.Mutex
	cmds     []string
	problems []string
	conns    map[net.Conn]struct{}
	wg       sync.WaitGroup
}

// NNTPFakeServer starts a fake that sends greeting (e.g. "200 fake ready")
// and then plays steps on each connection.
func NNTPFakeServer(t testing.TB, greeting string, steps ...NNTPStep) *NNTPFake {
	t.Helper()
	return startNNTPFake(t, greeting, steps, nil)
}

// NNTPFakeFunc starts a fake that sends greeting and answers every command
// with h, for servers too big to script line by line (benchmarks). It does
// not record commands (h sees them all), so its memory stays flat.
func NNTPFakeFunc(t testing.TB, greeting string, h NNTPHandler) *NNTPFake {
	t.Helper()
	return startNNTPFake(t, greeting, nil, h)
}

func startNNTPFake(t testing.TB, greeting string, steps []NNTPStep, h NNTPHandler) *NNTPFake {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatalf("nntp fake: listen: %v", err)
	}
	f := &NNTPFake{
		Addr:     ln.Addr().String(),
		t:        t,
		ln:       ln,
		greeting: greeting,
		steps:    steps,
		handler:  h,
		conns:    map[net.Conn]struct{}{},
	}
	f.wg.Add(1)
	go f.accept()
	t.Cleanup(f.close)
	return f
}

// Commands returns the command lines received so far, in order.
func (f *NNTPFake) Commands() []string {
	f.mu.Lock()
	defer f.mu.Unlock()
	return append([]string(nil), f.cmds...)
}

func (f *NNTPFake) close() {
	f.ln.Close()
	f.mu.Lock()
	for c := range f.conns {
		c.Close()
	}
	f.mu.Unlock()
	f.wg.Wait()
	f.mu.Lock()
	defer f.mu.Unlock()
	for _, p := range f.problems {
		f.t.Errorf("nntp fake: %s", p)
	}
}

func (f *NNTPFake) accept() {
	defer f.wg.Done()
	for {
		c, err := f.ln.Accept()
		if err != nil {
			return
		}
		f.mu.Lock()
		f.conns[c] = struct{}{}
		f.mu.Unlock()
		f.wg.Add(1)
		go func() {
			defer f.wg.Done()
			defer func() {
				c.Close()
				f.mu.Lock()
				delete(f.conns, c)
				f.mu.Unlock()
			}()
			f.serve(c)
		}()
	}
}

func (f *NNTPFake) problem(format string, args ...any) {
	f.mu.Lock()
	f.problems = append(f.problems, fmt.Sprintf(format, args...))
	f.mu.Unlock()
}

func (f *NNTPFake) serve(c net.Conn) {
	r := textproto.NewReader(bufio.NewReader(c))
	w := bufio.NewWriter(c)
	w.WriteString(f.greeting + "\r\n")
	if w.Flush() != nil {
		return
	}
	for i := 0; ; i++ {
		line, err := r.ReadLine()
		if err != nil {
			if i < len(f.steps) && !errors.Is(err, io.EOF) && !errors.Is(err, net.ErrClosed) {
				f.problem("reading command %d: %v", i+1, err)
			}
			return
		}
		if f.handler != nil {
			ok := f.handler(line, w)
			if w.Flush() != nil || !ok {
				return
			}
			continue
		}
		f.mu.Lock()
		f.cmds = append(f.cmds, line)
		f.mu.Unlock()
		if i >= len(f.steps) {
			if strings.EqualFold(line, "QUIT") {
				w.WriteString("205 bye\r\n")
				w.Flush()
				return
			}
			f.problem("command %q after the end of the script", line)
			w.WriteString("500 fake: script is over\r\n")
			w.Flush()
			return
		}
		s := f.steps[i]
		if line != s.Expect {
			f.problem("command %d: got %q, want %q", i+1, line, s.Expect)
			w.WriteString("500 fake: unexpected command\r\n")
			w.Flush()
			return
		}
		reply := s.Reply
		if !s.Raw {
			reply = strings.ReplaceAll(reply, "\n", "\r\n")
		}
		w.WriteString(reply)
		if w.Flush() != nil || s.Close {
			return
		}
		if s.Stall {
			io.Copy(io.Discard, c) // until the client hangs up or close() closes c
			return
		}
	}
}

// BigGroupOverview returns the OVER reply of a fake group big.group of n
// articles, rendered once so a benchmark's server costs nothing per
// request: the 224 status line, n overview lines and the final ".".
func BigGroupOverview(n int) []byte {
	over := []byte("224 Overview information follows\r\n")
	for i := 1; i <= n; i++ {
		over = fmt.Appendf(over, "%d\tSubject of article %d in a group that is big\tPoster %d <p%d@example.com>\tSat, 21 Nov 2026 04:%02d:00 +0000\t<%d.big@example.com>\t<%d.big@example.com>\t%d\t%d\tXref: fake big.group:%d\r\n",
			i, i, i%97, i%97, i%60, i, max(1, i-1), 1000+i%500, 10+i%40, i)
	}
	return append(over, ".\r\n"...)
}
