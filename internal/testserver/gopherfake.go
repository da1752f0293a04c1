package testserver

import (
	"bufio"
	"bytes"
	"io"
	"net"
	"sync"
	"testing"
	"time"
)

// GopherReply scripts what a GopherFake does on one connection.
type GopherReply struct {
	// Reply is written, as is, once the request has been read.
	Reply []byte
	// Hold keeps the connection open after Reply until the client closes
	// it: a server that stalls mid-item. Without Hold the fake closes the
	// connection after Reply, as a Gopher server does.
	Hold bool
}

// GopherFake is a scripted Gopher server on 127.0.0.1: it records the raw
// bytes of each request and answers connection i with replies[i] (the last
// reply again for later connections).
//
// A request is read up to its first LF; when the request line has a third
// TAB-separated field "1" (the Gopher+ "request with a data block", RFC 1738
// §3.4.9), the data block is read too, up to its lone "." line.
type GopherFake struct {
	Addr string // host:port of the listener

	ln       net.Listener
	replies  []GopherReply
	route    func(addr string, request []byte) GopherReply
	mu       sync.Mutex
	requests [][]byte
	conns    map[net.Conn]bool
	next     int
	wg       sync.WaitGroup
}

// NewGopherFake starts a fake with the given script; the test's cleanup
// stops it and closes any connection still open.
func NewGopherFake(t testing.TB, replies ...GopherReply) *GopherFake {
	t.Helper()
	if len(replies) == 0 {
		t.Fatal("NewGopherFake: no replies scripted")
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatalf("gopher fake: %v", err)
	}
	f := &GopherFake{Addr: ln.Addr().String(), ln: ln, replies: replies, conns: map[net.Conn]bool{}}
	f.wg.Add(1)
	go f.serve()
	t.Cleanup(f.close)
	return f
}

// NewGopherRouter starts a fake that answers each request with what
// route returns for it (the raw request bytes, as Requests records them),
// given the fake's own address so that a menu can point back at it.
func NewGopherRouter(t testing.TB, route func(addr string, request []byte) GopherReply) *GopherFake {
	t.Helper()
	f := NewGopherFake(t, GopherReply{})
	f.mu.Lock()
	f.route = route
	f.mu.Unlock()
	return f
}

// Requests returns a copy of the raw request bytes received so far, one
// entry per connection, in the order the connections were accepted.
func (f *GopherFake) Requests() [][]byte {
	f.mu.Lock()
	defer f.mu.Unlock()
	out := make([][]byte, len(f.requests))
	for i, r := range f.requests {
		out[i] = bytes.Clone(r)
	}
	return out
}

func (f *GopherFake) serve() {
	defer f.wg.Done()
	for {
		c, err := f.ln.Accept()
		if err != nil {
			return
		}
		f.mu.Lock()
		i := f.next
		f.next++
		f.requests = append(f.requests, nil)
		f.conns[c] = true
		reply := f.replies[min(i, len(f.replies)-1)]
		route := f.route
		f.mu.Unlock()
		f.wg.Add(1)
		go f.handle(c, i, reply, route)
	}
}

func (f *GopherFake) handle(c net.Conn, i int, reply GopherReply, route func(string, []byte) GopherReply) {
	defer f.wg.Done()
	defer func() {
		f.mu.Lock()
		delete(f.conns, c)
		f.mu.Unlock()
		c.Close()
	}()
	c.SetReadDeadline(time.Now().Add(10 * time.Second))
	req, err := readGopherRequest(bufio.NewReader(c))
	f.mu.Lock()
	f.requests[i] = req
	f.mu.Unlock()
	if err != nil {
		return
	}
	c.SetReadDeadline(time.Time{})
	if route != nil {
		reply = route(f.Addr, req)
	}
	if _, err := c.Write(reply.Reply); err != nil {
		return
	}
	if reply.Hold {
		io.Copy(io.Discard, c) // until the client (or cleanup) closes
	}
}

// readGopherRequest reads one request line and, for a Gopher+ request with
// a data block ("sel TAB +… TAB 1"), the block up to its lone "." line.
// It returns the raw bytes.
func readGopherRequest(br *bufio.Reader) ([]byte, error) {
	const max = 1 << 20
	var raw []byte
	line, err := br.ReadBytes('\n')
	raw = append(raw, line...)
	if err != nil {
		return raw, err
	}
	fields := bytes.Split(bytes.TrimRight(line, "\r\n"), []byte{'\t'})
	if len(fields) < 3 || string(fields[len(fields)-1]) != "1" {
		return raw, nil
	}
	for len(raw) < max {
		line, err := br.ReadBytes('\n')
		raw = append(raw, line...)
		if err != nil {
			return raw, err
		}
		if l := bytes.TrimRight(line, "\r\n"); string(l) == "." {
			return raw, nil
		}
	}
	return raw, nil
}

func (f *GopherFake) close() {
	f.ln.Close()
	f.mu.Lock()
	for c := range f.conns {
		c.Close()
	}
	f.mu.Unlock()
	f.wg.Wait()
}
