// Package nntp is a client for the Network News Transfer Protocol (RFC 977,
// RFC 3977), enough to fetch what RFC 1738 news: and nntp: URLs name:
//
//   - §3.6 news:<newsgroup-name> → [Conn.Group] and [Conn.Over];
//   - §3.6 news:<message-id> (no brackets in the URL) → [Conn.ArticleByID];
//   - §3.6 news:* → [Conn.ListActive];
//   - §3.7 nntp://<host>:<port>/<newsgroup-name>/<article-number> →
//     [Conn.Group] then [Conn.Article].
//
// The client is built on net/textproto: server refusals come back as
// *textproto.Error wrapped with the command that got them, a broken peer as
// a *ProtocolError, and multi-line data is dot-unstuffed by textproto's
// DotReader and streamed, so memory is bounded by one line, not by a group
// or an article.
//
// # MODE READER policy
//
// RFC 3977 §5.3: a mode-switching server (INN's innd) starts in transit
// mode and answers reader commands with "401 MODE-READER"; RFC 977 era
// servers answered "500" and expected the client to know. With the zero
// [Config] ([ModeReaderAuto]) the client sends nothing extra after the
// greeting; the first reader command that gets 401 MODE-READER (or a 500
// whose text names MODE-READER / MODE READER) makes it send MODE READER once
// and retry that command once. [Conn.Capabilities] also switches when the
// server lists MODE-READER without READER (RFC 3977 §5.2.2). [ModeReaderAlways]
// sends MODE READER right after the greeting (RFC 2980 §2.3 habit);
// [ModeReaderNever] never sends it.
//
// # Authentication
//
// RFC 4643 §2.3: AUTHINFO USER/PASS is sent only when the server demands it
// with 480, and only if [Config.Username] is set; the refused command is
// then retried once. Without credentials the 480 is returned to the caller
// ([IsAuthRequired]). The password is never passed to [Config.Trace] nor put
// in an error.
//
// A Conn is not safe for concurrent use. An article body left unread is
// drained by the next command, so forgetting Close costs time, not the
// connection.
package nntp

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/textproto"
	"os"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/rfc1738/rfc1738/internal/dialerr"
)

// DefaultPort is the NNTP port (RFC 3977 §3; RFC 1738 §3.7: "If :<port> is
// omitted, the port defaults to 119").
const DefaultPort = 119

// DefaultMaxLineLength bounds one line read from the server when
// Config.MaxLineLength is zero. RFC 3977 §3.1 limits command/response lines
// to 512 octets, but overview lines carry References headers that grow much
// longer, so the default is generous.
const DefaultMaxLineLength = 64 << 10

// DefaultMaxListLines bounds the number of groups [Conn.ListActive]
// accepts when Config.MaxListLines is zero.
const DefaultMaxListLines = 1 << 20

// Reply codes the package gives a name to (RFC 3977 §3.2, RFC 4643 §2.3).
const (
	CodePostingAllowed     = 200 // greeting: service available, posting allowed
	CodeNoPosting          = 201 // greeting: service available, posting prohibited
	CodeGroupSelected      = 211 // GROUP
	CodeListFollows        = 215 // LIST ACTIVE
	CodeArticleFollows     = 220 // ARTICLE
	CodeOverviewFollows    = 224 // OVER / XOVER
	CodeAuthAccepted       = 281 // AUTHINFO
	CodePasswordRequired   = 381 // AUTHINFO USER
	CodeUnavailable        = 400 // greeting: service temporarily unavailable
	CodeWrongMode          = 401 // e.g. "401 MODE-READER"
	CodeNoSuchGroup        = 411
	CodeNoGroupSelected    = 412
	CodeNoCurrentArticle   = 420
	CodeNoSuchNumber       = 423
	CodeNoSuchMessageID    = 430
	CodeAuthRequired       = 480
	CodeAuthRejected       = 481
	CodeUnknownCommand     = 500
	CodeSyntaxError        = 501
	CodeServiceUnavailable = 502 // greeting: permanently unavailable; or command not permitted
)

// ModeReaderPolicy says when the client sends MODE READER (RFC 3977 §5.3).
type ModeReaderPolicy int

const (
	// ModeReaderAuto sends MODE READER only when a reader command is
	// answered "401 MODE-READER" (or a 500 naming it), or when
	// Capabilities lists MODE-READER without READER; the command is then
	// retried once.
	ModeReaderAuto ModeReaderPolicy = iota
	// ModeReaderAlways sends MODE READER right after the greeting.
	ModeReaderAlways
	// ModeReaderNever never sends MODE READER.
	ModeReaderNever
)

