package ftp

import (
	"bufio"
	"context"
	"crypto/tls"
	"errors"
	"fmt"
	"io"
	"net"
	"net/textproto"
	"os"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/rfc1738/rfc1738/internal/dialerr"
)

// DefaultMaxLineLength is the longest reply line accepted when
// Config.MaxLineLength is zero, not counting CRLF.
const DefaultMaxLineLength = 4096

// DefaultMaxReplyLines is the most lines of one reply accepted when
// Config.MaxReplyLines is zero.
const DefaultMaxReplyLines = 1000

// DefaultPort is the FTP port used when the address given to Dial has
// none (RFC 1738 §3.2: "If :<port> is omitted, the port defaults to 21").
const DefaultPort = "21"

// Config tunes a connection. Its zero value works.
type Config struct {
	// Trace, when set, sees every line of the control conversation
	// without its CRLF: dir is '>' for a line sent and '<' for a line
	// received. A password is shown as "PASS ****". dir '!' is a note
	// from the client, such as a PASV address it did not follow.
	Trace func(dir byte, line string)

	// MaxLineLength bounds one reply line (without CRLF); a longer line
	// is a *ProtocolError. Zero means DefaultMaxLineLength.
	MaxLineLength int

	// MaxReplyLines bounds the lines of one multi-line reply; more is a
	// *ProtocolError. Zero means DefaultMaxReplyLines.
	MaxReplyLines int

	// Dialer opens the control and data connections; nil means a zero
	// net.Dialer. Its Timeout bounds each connect on top of the context.
	Dialer *net.Dialer

	// DisableEPSV makes data transfers use PASV without trying EPSV
	// first.
	DisableEPSV bool

	// CheckDataPort, when set, is asked about the port of every 229 or
	// 227 reply before the data connection is opened; an error refuses
	// the connection and is returned, wrapped, by the transfer. RFC 1738
	// §6: a port a server names is data, not an instruction, and a hostile
	// server could aim the client at another protocol's port (25, SMTP)
	// and have its banner saved as the file.
	CheckDataPort func(port int) error

	// Security asks for TLS (RFC 4217): SecurityNone (the zero value)
	// speaks in clear; see SecurityTry and SecurityRequire. Dial then
	// sends AUTH TLS, PBSZ 0 and PROT P after the greeting, and reports
	// each step to Trace.
	Security Security

	// Warn, when set, is told when SecurityTry goes on with less than it
	// asked for: AUTH TLS refused (the login goes in clear), or PBSZ or
	// PROT P refused (the data does).
	Warn func(msg string)

	// TLS configures the TLS of the control and data connections; nil
	// means crypto/tls's defaults (the system's roots) with TLS 1.2 at
	// least. Its ServerName, when empty, is the host of the address
	// dialled; its ClientSessionCache, when nil, is one per connection,
	// shared by the control connection and its data connections.
	TLS *tls.Config
}

// Reply is a server reply (RFC 959 §4.2). For a multi-line reply, Msg
// holds the lines joined by "\n", each without its "xyz-" or "xyz "
// prefix, as in textproto.Reader.ReadResponse.
type Reply struct {
	Code int    // three digits, 100-599
	Msg  string // the text after the code
}

// String returns the reply as "code text".
func (r Reply) String() string { return fmt.Sprintf("%03d %s", r.Code, r.Msg) }

// Conn is a control connection to an FTP server. It sends exactly the
// commands its methods name, nothing more: no FEAT, OPTS, SYST or TYPE
// of its own (RFC 1738 §3.2.2 spells out the sequence; the caller plans
// it), except the RFC 4217 steps Dial sends when Config.Security asks
// for TLS.
//
// A Conn runs one command at a time and is not safe for concurrent use,
// except Close, which may be called from any goroutine to abort. While
// the body returned by Retr, Nlst or List is open, every other method
// returns ErrTransferOpen: read the body to io.EOF or Close it first.
//
// After a network error, a protocol error or a cancelled context the
// connection is closed, and later calls return that first error.
type Conn struct {
	cfg    Config
	dialer *net.Dialer
	nc     net.Conn
	r      *bufio.Reader
	wbuf   []byte
	peer   net.IP   // control peer: data connections go here (RFC 2428 §3, curl CVE-2020-8284)
	noEPSV bool     // EPSV refused once: use PASV from now on (RFC 2428 §4)
	binary bool     // the last TYPE accepted was I
	moved  bool     // a CWD was sent: the directory may not be the login one
	cwds   int      // CWDs sent, so that a pool knows when one moved the connection
	feats  []string // FEAT's features once asked (see Features), else nil

	dataTLS *tls.Config // PROT P accepted: data connections are TLS with it (RFC 4217 §9)

	body   *body // open transfer body, if any
	broken error // sticky: first fatal error
	closed atomic.Bool
	mu     sync.Mutex // guards dc for Close
	dc     net.Conn   // open data connection, if any
}

