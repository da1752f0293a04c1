package ftp

import (
	"context"
	"crypto/tls"
	"fmt"
	"io"
	"net"
	"strconv"
	"strings"

	"github.com/rfc1738/rfc1738/internal/zerocopy"
)

// CopyBufferSize is the size of the buffer a transfer body's WriteTo
// reads the data connection with, so that io.Copy moves large files in
// few system calls.
const CopyBufferSize = zerocopy.BufferSize

// Retr retrieves a file (RFC 959 §4.1.3 RETR; RFC 1738 §3.2.2 "access
// the file whose name is <name>"). It opens a passive data connection
// (EPSV, or PASV; see the package documentation), sends "RETR <name>"
// and returns the data as it arrives. size is the byte count announced
// in the 150 reply ("(N bytes)", as vsftpd and most servers write it),
// or -1. Under TYPE A it is the size of the file on the server, not the
// count of bytes sent.
//
// The body must be read to io.EOF or closed before the next command on
// c; until then the other methods return ErrTransferOpen. At the end of
// the data, the body reads the server's final reply (226 or 250): Read
// returns io.EOF only when that reply is a success and, after TYPE I,
// all announced bytes came. Otherwise Read and Close return the error (a
// *textproto.Error such as "426 Failure writing network stream", or
// ErrShortTransfer). Closing the body before the end drops the data
// connection and reads the final reply; a 426 or 451 there is the
// expected answer and not an error. The context given to Retr bounds
// the whole transfer, including the body's reads and Close.
func (c *Conn) Retr(ctx context.Context, name string) (body io.ReadCloser, size int64, err error) {
	b, err := c.open(ctx, "RETR", name, true, 0)
	if err != nil {
		return nil, -1, err
	}
	return b, b.size, nil
}

// Nlst lists the names in a directory (RFC 959 §4.1.3 NLST; RFC 1738
// §3.2.2 ";type=d"). An empty name sends the bare "NLST" (the argument is
// optional in RFC 959's grammar, "NLST [<SP> <pathname>]"), which lists
// the current directory. The body is the raw listing, one name per CRLF
// line, with the same contract as Retr's.
func (c *Conn) Nlst(ctx context.Context, name string) (io.ReadCloser, error) {
	b, err := c.open(ctx, "NLST", name, name != "", 0)
	if err != nil {
		return nil, err
	}
	return b, nil
}

// List is like Nlst with LIST (RFC 959 §4.1.3): the listing's format is
// the server's own, usually that of "ls -l".
func (c *Conn) List(ctx context.Context, name string) (io.ReadCloser, error) {
	b, err := c.open(ctx, "LIST", name, name != "", 0)
	if err != nil {
		return nil, err
	}
	return b, nil
}

// open runs the data-connection preamble and the transfer command, and
// returns the body once the server has answered 1xx. A rest offset other
// than 0 sends "REST rest" right before the command, after EPSV or PASV
// (RFC 959 §4.1.3: REST "shall be immediately followed by" the transfer).
func (c *Conn) open(ctx context.Context, verb, arg string, hasArg bool, rest int64) (*body, error) {
	line := redact(verb, arg, hasArg)
	if err := checkArg(verb, arg); err != nil {
		return nil, err
	}
	if err := c.ready(ctx, line); err != nil {
		return nil, err
	}
	w := c.watch(ctx)
	dc, err := c.passive(ctx, w)
	if err != nil {
		w.done()
		return nil, err
	}
	c.setDC(dc)
	if rest != 0 {
		if err := c.restart(ctx, w, rest); err != nil {
			return nil, err
		}
	}
	rep, err := c.roundTrip(verb, arg, hasArg)
	if err != nil {
		w.done()
		err = wrapIO(line, ctxErr(ctx, err))
		c.fail(err)
		return nil, err
	}
	// RFC 959 §5.4: RETR, NLST and LIST answer 125/150 before the data;
	// a refusal (450, 550, …) comes instead of it.
	if rep.Code/100 != 1 {
		w.done()
		c.closeDC()
		return nil, replyErr(line, rep, func(int) bool { return false })
	}
	if err := c.dataHandshake(ctx, dc, line); err != nil {
		w.done()
		return nil, err
	}
	b := &body{c: c, dc: dc, w: w, ctx: ctx, line: line, size: -1}
	if verb == "RETR" {
		b.size = parseSize(rep.Msg)
		b.binary = c.binary
	}
	c.body = b
	return b, nil
}

