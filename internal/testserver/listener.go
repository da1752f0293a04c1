package testserver

import (
	"net"
	"sync"
	"testing"
)

// listener is the accept loop and the set of open connections that the
// fakes share: Close stops accepting, closes every connection still
// tracked and waits for the handlers to return.
type listener struct {
	ln   net.Listener
	done chan struct{}
	wg   sync.WaitGroup

	mu    sync.Mutex
	conns map[net.Conn]bool
}

// listen opens a listener on 127.0.0.1:0 for a fake named what.
func listen(t testing.TB, what string) *listener {
	t.Helper()
	return listenOn(t, what, "")
}

// listenOn opens a listener on a free port of a loopback address (""
// means 127.0.0.1).
func listenOn(t testing.TB, what, ip string) *listener {
	t.Helper()
	if ip == "" {
		ip = "127.0.0.1"
	}
	ln, err := net.Listen("tcp", net.JoinHostPort(ip, "0"))
	if err != nil {
		t.Fatalf("%s: %v", what, err)
	}
	return &listener{ln: ln, done: make(chan struct{}), conns: map[net.Conn]bool{}}
}

// addr is "127.0.0.1:port".
func (l *listener) addr() string { return l.ln.Addr().String() }

// serve accepts connections until Close, each handled by handle on its
// own goroutine and closed when handle returns.
func (l *listener) serve(handle func(net.Conn)) {
	l.wg.Add(1)
	go func() {
		defer l.wg.Done()
		for {
			c, err := l.ln.Accept()
			if err != nil {
				return
			}
			if !l.track(c, true) {
				return
			}
			l.wg.Add(1)
			go func() {
				defer l.wg.Done()
				defer l.track(c, false)
				defer c.Close()
				handle(c)
			}()
		}
	}()
}

// track adds c to the set (on) or removes it. Once the listener is
// closed, it closes c and reports false.
func (l *listener) track(c net.Conn, on bool) bool {
	l.mu.Lock()
	defer l.mu.Unlock()
	select {
	case <-l.done:
		c.Close()
		return false
	default:
	}
	if on {
		l.conns[c] = true
	} else {
		delete(l.conns, c)
	}
	return true
}

// Close stops the listener and closes all its connections. Cleanup calls
// it; calling it earlier, or twice, is allowed.
func (l *listener) Close() {
	l.mu.Lock()
	select {
	case <-l.done:
		l.mu.Unlock()
		return
	default:
	}
	close(l.done)
	l.ln.Close()
	for c := range l.conns {
		c.Close()
	}
	l.mu.Unlock()
	l.wg.Wait()
}