// Dial connects to addr ("host:port"; a missing port means 21), reads
// the greeting, secures the session as Config.Security asks (RFC 4217),
// and returns the connection ready for Login. The context bounds the
// connect, the greeting and the TLS steps.
func Dial(ctx context.Context, addr string, cfg Config) (*Conn, error) {
	if cfg.MaxLineLength <= 0 {
		cfg.MaxLineLength = DefaultMaxLineLength
	}
	if cfg.MaxReplyLines <= 0 {
		cfg.MaxReplyLines = DefaultMaxReplyLines
	}
	d := cfg.Dialer
	if d == nil {
		d = &net.Dialer{}
	}
	addr = withDefaultPort(addr)
	nc, err := d.DialContext(ctx, "tcp", addr)
	if err != nil {
		return nil, fmt.Errorf("ftp: dial %s: %w", addr, dialerr.Trim(err))
	}
	c := &Conn{
		cfg:    cfg,
		dialer: d,
		nc:     nc,
		// The buffer is the line bound: bufio.Reader.ReadSlice fails with
		// ErrBufferFull instead of growing.
		r:      bufio.NewReaderSize(nc, cfg.MaxLineLength+2),
		noEPSV: cfg.DisableEPSV,
	}
	if ta, ok := nc.RemoteAddr().(*net.TCPAddr); ok {
		c.peer = ta.IP
	} else if host, _, err := net.SplitHostPort(addr); err == nil {
		c.peer = net.ParseIP(host)
	}
	w := c.watch(ctx)
	err = c.greeting()
	w.done()
	if err != nil {
		err = wrapIO("greeting", ctxErr(ctx, err))
		c.fail(err)
		return nil, err
	}
	_ = nc.SetDeadline(time.Time{})
	if cfg.Security != SecurityNone {
		if err := c.secure(ctx, addr); err != nil {
			c.Close()
			return nil, err
		}
	}
	return c, nil
}

// greeting reads the connection-establishment replies: RFC 959 §5.4
// allows 120 (ready in nnn minutes) before 220; 421 refuses.
func (c *Conn) greeting() error {
	const cmd = "greeting"
	for {
		rep, err := c.readReply(cmd)
		if err != nil {
			return err
		}
		if rep.Code/100 != 1 {
			return replyErr(cmd, rep, func(code int) bool { return code == 220 })
		}
	}
}

func withDefaultPort(addr string) string {
	if _, _, err := net.SplitHostPort(addr); err == nil {
		return addr
	}
	host := strings.TrimSuffix(strings.TrimPrefix(addr, "["), "]")
	return net.JoinHostPort(host, DefaultPort)
}

// Close closes the control connection and any open data connection
// without sending QUIT. It may be called from any goroutine, and more
// than once.
func (c *Conn) Close() error {
	if c.closed.Swap(true) {
		return nil
	}
	c.mu.Lock()
	if c.dc != nil {
		c.dc.Close()
	}
	c.mu.Unlock()
	return c.nc.Close()
}

// Quit sends QUIT, reads the reply (221 expected) and closes the
// connection whatever the outcome.
func (c *Conn) Quit(ctx context.Context) error {
	defer c.Close()
	_, err := c.simple(ctx, "QUIT", "", false, func(code int) bool { return code/100 == 2 })
	return err
}

// fail records the first fatal error and closes the connection.
func (c *Conn) fail(err error) {
	if c.broken == nil {
		c.broken = err
	}
	c.Close()
}

// ready checks that a command may be sent now.
func (c *Conn) ready(ctx context.Context, line string) error {
	switch {
	case c.broken != nil:
		return fmt.Errorf("ftp: %s: connection unusable after an earlier error: %w", line, c.broken)
	case c.closed.Load():
		return fmt.Errorf("ftp: %s: %w", line, net.ErrClosed)
	case c.body != nil:
		return fmt.Errorf("ftp: %s: %w", line, ErrTransferOpen)
	}
	if err := ctx.Err(); err != nil {
		return fmt.Errorf("ftp: %s: %w", line, err)
	}
	return nil
}

