package smtp

import (
	"bytes"
	"fmt"
	"net"
	"sync"
)

// traceConn passes the SMTP conversation to a trace, line by line, and
// bounds what is read from the relay. It sits above TLS (swap puts the
// tls.Conn under it after STARTTLS), so the trace sees clear text.
type traceConn struct {
	conn  net.Conn // the TCP connection, then the tls.Conn over it
	trace func(dir byte, line string)

	mu    sync.Mutex
	quiet bool // the message itself is not traced
	in    []byte
	out   []byte
	left  int // bytes the relay may still send
}

// swap puts c under the trace: what was half read or written before
// belongs to the old connection.
func (t *traceConn) swap(c net.Conn) {
	t.mu.Lock()
	t.conn = c
	t.in, t.out = t.in[:0], t.out[:0]
	t.mu.Unlock()
}

func (t *traceConn) Close() error { return t.conn.Close() }

func (t *traceConn) setQuiet(q bool) {
	t.mu.Lock()
	t.quiet = q
	t.out = t.out[:0]
	t.mu.Unlock()
}

func (t *traceConn) Read(p []byte) (int, error) {
	t.mu.Lock()
	left := t.left
	t.mu.Unlock()
	if left <= 0 {
		return 0, fmt.Errorf("the relay sent more than %d bytes", MaxRead)
	}
	if len(p) > left {
		p = p[:left]
	}
	n, err := t.conn.Read(p)
	t.mu.Lock()
	t.left -= n
	t.in = t.lines('<', append(t.in, p[:n]...))
	t.mu.Unlock()
	return n, err
}

func (t *traceConn) Write(p []byte) (int, error) {
	t.mu.Lock()
	if !t.quiet {
		t.out = t.lines('>', append(t.out, p...))
	}
	t.mu.Unlock()
	return t.conn.Write(p)
}

// lines traces the complete lines of buf and returns the rest.
func (t *traceConn) lines(dir byte, buf []byte) []byte {
	for {
		i := bytes.IndexByte(buf, '\n')
		if i < 0 {
			if len(buf) > 4096 { // a line too long to trace
				buf = buf[:0]
			}
			return buf
		}
		if t.trace != nil {
			t.trace(dir, string(bytes.TrimRight(buf[:i], "\r")))
		}
		buf = buf[i+1:]
	}
}
