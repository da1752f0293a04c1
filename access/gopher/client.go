package gopher

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"os"
	"strconv"
	"strings"
	"time"

	"github.com/rfc1738/rfc1738/internal/zerocopy"

	"github.com/rfc1738/rfc1738/internal/dialerr"
)

// Dialer opens connections; *net.Dialer is one.
type Dialer interface {
	DialContext(ctx context.Context, network, address string) (net.Conn, error)
}

// Client fetches Gopher and Gopher+ items. Its zero value is ready to use.
type Client struct {
	// Dialer opens the TCP connection; nil means a zero net.Dialer.
	Dialer Dialer
	// Trace, if set, sees the conversation: dir '>' for each line sent
	// (the answers of a §3.4.9 form, which may be passwords, as
	// "<redacted>"), '<' for each status, error, menu and attribute line
	// received, and a "[N bytes]" summary when a text or binary body ends.
	Trace func(dir byte, line string)
	// MaxLineLength bounds one menu, status, error or attribute line;
	// 0 means DefaultMaxLineLength (64 KiB).
	MaxLineLength int
	// MaxMenuItems bounds the lines of a menu or attribute reply;
	// 0 means DefaultMaxMenuItems.
	MaxMenuItems int
	// MaxMenuBytes bounds the bytes of a menu or attribute reply; 0
	// means DefaultMaxMenuBytes (16 MiB).
	MaxMenuBytes int64
	// Unstuff removes the first dot of text lines that start with ".."
	// (RFC 1436 dot-stuffing). Most servers never stuff (they send files
	// as stored), so by default such lines are kept as sent.
	Unstuff bool
	// Raw reads a plain (not Gopher+) text or menu reply as the server
	// sent it, to the close, final "." line included.
	Raw bool
}

// maxErrorBytes bounds a Gopher+ error block.
const maxErrorBytes = 64 << 10

func (c *Client) maxLine() int {
	if c.MaxLineLength > 0 {
		return c.MaxLineLength
	}
	return DefaultMaxLineLength
}

func (c *Client) maxItems() int {
	if c.MaxMenuItems > 0 {
		return c.MaxMenuItems
	}
	return DefaultMaxMenuItems
}

func (c *Client) maxBytes() int64 {
	if c.MaxMenuBytes > 0 {
		return c.MaxMenuBytes
	}
	return DefaultMaxMenuBytes
}

func (c *Client) trace(dir byte, line string) {
	if c.Trace != nil {
		c.Trace(dir, line)
	}
}

// Kind says how a reply body is delimited.
type Kind int

// Body kinds.
const (
	Text   Kind = iota // ends at the close; a lone "." line right before it is removed
	Menu               // like Text; parse it with Response.Menu
	Binary             // raw to close
)

// KindOf returns how a reply of item type t is read (RFC 1436): menus are
// types 1 and 7 (search results are menus); text is 0 and the text-encoded
// or text-like types 4 (BinHex), 6 (uuencode), h (HTML) and M (MIME), which
// servers send as lines; every other type, known or not, is binary, read
// raw to the close of the connection so no byte is altered.
func KindOf(t byte) Kind {
	switch t {
	case '1', '7':
		return Menu
	case '0', '4', '6', 'h', 'M':
		return Text
	}
	return Binary
}

// Response is the reply to one request. Its Body must be closed.
type Response struct {
	Request Request
	Kind    Kind
	// Plus reports that the server answered with a Gopher+ status line.
	// A Gopher-0 server (gophernicus) ignores the Gopher+ string and sends
	// the plain item; Plus is then false.
	Plus bool
	// Size is the length the server announced with "+N", or -1.
	Size int64
	// Body streams the item: text and menus without a final "." line
	// that the close follows (see Client.Unstuff for ".." lines), a "+N"
	// body as exactly N bytes, everything else (and with Client.Raw any
	// plain reply) raw.
	// Reads honour the Fetch context; Close closes the connection.
	Body io.ReadCloser

	c   *Client
	dr  *dotReader
	sr  *sizedReader
	raw *bufio.Reader // the reader of a body that runs to the close: binary, "+-2"
}

// Terminated reports, after Body has been read to EOF, whether the reply's
// end was marked by the protocol (a lone "." line before the close, or all
// "+N" bytes) rather than by the server just closing — a hint at
// truncation on servers that do terminate.
func (r *Response) Terminated() bool {
	switch {
	case r.dr != nil:
		return r.dr.terminated
	case r.sr != nil:
		return r.sr.left == 0
	}
	return false
}

// Menu returns a MenuReader over Body with the client's bounds and trace.
func (r *Response) Menu() *MenuReader {
	m := NewMenuReader(r.Body)
	m.MaxLineLength, m.MaxItems, m.MaxBytes, m.trace = r.c.maxLine(), r.c.maxItems(), r.c.maxBytes(), r.c.Trace
	return m
}