// redact returns the command line as shown in traces and errors.
func redact(verb, arg string, hasArg bool) string {
	switch {
	case verb == "PASS" || verb == "ACCT":
		return verb + " ****"
	case hasArg:
		return verb + " " + arg
	}
	return verb
}

// send writes one command line. RFC 959 §4.1: "<verb> <SP> <arg> <CRLF>",
// or the bare verb when there is no argument.
func (c *Conn) send(verb, arg string, hasArg bool) error {
	b := append(c.wbuf[:0], verb...)
	if hasArg {
		b = append(b, ' ')
		b = appendTelnet(b, arg)
	}
	b = append(b, '\r', '\n')
	c.wbuf = b
	if c.cfg.Trace != nil {
		c.cfg.Trace('>', redact(verb, arg, hasArg))
	}
	_, err := c.nc.Write(b)
	return err
}

// IAC is the Telnet "interpret as command" octet (RFC 854).
const IAC = 0xff

// appendTelnet appends arg as Telnet data. RFC 959 §4 runs the control
// connection as Telnet (RFC 854), where 0xFF is IAC, the start of a
// command: a decoded 0xFF in a path (%FF%F4) would reach a Telnet-aware
// server (proftpd's netio, for one) as "Interrupt Process". RFC 854 sends
// a data octet 0xFF as IAC IAC, which such a server reads back as one
// 0xFF; every 0xFF of an argument is doubled so.
func appendTelnet(b []byte, arg string) []byte {
	for {
		i := strings.IndexByte(arg, IAC)
		if i < 0 {
			return append(b, arg...)
		}
		b = append(b, arg[:i+1]...)
		b = append(b, IAC)
		arg = arg[i+1:]
	}
}

// readLine reads one line of at most MaxLineLength bytes, without its
// line end (CRLF, or a bare LF, accepted from sloppy servers).
func (c *Conn) readLine(cmd string, inReply bool) (string, error) {
	b, err := c.r.ReadSlice('\n')
	switch {
	case err == bufio.ErrBufferFull:
		return "", protoErr(cmd, fmt.Sprintf("reply line longer than %d bytes", c.cfg.MaxLineLength), string(b), nil)
	case err == io.EOF:
		reason := "connection closed before the reply"
		if inReply || len(b) > 0 {
			reason = "connection closed in the middle of a reply"
		}
		return "", protoErr(cmd, reason, string(b), io.ErrUnexpectedEOF)
	case err != nil:
		return "", err
	}
	b = b[:len(b)-1]
	if n := len(b); n > 0 && b[n-1] == '\r' {
		b = b[:n-1]
	}
	if len(b) > c.cfg.MaxLineLength {
		return "", protoErr(cmd, fmt.Sprintf("reply line longer than %d bytes", c.cfg.MaxLineLength), string(b), nil)
	}
	line := string(b)
	if c.cfg.Trace != nil {
		c.cfg.Trace('<', line)
	}
	return line, nil
}

// readReply reads one reply, single or multi-line. RFC 959 §4.2: a
// reply is "xyz text"; a multi-line reply starts "xyz-text" and ends at
// the first line that starts with the same code followed by a space.
// Lines in between are text, whatever they start with.
func (c *Conn) readReply(cmd string) (Reply, error) {
	line, err := c.readLine(cmd, false)
	if err != nil {
		return Reply{}, err
	}
	code, sep, ok := parseCode(line)
	if !ok {
		return Reply{}, protoErr(cmd, "reply does not start with a three-digit code 1xx-5xx", line, nil)
	}
	if sep != '-' {
		return Reply{Code: code, Msg: text(line)}, nil
	}
	var msg strings.Builder
	msg.WriteString(line[4:])
	prefix := line[:3]
	for n := 1; ; n++ {
		if n >= c.cfg.MaxReplyLines {
			return Reply{}, protoErr(cmd, fmt.Sprintf("reply longer than %d lines", c.cfg.MaxReplyLines), line, nil)
		}
		line, err = c.readLine(cmd, true)
		if err != nil {
			return Reply{}, err
		}
		msg.WriteByte('\n')
		if strings.HasPrefix(line, prefix) && (len(line) == 3 || line[3] == ' ') {
			msg.WriteString(text(line))
			return Reply{Code: code, Msg: msg.String()}, nil
		}
		// Continuation lines often repeat "xyz-"; drop it as textproto does.
		if strings.HasPrefix(line, prefix) && len(line) > 3 && line[3] == '-' {
			line = line[4:]
		}
		msg.WriteString(line)
	}
}