// Dialer opens the TCP connection; *net.Dialer satisfies it.
type Dialer interface {
	DialContext(ctx context.Context, network, address string) (net.Conn, error)
}

// Config tunes a connection. Its zero value works.
type Config struct {
	// Dialer opens the connection; nil means a zero net.Dialer.
	Dialer Dialer
	// Username and Password are sent with AUTHINFO USER/PASS (RFC 4643)
	// only when the server answers 480; empty Username means never.
	Username, Password string
	// ModeReader says when to send MODE READER; see the package doc.
	ModeReader ModeReaderPolicy
	// MaxLineLength bounds every status, overview and list line read from
	// the server, CRLF excluded; 0 means DefaultMaxLineLength. Article
	// text streams through DotReader a buffer at a time, so it needs no
	// line bound to keep memory bounded.
	MaxLineLength int
	// MaxListLines bounds the groups ListActive accepts; 0 means
	// DefaultMaxListLines.
	MaxListLines int
	// Trace, if set, sees each command sent (dir '>') and each status or
	// listing line received (dir '<'), without CRLF. Passwords show as
	// "AUTHINFO PASS ****". Article text is not traced.
	Trace func(dir byte, line string)
}

// Conn is an NNTP client connection.
type Conn struct {
	cfg     Config
	nc      net.Conn
	br      *bufio.Reader
	tp      *textproto.Reader
	bw      *bufio.Writer
	maxLine int

	greetCode int
	greetText string

	group      string   // group selected by the last successful GROUP
	readerMode bool     // MODE READER accepted
	xover      bool     // OVER was unknown (500): use XOVER (RFC 2980 §2.8)
	listOnly   bool     // LIST ACTIVE got 501: use bare LIST (RFC 977 §3.6)
	body       *Article // open article body, drained by the next command
	broken     error    // sticky: the stream is out of step or closed

	dlMu sync.Mutex // orders ctx-cancellation deadlines against re-arming
	gen  uint64
}

// Dial connects to addr ("host:port"; a missing port means 119), reads the
// greeting (RFC 3977 §5.1: 200 or 201; 400 and 502 are returned as
// *textproto.Error) and, under ModeReaderAlways, sends MODE READER.
func Dial(ctx context.Context, addr string, cfg Config) (*Conn, error) {
	if cfg.Username != "" {
		// RFC 1738 §6 / RFC 4643 §2.3: the last line of defence before
		// a credential goes into a command line.
		if err := checkLineSafe("username", cfg.Username); err != nil {
			return nil, err
		}
		if err := checkLineSafe("password", cfg.Password); err != nil {
			return nil, err
		}
	}
	if _, _, err := net.SplitHostPort(addr); err != nil {
		addr = net.JoinHostPort(strings.Trim(addr, "[]"), strconv.Itoa(DefaultPort))
	}
	d := cfg.Dialer
	if d == nil {
		d = &net.Dialer{}
	}
	nc, err := d.DialContext(ctx, "tcp", addr)
	if err != nil {
		return nil, fmt.Errorf("nntp: dial %s: %w", addr, dialerr.Trim(err))
	}
	c := newConn(nc, cfg)
	disarm := c.arm(ctx)
	err = c.greet(ctx, addr)
	if err == nil && cfg.ModeReader == ModeReaderAlways {
		err = c.modeReader(ctx)
	}
	disarm()
	if err != nil {
		nc.Close()
		return nil, err
	}
	return c, nil
}

func newConn(nc net.Conn, cfg Config) *Conn {
	max := cfg.MaxLineLength
	if max <= 0 {
		max = DefaultMaxLineLength
	}
	br := bufio.NewReaderSize(nc, max+2) // +CRLF: ReadSlice needs the whole line in the buffer
	return &Conn{
		cfg:     cfg,
		nc:      nc,
		br:      br,
		tp:      textproto.NewReader(br),
		bw:      bufio.NewWriter(nc),
		maxLine: max,
	}
}

func (c *Conn) greet(ctx context.Context, addr string) error {
	what := "greeting from " + addr
	code, text, err := c.readStatus(ctx, what)
	if err != nil {
		return err
	}
	switch code {
	case CodePostingAllowed, CodeNoPosting:
		c.greetCode, c.greetText = code, text
		return nil
	case CodeUnavailable, CodeServiceUnavailable:
		return refusal(what, code, text)
	}
	return c.protocolError(what, strconv.Itoa(code)+" "+text, "greeting is not 200, 201, 400 or 502")
}

// Greeting returns the code (200 posting allowed, 201 not) and text of the
// server's greeting.
func (c *Conn) Greeting() (code int, text string) { return c.greetCode, c.greetText }