// passive opens the data connection in passive mode. RFC 2428 §3: EPSV
// first; its reply names only a port, to be reached at the control
// connection's address. If the server does not know EPSV (500, 501,
// 502), PASV is used from then on (RFC 2428 §4 "the client should use
// PASV"). The address in a 227 reply is never followed: the data
// connection goes to the control peer (a hostile server could otherwise
// aim the client at a third host, curl CVE-2020-8284); a differing
// address is reported to Trace as a '!' note.
func (c *Conn) passive(ctx context.Context, w *watcher) (net.Conn, error) {
	port := 0
	if !c.noEPSV {
		rep, err := c.roundTrip("EPSV", "", false)
		if err != nil {
			return nil, c.fatal(ctx, "EPSV", err)
		}
		switch rep.Code {
		case 229:
			if port = parseEPSV(rep.Msg); port == 0 {
				return nil, c.fatal(ctx, "EPSV", protoErr("EPSV", "no port in the 229 reply", rep.String(), nil))
			}
		case 500, 501, 502:
			c.noEPSV = true
		default:
			return nil, replyErr("EPSV", rep, func(int) bool { return false })
		}
	}
	if port == 0 {
		rep, err := c.roundTrip("PASV", "", false)
		if err != nil {
			return nil, c.fatal(ctx, "PASV", err)
		}
		if rep.Code != 227 {
			return nil, replyErr("PASV", rep, func(int) bool { return false })
		}
		var ip net.IP
		if ip, port = parsePASV(rep.Msg); port == 0 {
			return nil, c.fatal(ctx, "PASV", protoErr("PASV", "no h1,h2,h3,h4,p1,p2 in the 227 reply", rep.String(), nil))
		}
		if !ip.Equal(c.peer) && c.cfg.Trace != nil {
			c.cfg.Trace('!', fmt.Sprintf("PASV address %s ignored: the data connection goes to the control peer %s", ip, c.peer))
		}
	}
	if c.cfg.CheckDataPort != nil {
		if err := c.cfg.CheckDataPort(port); err != nil {
			// Nothing was opened; the control connection is still in step.
			return nil, fmt.Errorf("ftp: data connection to port %d refused: %w", port, err)
		}
	}
	addr := net.JoinHostPort(c.peer.String(), strconv.Itoa(port))
	dc, err := c.dialer.DialContext(ctx, "tcp", addr)
	if err != nil {
		// The server keeps a listener open for a while; the control
		// connection itself is still in step.
		return nil, fmt.Errorf("ftp: data connection to %s: %w", addr, ctxErr(ctx, err))
	}
	w.add(dc)
	if c.dataTLS != nil {
		// RFC 4217 §9, PROT P: the data connection is TLS too; its
		// handshake runs after the server's 1xx (dataHandshake).
		return tls.Client(dc, c.dataTLS), nil
	}
	if c.cfg.Security == SecurityRequire {
		dc.Close()
		return nil, fmt.Errorf("ftp: data connection: %w", ErrTLSRequired)
	}
	return dc, nil
}

// fatal wraps a control-connection failure and closes the connection.
func (c *Conn) fatal(ctx context.Context, line string, err error) error {
	err = wrapIO(line, ctxErr(ctx, err))
	c.fail(err)
	return err
}

func (c *Conn) setDC(dc net.Conn) {
	c.mu.Lock()
	c.dc = dc
	c.mu.Unlock()
	if c.closed.Load() { // Close raced with us
		dc.Close()
	}
}

func (c *Conn) closeDC() {
	c.mu.Lock()
	if c.dc != nil {
		c.dc.Close()
		c.dc = nil
	}
	c.mu.Unlock()
}

// parseEPSV reads the port of a 229 reply, RFC 2428 §3:
// "Entering Extended Passive Mode (|||6446|)", where "|" may be any
// printable delimiter. It returns 0 when there is none.
func parseEPSV(msg string) int {
	i := strings.IndexByte(msg, '(')
	if i < 0 || len(msg) < i+5 {
		return 0
	}
	s := msg[i+1:]
	d := s[0]
	if d < 33 || d > 126 || s[1] != d || s[2] != d {
		return 0
	}
	s = s[3:]
	j := strings.IndexByte(s, d)
	if j < 1 || j+1 >= len(s) || s[j+1] != ')' {
		return 0
	}
	p, err := strconv.Atoi(s[:j])
	if err != nil || p < 1 || p > 65535 {
		return 0
	}
	return p
}

// parsePASV reads "h1,h2,h3,h4,p1,p2" from a 227 reply. RFC 959 does not
// fix the text around the numbers, so, as RFC 1123 §4.1.2.6 advises, it
// scans for the first digit. It returns port 0 when there is none.
func parsePASV(msg string) (net.IP, int) {
	start := strings.IndexAny(msg, "0123456789")
	if start < 0 {
		return nil, 0
	}
	var n [6]int
	s := msg[start:]
	for k := range n {
		j := 0
		for j < len(s) && j < 3 && s[j] >= '0' && s[j] <= '9' {
			n[k] = n[k]*10 + int(s[j]-'0')
			j++
		}
		if j == 0 || n[k] > 255 {
			return nil, 0
		}
		s = s[j:]
		if k < 5 {
			if len(s) == 0 || s[0] != ',' {
				return nil, 0
			}
			s = s[1:]
		}
	}
	port := n[4]<<8 | n[5]
	if port == 0 {
		return nil, 0
	}
	return net.IPv4(byte(n[0]), byte(n[1]), byte(n[2]), byte(n[3])), port
}