// parseCode reads the reply code: three digits, the first 1-5 (RFC 959
// §4.2.1), followed by end of line, a space or a hyphen.
func parseCode(line string) (code int, sep byte, ok bool) {
	if len(line) < 3 || line[0] < '1' || line[0] > '5' {
		return 0, 0, false
	}
	for i := 0; i < 3; i++ {
		if line[i] < '0' || line[i] > '9' {
			return 0, 0, false
		}
		code = code*10 + int(line[i]-'0')
	}
	if len(line) == 3 {
		return code, ' ', true
	}
	if line[3] != ' ' && line[3] != '-' {
		return 0, 0, false
	}
	return code, line[3], true
}

func text(line string) string {
	if len(line) <= 4 {
		return ""
	}
	return line[4:]
}

// simple sends one command and reads one reply; ok says which codes are
// success. 4xx/5xx come back as *textproto.Error.
func (c *Conn) simple(ctx context.Context, verb, arg string, hasArg bool, ok func(code int) bool) (Reply, error) {
	line := redact(verb, arg, hasArg)
	if err := checkArg(verb, arg); err != nil {
		return Reply{}, err
	}
	if err := c.ready(ctx, line); err != nil {
		return Reply{}, err
	}
	w := c.watch(ctx)
	rep, err := c.roundTrip(verb, arg, hasArg)
	w.done()
	if err != nil {
		err = wrapIO(line, ctxErr(ctx, err))
		c.fail(err)
		return rep, err
	}
	return rep, replyErr(line, rep, ok)
}

func (c *Conn) roundTrip(verb, arg string, hasArg bool) (Reply, error) {
	if err := c.send(verb, arg, hasArg); err != nil {
		return Reply{}, err
	}
	return c.readReply(redact(verb, arg, hasArg))
}

// replyErr turns a reply into the caller's error: nil on success, a
// wrapped *textproto.Error on 4xx/5xx, a *ProtocolError otherwise.
func replyErr(line string, rep Reply, ok func(code int) bool) error {
	switch {
	case ok(rep.Code):
		return nil
	case rep.Code >= 400:
		return &CommandError{Cmd: line, Reply: &textproto.Error{Code: rep.Code, Msg: rep.Msg}}
	}
	return protoErr(line, fmt.Sprintf("unexpected reply %d", rep.Code), rep.String(), nil)
}

// wrapIO gives a network error its command; protocol errors carry it
// already.
func wrapIO(line string, err error) error {
	var pe *ProtocolError
	if errors.As(err, &pe) {
		return err
	}
	return fmt.Errorf("ftp: %s: %w", line, err)
}

// ctxErr explains an I/O failure caused by the context: it matches both
// the context's error and the network error.
func ctxErr(ctx context.Context, err error) error {
	if ce := ctx.Err(); ce != nil {
		return fmt.Errorf("%w: %w", ce, err)
	}
	if _, has := ctx.Deadline(); has && errors.Is(err, os.ErrDeadlineExceeded) {
		return fmt.Errorf("%w: %w", context.DeadlineExceeded, err)
	}
	return err
}

// A watcher ties connections to a context: their deadline is the
// context's, and a cancellation interrupts blocked reads and writes.
type watcher struct {
	mu       sync.Mutex
	conns    []net.Conn
	deadline time.Time
	fired    bool
	retired  bool
	stop     func() bool
}

var longAgo = time.Unix(1, 0)

func (c *Conn) watch(ctx context.Context) *watcher {
	w := &watcher{}
	w.deadline, _ = ctx.Deadline()
	w.add(c.nc)
	w.stop = context.AfterFunc(ctx, func() {
		w.mu.Lock()
		defer w.mu.Unlock()
		if w.retired {
			return
		}
		w.fired = true
		for _, nc := range w.conns {
			nc.SetDeadline(longAgo)
		}
	})
	return w
}

func (w *watcher) add(nc net.Conn) {
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.fired {
		nc.SetDeadline(longAgo)
	} else {
		nc.SetDeadline(w.deadline)
	}
	w.conns = append(w.conns, nc)
}

// done detaches the watcher and reports whether the context ended while
// it was attached.
func (w *watcher) done() (interrupted bool) {
	w.stop()
	w.mu.Lock()
	defer w.mu.Unlock()
	w.retired = true
	return w.fired
}