// Items reads the whole menu (see ParseMenu for the errors) and closes Body.
func (r *Response) Items() ([]Item, error) {
	defer r.Body.Close()
	return readMenu(r.Menu())
}

// Attributes parses Body as a Gopher+ attribute reply (see ParseAttributes)
// with the client's bounds and closes it.
func (r *Response) Attributes() ([]Block, error) {
	defer r.Body.Close()
	return parseAttributes(bufio.NewReaderSize(r.Body, 4096), r.c.maxLine(), r.c.maxItems(), r.c.maxBytes(), r.c.Trace)
}

// Fetch connects to addr (host:port), sends the request line of req and
// returns the reply, its Body streaming as described on Response.
//
// Before dialing, a request that cannot be sent is refused with a
// *RequestError: a bad byte (see Request.Line), or an item type that is not
// a Gopher item (8 and T are telnet sessions, 2 a CSO phone book, i and 3
// are not items). A server's refusal is a *ServerError; a broken reply a
// *ProtocolError. The context bounds the whole exchange, reading Body
// included: its deadline is set on the connection and its cancellation
// interrupts any read.
func (c *Client) Fetch(ctx context.Context, addr string, req Request) (*Response, error) {
	t := req.ItemType()
	switch t {
	case '8', 'T', '2', 'i', '3':
		return nil, &RequestError{Field: "type", Value: string(t), Offset: -1,
			Reason: "is not a retrievable Gopher item (RFC 1436 §3.8)"}
	}
	line, err := req.Line()
	if err != nil {
		return nil, err
	}
	var d Dialer = c.Dialer
	if d == nil {
		d = &net.Dialer{}
	}
	conn, err := d.DialContext(ctx, "tcp", addr)
	if err != nil {
		return nil, fmt.Errorf("gopher: dial %s: %w", addr, dialerr.Trim(err))
	}
	if dl, ok := ctx.Deadline(); ok {
		conn.SetDeadline(dl)
	}
	// Cancellation interrupts a blocked read or write at once.
	stop := context.AfterFunc(ctx, func() { conn.SetDeadline(time.Unix(1, 0)) })
	resp, err := c.exchange(ctx, conn, addr, req, line)
	if err != nil {
		stop()
		conn.Close()
		return nil, err
	}
	resp.Body = &body{r: resp.Body, raw: resp.raw, dr: resp.dr, conn: conn, stop: stop, ctx: ctx, addr: addr, c: c, traceSize: resp.Kind != Menu && !isAttrRequest(req)}
	return resp, nil
}

// ErrNotGopherPlus reports a server that answered a Gopher+ attribute
// request without a Gopher+ status line: a Gopher-0 server.
var ErrNotGopherPlus = errors.New("server does not speak Gopher+")

// Attributes fetches and parses a Gopher+ attribute reply (§3.4.6, §3.4.7):
// req's Gopher+ string should be "!", "$" or "!+NAME…"; when req has no
// Gopher+ string, "!" (all attributes of the item) is sent.
func (c *Client) Attributes(ctx context.Context, addr string, req Request) ([]Block, error) {
	if !req.HasPlus {
		req.Plus, req.HasPlus = "!", true
	}
	resp, err := c.Fetch(ctx, addr, req)
	if err != nil {
		return nil, err
	}
	if !resp.Plus {
		resp.Body.Close()
		return nil, &ProtocolError{Op: "fetch attributes of " + strconv.Quote(req.Selector), Err: ErrNotGopherPlus}
	}
	return resp.Attributes()
}

func isAttrRequest(req Request) bool {
	return req.HasPlus && (strings.HasPrefix(req.Plus, "!") || strings.HasPrefix(req.Plus, "$"))
}