// parseSize reads "(N bytes)" from a 150 reply, as vsftpd, proftpd and
// wu-ftpd write it; -1 when absent.
func parseSize(msg string) int64 {
	i := strings.LastIndex(msg, " bytes)")
	if i < 0 {
		return -1
	}
	j := strings.LastIndexByte(msg[:i], '(')
	if j < 0 {
		return -1
	}
	n, err := strconv.ParseInt(msg[j+1:i], 10, 64)
	if err != nil || n < 0 {
		return -1
	}
	return n
}

// body is the data of one transfer; see Retr for its contract.
type body struct {
	c      *Conn
	dc     net.Conn
	w      *watcher
	ctx    context.Context
	line   string // the transfer command, for errors
	size   int64  // announced size, or -1
	binary bool   // TYPE I was in force: the size can be checked
	n      int64  // bytes received

	done   bool  // the final reply was read, or the connection failed
	err    error // the outcome once done; nil is a clean end
	closed bool
}

// Read reads data; at the end of the data it reads the final reply.
func (b *body) Read(p []byte) (int, error) {
	if b.closed {
		return 0, fmt.Errorf("ftp: %s: read after Close: %w", b.line, net.ErrClosed)
	}
	if b.done {
		if b.err != nil {
			return 0, b.err
		}
		return 0, io.EOF
	}
	n, err := b.dc.Read(p)
	b.n += int64(n)
	switch {
	case err == nil:
		return n, nil
	case err == io.EOF:
		b.finish(false)
		if b.err == nil {
			return n, io.EOF
		}
		return n, b.err
	}
	b.broke(err)
	return n, b.err
}

// WriteTo copies the data to w: through a CopyBufferSize buffer, and,
// when w is an io.ReaderFrom and the transfer is fast, from the data
// connection straight into w.ReadFrom (see internal/zerocopy). io.Copy
// uses it.
func (b *body) WriteTo(w io.Writer) (int64, error) { return zerocopy.WriteTo(b, w) }

// Received is the count of data bytes so far.
func (b *body) Received() int64 { return b.n }

// Direct hands rf up to n bytes of the data connection, with Read's
// bookkeeping: at the end of the data it reads the final reply; a broken
// data connection gives up the control connection too. Any other error
// is the writer's, returned as it is; the caller's Close then ends the
// transfer.
func (b *body) Direct(rf io.ReaderFrom, n int64) (written int64, eof, ok bool, err error) {
	if b.done || b.closed {
		return 0, false, false, nil
	}
	written, eof, err = zerocopy.ReadFrom(rf, b.dc, n)
	b.n += written
	switch {
	case eof:
		b.finish(false)
		return written, true, true, b.err
	case err == nil:
		return written, false, true, nil
	case !zerocopy.Broken(b.ctx, err):
		return written, false, true, err
	}
	b.broke(err)
	return written, false, true, b.err
}

// broke ends the transfer on a broken data connection (reset, deadline,
// cancel): the final reply may never come, so the control connection is
// given up too.
func (b *body) broke(err error) {
	b.err = wrapIO(b.line, fmt.Errorf("data connection: %w", ctxErr(b.ctx, err)))
	b.done = true
	b.w.done()
	b.c.body = nil
	b.c.fail(b.err)
}

// Close ends the transfer; see Retr.
func (b *body) Close() error {
	if !b.closed {
		b.closed = true
		if !b.done {
			b.finish(true)
		}
	}
	return b.err
}

// finish closes the data connection and reads the final reply (RFC 959
// §5.4: 226/250, or 425, 426, 451 …).
func (b *body) finish(early bool) {
	c := b.c
	c.closeDC()
	rep, err := c.readReply(b.line)
	for err == nil && rep.Code/100 == 1 { // RFC 959 §5.4: 110 restart markers may come first
		rep, err = c.readReply(b.line)
	}
	b.w.done()
	b.done = true
	c.body = nil
	switch {
	case err != nil:
		b.err = wrapIO(b.line, ctxErr(b.ctx, err))
		c.fail(b.err)
	case rep.Code/100 == 2:
		if !early && b.binary && b.size >= 0 && b.n < b.size {
			b.err = fmt.Errorf("ftp: %s: %w: %d of %d bytes received, though the server said %s", b.line, ErrShortTransfer, b.n, b.size, rep)
		}
	case early && (rep.Code == 426 || rep.Code == 451):
		// The expected answer to a data connection we dropped.
	default:
		b.err = replyErr(b.line, rep, func(int) bool { return false })
	}
}
