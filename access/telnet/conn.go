package telnet

import (
	"context"
	"errors"
	"fmt"
	"net"
	"sync"
	"time"

	"github.com/rfc1738/rfc1738/internal/dialerr"
)

// DefaultPort is the telnet port, RFC 1738 §3.8: "If the port is omitted,
// it defaults to 23".
const DefaultPort = "23"

// maxTerminalType bounds Config.TerminalType. RFC 1091 takes the names from
// the Assigned Numbers list, which allows up to 40 characters.
const maxTerminalType = 40

// writeChunk bounds the buffer that Write escapes user data into.
const writeChunk = 4096

// Config says how to connect. The zero value works: a plain TCP dial, no
// terminal type, no trace.
type Config struct {
	// Trace, if set, gets one line per negotiation event: dir is '>' for
	// what the client sends and '<' for what it receives, line is e.g.
	// "DO ECHO" or "SB NAWS 80 24". Data bytes are not traced. It is called
	// with the connection's lock held and must not call back into the Conn.
	Trace func(dir byte, line string)

	// TerminalType is the name the client gives when the server asks for
	// TERMINAL-TYPE (RFC 1091), typically $TERM. Empty refuses the option.
	// It must be printable ASCII without spaces, at most 40 bytes.
	TerminalType string

	// Dialer makes the TCP connection; nil means a zero net.Dialer.
	Dialer interface {
		DialContext(ctx context.Context, network, addr string) (net.Conn, error)
	}
}

// Conn is a telnet connection. Read returns the data the server sends with
// all telnet commands removed, answering option negotiation as it goes;
// Write sends data in NVT form. One goroutine may Read while another
// Writes or calls SetWindowSize.
//
// Negotiation is answered only while somebody reads: a caller that does not
// keep reading stalls the server's option handshake.
type Conn struct {
	c net.Conn

	rmu sync.Mutex // serializes Read

	mu   sync.Mutex // guards neg and every write to c, keeping answers in order
	neg  negotiator
	wbuf []byte
}

// Dial connects to addr ("host:port"; a missing port means DefaultPort) and
// returns the connection with nothing sent yet: the server speaks first.
// ctx bounds the connection attempt only, as with net.Dialer.DialContext;
// afterwards use SetDeadline, Close or Session's context.
func Dial(ctx context.Context, addr string, cfg Config) (*Conn, error) {
	if err := checkTerminalType(cfg.TerminalType); err != nil {
		return nil, err
	}
	addr = withDefaultPort(addr)
	var d interface {
		DialContext(context.Context, string, string) (net.Conn, error)
	} = &net.Dialer{}
	if cfg.Dialer != nil {
		d = cfg.Dialer
	}
	c, err := d.DialContext(ctx, "tcp", addr)
	if err != nil {
		return nil, fmt.Errorf("telnet: dial %s: %w", addr, dialerr.Trim(err))
	}
	return newConn(c, cfg), nil
}

func newConn(c net.Conn, cfg Config) *Conn {
	return &Conn{c: c, neg: negotiator{ttype: cfg.TerminalType, trace: cfg.Trace}}
}

// withDefaultPort appends RFC 1738 §3.8's default port when addr has none.
func withDefaultPort(addr string) string {
	if _, _, err := net.SplitHostPort(addr); err != nil {
		var ae *net.AddrError
		if errors.As(err, &ae) && ae.Err == "missing port in address" {
			host := addr
			if len(host) > 1 && host[0] == '[' && host[len(host)-1] == ']' {
				host = host[1 : len(host)-1]
			}
			return net.JoinHostPort(host, DefaultPort)
		}
	}
	return addr
}

// checkTerminalType refuses a name that would break the subnegotiation it
// is sent in (RFC 1738 §6: no CR, LF or NUL reaches the wire; RFC 1091:
// the name is printable NVT ASCII).
func checkTerminalType(s string) error {
	if len(s) > maxTerminalType {
		return fmt.Errorf("telnet: terminal type %q is longer than %d bytes (RFC 1091)", s, maxTerminalType)
	}
	for i := 0; i < len(s); i++ {
		if c := s[i]; c <= ' ' || c >= 0x7f {
			return fmt.Errorf("telnet: terminal type %q has byte %#02x at offset %d; RFC 1091 allows printable ASCII only", s, c, i)
		}
	}
	return nil
}

// Read reads data from the server. Telnet commands are removed and option
// requests answered before Read returns; it returns only when it has at
// least one data byte or an error, so a packet of pure negotiation never
// shows up as an empty read.
func (c *Conn) Read(p []byte) (int, error) {
	if len(p) == 0 {
		return 0, nil
	}
	c.rmu.Lock()
	defer c.rmu.Unlock()
	for {
		n, err := c.c.Read(p)
		c.mu.Lock()
		n = c.neg.process(p[:n])
		werr := c.flushLocked()
		c.mu.Unlock()
		if n > 0 || err != nil {
			return n, err
		}
		if werr != nil {
			return 0, werr
		}
	}
}

// flushLocked sends the queued negotiation answers; c.mu is held.
func (c *Conn) flushLocked() error {
	if len(c.neg.out) == 0 {
		return nil
	}
	_, err := c.c.Write(c.neg.out)
	c.neg.out = c.neg.out[:0]
	if err != nil {
		return fmt.Errorf("telnet: send negotiation: %w", err)
	}
	return nil
}

// Write sends p as NVT data: a 255 is doubled and a bare CR becomes CR NUL
// (RFC 854). It returns len(p) on success, not the count of bytes on the
// wire.
func (c *Conn) Write(p []byte) (int, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if err := c.flushLocked(); err != nil {
		return 0, err
	}
	done := 0
	for done < len(p) {
		end := min(done+writeChunk, len(p))
		// A CR that ends a chunk but not p keeps its LF: move the cut.
		for end < len(p) && p[end-1] == '\r' {
			end++
		}
		c.wbuf = appendData(c.wbuf[:0], p[done:end])
		if _, err := c.c.Write(c.wbuf); err != nil {
			return done, fmt.Errorf("telnet: write: %w", err)
		}
		done = end
	}
	return done, nil
}

// SetWindowSize tells the server the terminal's size in characters
// (RFC 1073 NAWS): at once if NAWS is on, else by offering WILL NAWS and
// sending the size when the server agrees. Later calls resend it.
func (c *Conn) SetWindowSize(width, height int) error {
	if width < 0 || width > 0xffff || height < 0 || height > 0xffff {
		return fmt.Errorf("telnet: window size %dx%d does not fit NAWS's 16 bits (RFC 1073)", width, height)
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	c.neg.setWindowSize(uint16(width), uint16(height))
	return c.flushLocked()
}

// SetDeadline sets the read and write deadlines of the underlying
// connection, as net.Conn.SetDeadline.
func (c *Conn) SetDeadline(t time.Time) error { return c.c.SetDeadline(t) }

// Close closes the connection; a blocked Read or Write returns an error.
func (c *Conn) Close() error { return c.c.Close() }
