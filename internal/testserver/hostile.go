package testserver

import (
	"bufio"
	"bytes"
	"net"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"
)

// Fault is one way a Hostile server misbehaves on purpose.
type Fault string

// The faults of the hostile-server suite. Each is bounded: a stall lasts
// until the client gives up or the test ends, and every stream stops at
// HostileStreamLimit bytes, far beyond any bound a client should have.
const (
	FaultDrop     Fault = "drop"           // close the connection where the reply should be
	FaultStall    Fault = "stall"          // send nothing more and keep the connection open
	FaultGarbage  Fault = "garbage"        // binary noise instead of the reply, then close
	FaultLongLine Fault = "oversized line" // one line that never ends
	FaultEndless  Fault = "endless stream" // well-formed lines (HostileConfig.Line) without end
	FaultEscapes  Fault = "escapes"        // a reply carrying terminal escapes (HostileConfig.Escapes)
)

// Faults lists every Fault, for a test matrix.
var Faults = []Fault{FaultDrop, FaultStall, FaultGarbage, FaultLongLine, FaultEndless, FaultEscapes}

// HostileStreamLimit bounds what a Hostile server writes in one endless
// stream or oversized line: 64 MiB.
const HostileStreamLimit = 64 << 20

// EscapeBytes are the terminal controls a hostile peer sends: ESC and a CSI
// sequence (clear screen), an OSC sequence ending in BEL (set the window
// title), a lone BEL, NUL, the C1 CSI both as the character U+009B and as
// the raw byte 0x9B.
const EscapeBytes = "\x1b[2J\x1b]0;owned\a\a\x00\u009b31m\x9b"

// HostileConfig scripts a Hostile server: it writes Greeting, then answers
// each request with the next of Replies (a request is one line, or up to
// RequestEnd), and at the request after the last reply it misbehaves with
// Fault. Every line written gets CRLF.
type HostileConfig struct {
	Greeting   []string // written on connect, before anything is read
	Replies    [][]string
	RequestEnd string // what ends a request; "" is "\n" (one line); "\r\n\r\n" for http
	// Binary makes a request whatever one read returns (a BER PDU of
	// Z39.50), RequestEnd aside.
	Binary bool
	Fault  Fault

	// Head is written before garbage, an oversized line or an endless
	// stream (e.g. "215 list follows" before an endless list, or an http
	// status line before endless headers).
	Head []string
	// Line is the well-formed line repeated by FaultEndless; it may hold
	// "%d", replaced by a counter.
	Line string
	// Escapes are the reply lines written by FaultEscapes, after which
	// the connection is closed unless KeepAfterEscapes.
	Escapes          []string
	KeepAfterEscapes bool
}

// Hostile is a server on 127.0.0.1 that speaks a protocol for a scripted
// prelude and then misbehaves with one Fault, on every connection.
type Hostile struct {
	Addr string

	*listener
	cfg  HostileConfig
	mu   sync.Mutex
	reqs []string
}

// NewHostile starts a hostile server; the test's cleanup stops it.
func NewHostile(t testing.TB, cfg HostileConfig) *Hostile {
	t.Helper()
	if cfg.RequestEnd == "" {
		cfg.RequestEnd = "\n"
	}
	l := listen(t, "hostile server")
	h := &Hostile{Addr: l.addr(), listener: l, cfg: cfg}
	l.serve(h.session)
	t.Cleanup(h.Close)
	return h
}

// Requests returns the requests received so far, over all connections.
func (h *Hostile) Requests() []string {
	h.mu.Lock()
	defer h.mu.Unlock()
	return append([]string(nil), h.reqs...)
}

func writeLines(c net.Conn, lines []string) error {
	var b strings.Builder
	for _, l := range lines {
		b.WriteString(l)
		b.WriteString("\r\n")
	}
	if b.Len() == 0 {
		return nil
	}
	c.SetWriteDeadline(time.Now().Add(5 * time.Second))
	_, err := c.Write([]byte(b.String()))
	return err
}

func (h *Hostile) session(c net.Conn) {
	if writeLines(c, h.cfg.Greeting) != nil {
		return
	}
	br := bufio.NewReaderSize(c, 64<<10)
	for i := 0; ; i++ {
		req, ok := h.readRequest(c, br)
		if !ok {
			return
		}
		h.mu.Lock()
		h.reqs = append(h.reqs, req)
		h.mu.Unlock()
		if i < len(h.cfg.Replies) {
			if writeLines(c, h.cfg.Replies[i]) != nil {
				return
			}
			continue
		}
		h.misbehave(c)
		return
	}
}

// readRequest reads up to RequestEnd, at most 1 MiB, within 10 seconds.
func (h *Hostile) readRequest(c net.Conn, br *bufio.Reader) (string, bool) {
	c.SetReadDeadline(time.Now().Add(10 * time.Second))
	defer c.SetReadDeadline(time.Time{})
	if h.cfg.Binary {
		b := make([]byte, 64<<10)
		n, err := br.Read(b)
		return string(b[:n]), err == nil
	}
	var b []byte
	end := []byte(h.cfg.RequestEnd)
	for len(b) < 1<<20 {
		x, err := br.ReadByte()
		if err != nil {
			return string(b), false
		}
		b = append(b, x)
		if bytes.HasSuffix(b, end) {
			return strings.TrimRight(string(b), "\r\n"), true
		}
	}
	return string(b), false
}

// misbehave writes the fault, bounded by HostileStreamLimit, and returns
// when the client went away, the stream ended or the server closed.
func (h *Hostile) misbehave(c net.Conn) {
	switch h.cfg.Fault {
	case FaultGarbage, FaultLongLine, FaultEndless:
		if writeLines(c, h.cfg.Head) != nil {
			return
		}
	}
	switch h.cfg.Fault {
	case FaultDrop:
		return
	case FaultStall:
		<-h.done
	case FaultGarbage:
		noise := make([]byte, 4096)
		x := uint32(2463534242)
		for i := range noise {
			x ^= x << 13
			x ^= x >> 17
			x ^= x << 5
			noise[i] = byte(x)
			if noise[i] == '\n' {
				noise[i] = 0
			}
		}
		c.SetWriteDeadline(time.Now().Add(5 * time.Second))
		c.Write(noise)
	case FaultLongLine:
		chunk := bytes.Repeat([]byte("A"), 64<<10)
		h.stream(c, func([]byte) []byte { return chunk })
	case FaultEndless:
		n := 0
		line := h.cfg.Line
		h.stream(c, func(b []byte) []byte {
			for len(b) < 32<<10 {
				n++
				l := line
				if strings.Contains(l, "%d") {
					l = strings.ReplaceAll(l, "%d", strconv.Itoa(n))
				}
				b = append(b, l...)
				b = append(b, '\r', '\n')
			}
			return b
		})
	case FaultEscapes:
		if writeLines(c, h.cfg.Escapes) != nil || !h.cfg.KeepAfterEscapes {
			return
		}
		<-h.done
	}
}

// stream writes next's chunks until HostileStreamLimit, a write error (the
// client closed) or the end of the server.
func (h *Hostile) stream(c net.Conn, next func([]byte) []byte) {
	var buf []byte
	for sent := 0; sent < HostileStreamLimit; {
		select {
		case <-h.done:
			return
		default:
		}
		buf = next(buf[:0])
		c.SetWriteDeadline(time.Now().Add(5 * time.Second))
		n, err := c.Write(buf)
		sent += n
		if err != nil {
			return
		}
	}
}