func (c *Client) exchange(ctx context.Context, conn net.Conn, addr string, req Request, line string) (*Response, error) {
	lines := strings.Split(line, "\r\n")
	for i, l := range lines {
		// Form answers may be passwords (+ASK "AskP:"): the trace shows the
		// §3.4.9 layout, not the values.
		if i >= 2 && i < len(lines)-1 {
			l = "<redacted>"
		}
		c.trace('>', l)
	}
	// One write: the request line and, for a §3.4.9 form, its data block.
	if _, err := io.WriteString(conn, line+"\r\n"); err != nil {
		return nil, netErr(ctx, "send request to "+addr, err)
	}
	br := bufio.NewReaderSize(conn, 32<<10)
	resp := &Response{Request: req, Kind: KindOf(req.ItemType()), Size: -1, c: c}
	if isAttrRequest(req) {
		resp.Kind = Text
	}
	if req.HasPlus {
		sign, n, ok, err := peekStatus(br)
		if err != nil {
			return nil, netErr(ctx, "read Gopher+ status from "+addr, err)
		}
		if ok {
			c.trace('<', string(sign)+strconv.FormatInt(n, 10))
			resp.Plus = true
			if sign == '-' {
				return nil, c.readPlusError(ctx, br, n, req.Selector, addr)
			}
			switch n {
			case -1: // dot-terminated
				resp.dr = newDotReader(br, c.Unstuff)
				resp.Body = io.NopCloser(resp.dr)
			case -2: // to close
				resp.raw = br
				resp.Body = io.NopCloser(br)
			default:
				resp.Size = n
				resp.sr = &sizedReader{r: br, left: n, size: n}
				resp.Body = io.NopCloser(resp.sr)
			}
			return resp, nil
		}
	}
	// RFC 1436: a server that cannot serve the item sends a type-3 line,
	// for a binary item too (gophernicus, pygopherd). Binary data is
	// taken for one only when it starts with a whole menu line of type 3
	// (four fields, a numeric port, a line end), which no file format
	// does.
	var first string
	if resp.Kind == Binary {
		if b, _ := br.Peek(1); len(b) == 1 && b[0] == '3' {
			line, err := peekLine(br, 4096)
			if err != nil {
				return nil, netErr(ctx, "read reply from "+addr, err)
			}
			if b, _ := br.Peek(br.Buffered()); bytes.IndexByte(b, '\n') <= len(line)+1 && bytes.IndexByte(b, '\n') >= len(line) {
				first = line // a whole line
			}
		}
	} else {
		var err error
		if first, err = peekLine(br, 4096); err != nil {
			return nil, netErr(ctx, "read reply from "+addr, err)
		}
	}
	if isErrorLine(first, resp.Kind == Menu) {
		c.trace('<', first)
		it, _ := ParseItem(first)
		return nil, &ServerError{Selector: req.Selector, Message: it.Display}
	}
	if resp.Kind == Binary {
		resp.raw = br
		resp.Body = io.NopCloser(br)
		return resp, nil
	}
	if c.Raw {
		resp.raw = br
		resp.Body = io.NopCloser(br)
		return resp, nil
	}
	resp.dr = newDotReader(br, c.Unstuff)
	resp.Body = io.NopCloser(resp.dr)
	return resp, nil
}

// isErrorLine reports whether the first line of a reply is a type-3 error
// item. In a menu any "3" line is; a text file may begin with "3", so there
// the line must also have the four fields and numeric port of a menu line.
func isErrorLine(line string, menu bool) bool {
	if !strings.HasPrefix(line, "3") {
		return false
	}
	if menu {
		return true
	}
	f := strings.Split(line, "\t")
	if len(f) < 4 {
		return false
	}
	_, err := strconv.Atoi(strings.TrimSpace(f[3]))
	return err == nil
}

// peekStatus looks for a Gopher+ status line ("+N", "+-1", "+-2", "-N",
// "--1", "--2") at the start of br and consumes it if found. Anything else
// is left unread: the server did not speak Gopher+.
func peekStatus(br *bufio.Reader) (sign byte, n int64, ok bool, err error) {
	const max = 24
	for i := 1; i <= max; i++ {
		b, err := br.Peek(i)
		if len(b) < i {
			if err == io.EOF {
				err = nil
			}
			return 0, 0, false, err
		}
		switch c := b[i-1]; {
		case i == 1 && c != '+' && c != '-':
			return 0, 0, false, nil
		case i == 1:
		case c == '\n':
			sign, n, ok := parseStatus(string(bytes.TrimSuffix(b[:i-1], []byte{'\r'})))
			if ok {
				br.Discard(i)
			}
			return sign, n, ok, nil
		case c == '\r' || c == '-' || '0' <= c && c <= '9':
		default:
			return 0, 0, false, nil
		}
	}
	return 0, 0, false, nil
}

// peekLine returns the first line of br (without its ending) without
// consuming it, looking at most max bytes; a longer first line, or one not
// yet ended at EOF, is returned as far as it goes.
func peekLine(br *bufio.Reader, max int) (string, error) {
	for {
		b, err := br.Peek(br.Buffered())
		if i := bytes.IndexByte(b, '\n'); i >= 0 {
			return string(bytes.TrimSuffix(b[:i], []byte{'\r'})), nil
		}
		if len(b) >= max || err != nil {
			return string(b), err
		}
		if _, err := br.Peek(len(b) + 1); err != nil {
			b, _ = br.Peek(br.Buffered())
			if err == io.EOF {
				err = nil
			}
			return string(b), err
		}
	}
}