// Close sends QUIT (RFC 3977 §5.4) when the connection is idle and in
// step, waiting at most two seconds for the 205, then closes it.
func (c *Conn) Close() error {
	if c.broken == nil && (c.body == nil || c.body.done) {
		ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
		disarm := c.arm(ctx)
		if err := c.send(ctx, "QUIT", "QUIT"); err == nil {
			_, _, _ = c.readStatus(ctx, "QUIT")
		}
		disarm()
		cancel()
	}
	if c.broken != nil {
		c.nc.Close() // already closed when the connection broke
		return nil
	}
	c.broken = net.ErrClosed
	return c.nc.Close()
}

// aLongTimeAgo is a deadline in the past: setting it unblocks any read.
var aLongTimeAgo = time.Unix(1, 0)

// arm applies ctx to the connection: its deadline becomes the conn's, and
// its cancellation sets a past deadline so a blocked read returns at once.
// The returned func undoes the cancellation hook.
func (c *Conn) arm(ctx context.Context) (disarm func()) {
	if d, ok := ctx.Deadline(); ok {
		_ = c.nc.SetDeadline(d)
	} else {
		_ = c.nc.SetDeadline(time.Time{})
	}
	c.dlMu.Lock()
	c.gen++
	gen := c.gen
	c.dlMu.Unlock()
	stop := context.AfterFunc(ctx, func() {
		c.dlMu.Lock()
		if c.gen == gen {
			_ = c.nc.SetDeadline(aLongTimeAgo)
		}
		c.dlMu.Unlock()
	})
	return func() {
		c.dlMu.Lock()
		c.gen++
		c.dlMu.Unlock()
		stop()
	}
}

// ioError records a transport failure: the connection is closed and every
// later call returns the error. A deadline that came from ctx is reported
// as ctx's error too, so errors.Is(err, context.DeadlineExceeded) holds.
func (c *Conn) ioError(ctx context.Context, what string, err error) error {
	if err == io.EOF {
		err = io.ErrUnexpectedEOF
	}
	cerr := ctx.Err()
	if cerr == nil && errors.Is(err, os.ErrDeadlineExceeded) {
		if _, ok := ctx.Deadline(); ok {
			cerr = context.DeadlineExceeded
		}
	}
	if cerr != nil {
		err = fmt.Errorf("nntp: %s: %w (%w)", what, cerr, err)
	} else {
		err = fmt.Errorf("nntp: %s: %w", what, err)
	}
	c.breakWith(err)
	return err
}

func (c *Conn) breakWith(err error) {
	if c.broken == nil {
		c.broken = err
	}
	c.nc.Close()
}

// protocolError reports a peer that broke the protocol. The stream can no
// longer be trusted to be in step, so the connection is closed.
func (c *Conn) protocolError(what, line, reason string) error {
	err := &ProtocolError{Cmd: what, Line: clip(line), Reason: reason}
	c.breakWith(err)
	return err
}

// begin readies the connection for a command: it fails if the connection
// is broken, drains an open article body, and arms ctx.
func (c *Conn) begin(ctx context.Context) (disarm func(), err error) {
	if c.broken != nil {
		return nil, fmt.Errorf("nntp: connection unusable: %w", c.broken)
	}
	if b := c.body; b != nil && !b.done {
		if err := b.Close(); err != nil {
			return nil, err
		}
	}
	c.body = nil
	if err := ctx.Err(); err != nil {
		return nil, fmt.Errorf("nntp: %w", err)
	}
	return c.arm(ctx), nil
}

func (c *Conn) trace(dir byte, line string) {
	if c.cfg.Trace != nil {
		c.cfg.Trace(dir, line)
	}
}

// send writes one command line. shown is what Trace sees (the password
// redacted).
func (c *Conn) send(ctx context.Context, line, shown string) error {
	c.trace('>', shown)
	c.bw.WriteString(line)
	c.bw.WriteString("\r\n")
	if err := c.bw.Flush(); err != nil {
		return c.ioError(ctx, shown, err)
	}
	return nil
}

// readLine reads one line of at most maxLine bytes, without its CRLF (a
// bare LF is accepted).
func (c *Conn) readLine(ctx context.Context, what string) (string, error) {
	b, err := c.br.ReadSlice('\n')
	if err == bufio.ErrBufferFull {
		return "", c.protocolError(what, string(b), fmt.Sprintf("line longer than %d bytes", c.maxLine))
	}
	if err != nil {
		return "", c.ioError(ctx, what, err)
	}
	b = b[:len(b)-1]
	if n := len(b); n > 0 && b[n-1] == '\r' {
		b = b[:n-1]
	}
	s := string(b)
	c.trace('<', s)
	return s, nil
}