// readPlusError reads a Gopher+ error block: a first line "code contact",
// then the message (Gopher+: "-" status, same length rules as "+").
func (c *Client) readPlusError(ctx context.Context, br *bufio.Reader, n int64, selector, addr string) error {
	var r io.Reader
	switch {
	case n >= 0 && n <= maxErrorBytes:
		r = io.LimitReader(br, n)
	case n == -1:
		dr := newDotReader(br, c.Unstuff)
		dr.eager = true // a message, not data: its "." ends it at once
		r = dr
	case n == -2:
		r = io.LimitReader(br, maxErrorBytes)
	default:
		return &ProtocolError{Op: "read Gopher+ error block", Text: "-" + strconv.FormatInt(n, 10),
			Err: fmt.Errorf("announced %d bytes, more than %d", n, maxErrorBytes)}
	}
	lr := bufio.NewReaderSize(r, 4096)
	se := &ServerError{Selector: selector}
	var msg []string
	for i := 1; i <= 100; i++ {
		l, err := readLine(lr, c.maxLine())
		if err == io.EOF {
			break
		}
		if err != nil {
			if errors.Is(err, ErrLineTooLong) {
				return &ProtocolError{Op: "read Gopher+ error block", Line: i, Err: err}
			}
			return netErr(ctx, "read Gopher+ error block from "+addr, err)
		}
		c.trace('<', l)
		if i == 1 {
			code, contact, _ := strings.Cut(l, " ")
			if v, err := strconv.Atoi(code); err == nil {
				se.Code, se.Contact = v, strings.TrimSpace(contact)
				continue
			}
		}
		msg = append(msg, l)
	}
	se.Message = strings.Join(msg, "\n")
	return se
}

// netErr turns a failed read or write into an error that says what was
// being done and, when the context ended, wraps the context's error.
func netErr(ctx context.Context, op string, err error) error {
	if cerr := ctx.Err(); cerr != nil {
		return fmt.Errorf("gopher: %s: %w", op, cerr)
	}
	if errors.Is(err, os.ErrDeadlineExceeded) {
		// Only the context sets deadlines on the connection.
		return fmt.Errorf("gopher: %s: %w", op, context.DeadlineExceeded)
	}
	return fmt.Errorf("gopher: %s: %w", op, err)
}

// body is the Response.Body: it owns the connection.
type body struct {
	r         io.Reader
	raw       *bufio.Reader // under r when the body runs to the close
	dr        *dotReader    // under r for text and menus: how they were read
	conn      net.Conn
	stop      func() bool
	ctx       context.Context
	addr      string
	c         *Client
	n         int64
	traceSize bool
	closed    bool
	eof       bool
}

func (b *body) Read(p []byte) (int, error) {
	if b.closed {
		return 0, errors.New("gopher: read on closed body")
	}
	n, err := b.r.Read(p)
	b.n += int64(n)
	switch {
	case err == io.EOF:
		b.end()
	case err != nil:
		var pe *ProtocolError
		if !errors.As(err, &pe) {
			err = netErr(b.ctx, "read body from "+b.addr, err)
		}
	}
	return n, err
}

// end marks the end of the data, which the trace shows with its size.
func (b *body) end() {
	if !b.eof && b.traceSize {
		if b.dr != nil {
			b.c.trace('<', fmt.Sprintf("[%d bytes; %s]", b.n, b.dr.reading()))
		} else {
			b.c.trace('<', fmt.Sprintf("[%d bytes]", b.n))
		}
	}
	b.eof = true
}

// WriteTo copies the body to w: through a buffer, and, for a body that
// runs to the close (binary items, "+-2") into an io.ReaderFrom once the
// transfer is fast, the connection itself (see internal/zerocopy).
func (b *body) WriteTo(w io.Writer) (int64, error) { return zerocopy.WriteTo(b, w) }

// Received is the count of bytes so far.
func (b *body) Received() int64 { return b.n }

// Direct hands rf up to n bytes of a body that runs to the close: first
// what the reader has buffered, then the connection itself.
func (b *body) Direct(rf io.ReaderFrom, n int64) (written int64, eof, ok bool, err error) {
	if b.raw == nil || b.closed || b.eof {
		return 0, false, false, nil
	}
	if k := b.raw.Buffered(); k > 0 {
		written, err = rf.ReadFrom(io.LimitReader(b.raw, min(int64(k), n)))
		b.n += written
		return written, false, true, err // reading buffered bytes cannot fail: err is rf's
	}
	written, eof, err = zerocopy.ReadFrom(rf, b.conn, n)
	b.n += written
	switch {
	case eof:
		b.end()
	case err != nil && zerocopy.Broken(b.ctx, err):
		err = netErr(b.ctx, "read body from "+b.addr, err)
	}
	return written, eof, true, err
}

func (b *body) Close() error {
	if b.closed {
		return nil
	}
	b.closed = true
	b.stop()
	return b.conn.Close()
}