// readStatus reads a status line "NNN text" (RFC 3977 §3.2).
func (c *Conn) readStatus(ctx context.Context, what string) (int, string, error) {
	line, err := c.readLine(ctx, what)
	if err != nil {
		return 0, "", err
	}
	if len(line) < 3 || !isDigit(line[0]) || !isDigit(line[1]) || !isDigit(line[2]) ||
		line[0] < '1' || line[0] > '5' || (len(line) > 3 && line[3] != ' ') {
		return 0, "", c.protocolError(what, line, "status line is not a three-digit code and text")
	}
	code := int(line[0]-'0')*100 + int(line[1]-'0')*10 + int(line[2]-'0')
	text := ""
	if len(line) > 4 {
		text = line[4:]
	}
	return code, text, nil
}

// command sends line and reads its status, handling the two demands a
// server may make before it answers (each at most once per command):
// 480 → AUTHINFO USER/PASS (RFC 4643 §2.3) and 401 MODE-READER → MODE
// READER (RFC 3977 §5.3); the command is then sent again.
func (c *Conn) command(ctx context.Context, line string) (int, string, error) {
	authTried, modeTried := false, false
	for {
		if err := c.send(ctx, line, line); err != nil {
			return 0, "", err
		}
		code, text, err := c.readStatus(ctx, line)
		if err != nil {
			return 0, "", err
		}
		switch {
		case code == CodeAuthRequired && c.cfg.Username != "" && !authTried:
			authTried = true
			if err := c.authenticate(ctx); err != nil {
				return 0, "", err
			}
			continue
		case modeReaderDemand(code, text) && c.cfg.ModeReader == ModeReaderAuto && !c.readerMode && !modeTried:
			modeTried = true
			if err := c.modeReader(ctx); err != nil {
				return 0, "", err
			}
			continue
		}
		return code, text, nil
	}
}

// modeReaderDemand reports a reply that asks for MODE READER: RFC 3977
// §3.2.1 puts the capability label first in a 401's text ("401
// MODE-READER", which INN's transit mode sends); older servers said 500 and
// named the command.
func modeReaderDemand(code int, text string) bool {
	switch code {
	case CodeWrongMode:
		label, _, _ := strings.Cut(text, " ")
		return strings.EqualFold(label, "MODE-READER")
	case CodeUnknownCommand:
		u := strings.ToUpper(text)
		return strings.Contains(u, "MODE-READER") || strings.Contains(u, "MODE READER")
	}
	return false
}

// modeReader sends MODE READER (RFC 3977 §5.3: 200 or 201 on success).
func (c *Conn) modeReader(ctx context.Context) error {
	const cmd = "MODE READER"
	if err := c.send(ctx, cmd, cmd); err != nil {
		return err
	}
	code, text, err := c.readStatus(ctx, cmd)
	if err != nil {
		return err
	}
	switch code {
	case CodePostingAllowed, CodeNoPosting:
		c.readerMode = true
		return nil
	}
	return c.unexpected(cmd, code, text)
}

// authenticate runs RFC 4643 §2.3 AUTHINFO USER, then AUTHINFO PASS if
// the server answers 381.
func (c *Conn) authenticate(ctx context.Context) error {
	user := "AUTHINFO USER " + c.cfg.Username
	if err := c.send(ctx, user, user); err != nil {
		return err
	}
	code, text, err := c.readStatus(ctx, user)
	if err != nil {
		return err
	}
	if code == CodeAuthAccepted {
		return nil
	}
	if code != CodePasswordRequired {
		return c.unexpected(user, code, text)
	}
	const shown = "AUTHINFO PASS ****"
	if err := c.send(ctx, "AUTHINFO PASS "+c.cfg.Password, shown); err != nil {
		return err
	}
	code, text, err = c.readStatus(ctx, shown)
	if err != nil {
		return err
	}
	if code == CodeAuthAccepted {
		return nil
	}
	return c.unexpected(shown, code, text)
}

// unexpected turns a reply the command did not want into an error: a 4xx
// or 5xx is the server's refusal (*textproto.Error) and leaves the
// connection usable; anything else means the two sides disagree about
// what comes next, a ProtocolError.
func (c *Conn) unexpected(cmd string, code int, text string) error {
	if code >= 400 {
		return refusal(cmd, code, text)
	}
	return c.protocolError(cmd, strconv.Itoa(code)+" "+text, "unexpected reply code")
}

func refusal(cmd string, code int, text string) error {
	return &CommandError{Cmd: cmd, Reply: &textproto.Error{Code: code, Msg: text}}
}

func isDigit(b byte) bool { return '0' <= b && b <= '9' }

func clip(s string) string {
	const max = 120
	if len(s) > max {
		return s[:max] + "…"
	}
	return s
}
