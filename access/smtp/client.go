package smtp

import (
	"context"
	"crypto/tls"
	"encoding/base64"
	"errors"
	"fmt"
	"net"
	"net/textproto"
	"strings"
	"time"

	"github.com/rfc1738/rfc1738/internal/safetext"
)

// MaxRead bounds everything read from the relay in one session.
const MaxRead = 1 << 20

// Redacted is what a trace shows after "AUTH " in place of the PLAIN
// credentials.
const Redacted = "PLAIN <redacted>"

// A Client is one session with a relay. It is not safe for concurrent use.
type Client struct {
	nc     net.Conn // the TCP connection, under TLS after StartTLS
	tc     *traceConn
	tp     *textproto.Conn
	trace  func(dir byte, line string)
	stop   func() bool       // ends the context's watch of the connection
	ext    map[string]string // EHLO keywords (upper case) and their parameters
	secure bool
}

// Dial connects to the relay at addr (host:port) and reads its greeting
// (RFC 5321 §4.2: 220). The context's deadline and cancellation hold for
// the whole session, under TLS too. trace, when not nil, sees every line:
// dir '>' sent, '<' received, '!' a note.
func Dial(ctx context.Context, addr string, trace func(dir byte, line string)) (*Client, error) {
	var dialer net.Dialer
	nc, err := dialer.DialContext(ctx, "tcp", addr)
	if err != nil {
		return nil, err
	}
	if dl, ok := ctx.Deadline(); ok {
		nc.SetDeadline(dl)
	}
	// The deadlines of the TCP connection hold under TLS too: a tls.Conn
	// reads and writes through it.
	stop := context.AfterFunc(ctx, func() { nc.SetDeadline(time.Unix(1, 0)) })
	tc := &traceConn{conn: nc, trace: trace, left: MaxRead}
	c := &Client{nc: nc, tc: tc, tp: textproto.NewConn(tc), trace: trace, stop: stop}
	if _, _, err := c.reply(220); err != nil {
		c.Close()
		return nil, fmt.Errorf("greeting: %w", err)
	}
	return c, nil
}

// Close closes the connection without QUIT.
func (c *Client) Close() error {
	c.stop()
	return c.tc.Close()
}

// RemoteAddr returns the relay's address.
func (c *Client) RemoteAddr() net.Addr { return c.nc.RemoteAddr() }

// Secure reports whether the session is under TLS.
func (c *Client) Secure() bool { return c.secure }

// Extension reports whether the relay offered the EHLO keyword name (upper
// case) in its last answer to EHLO, and its parameters.
func (c *Client) Extension(name string) (string, bool) {
	v, ok := c.ext[name]
	return v, ok
}

func (c *Client) note(line string) {
	if c.trace != nil {
		c.trace('!', line)
	}
}

// Cmd sends one command line and reads its reply, which must have the
// code (see textproto.Reader.ReadResponse: 25 means any 25x).
func (c *Client) Cmd(code int, line string) error {
	id, err := c.tp.Cmd("%s", line)
	if err != nil {
		return err
	}
	c.tp.StartResponse(id)
	defer c.tp.EndResponse(id)
	_, _, err = c.reply(code)
	return err
}

// reply reads a reply that must have the code (see Cmd); a refusal is a
// *RefusalError.
func (c *Client) reply(code int) (int, string, error) {
	got, msg, err := c.tp.ReadResponse(code)
	var te *textproto.Error
	if errors.As(err, &te) {
		err = &RefusalError{te}
	}
	return got, msg, err
}

// Hello sends EHLO and learns the extensions the relay offers (RFC 5321
// §4.1.1.1), forgetting those it knew: after STARTTLS they are learnt
// again (RFC 3207 §4.2). A relay that refuses EHLO with 5xx gets HELO,
// and offers nothing (RFC 5321 §3.2).
func (c *Client) Hello() error {
	c.ext = map[string]string{}
	id, err := c.tp.Cmd("EHLO localhost")
	if err != nil {
		return err
	}
	c.tp.StartResponse(id)
	_, msg, err := c.reply(250)
	c.tp.EndResponse(id)
	var te *textproto.Error
	if errors.As(err, &te) && te.Code/100 == 5 {
		return c.Cmd(250, "HELO localhost")
	}
	if err != nil {
		return err
	}
	// The first line is the relay's name; each other line is an
	// ehlo-keyword and its parameters.
	lines := strings.Split(msg, "\n")
	for _, l := range lines[1:] {
		k, v, _ := strings.Cut(l, " ")
		c.ext[strings.ToUpper(k)] = v
	}
	return nil
}

// StartTLS upgrades the session (RFC 3207 §4): STARTTLS, 220, then the
// TLS handshake with the relay's certificate verified against cfg. The
// trace goes on seeing the lines in clear text. The caller sends EHLO
// again (§4.2).
func (c *Client) StartTLS(ctx context.Context, cfg *tls.Config) error {
	if err := c.Cmd(220, "STARTTLS"); err != nil {
		// RFC 3207 §4: 454 means TLS is not available now. The relay
		// offered it, so this is no reason to go on in plain text.
		return fmt.Errorf("the relay offered STARTTLS, then refused it; the message is not sent in plain text instead: %w", err)
	}
	// RFC 3207 §6: whatever came with the 220 came in plain text, from
	// anyone on the path; the TLS session must start from nothing.
	if n := c.tp.R.Buffered(); n > 0 {
		return &ProtocolError{Step: "STARTTLS", Problem: fmt.Sprintf("the relay sent %d bytes after its 220, before the TLS handshake (text injected in plain text?)", n)}
	}
	tlsConn := tls.Client(c.nc, cfg)
	if err := tlsConn.HandshakeContext(ctx); err != nil {
		return fmt.Errorf("TLS with %s failed, and the message is not sent in plain text instead: %w", cfg.ServerName, err)
	}
	st := tlsConn.ConnectionState()
	c.tc.swap(tlsConn)
	c.tp = textproto.NewConn(c.tc)
	c.secure = true
	c.note(fmt.Sprintf("%s, %s, certificate for %s verified", tls.VersionName(st.Version), tls.CipherSuiteName(st.CipherSuite), cfg.ServerName))
	return nil
}

// PlainAuthAllowed decides whether AUTH PLAIN may be sent: its password
// is only base64, so it goes under TLS, or to a relay on a loopback
// address, where no network sees it (RFC 4616 §6; net/smtp's PlainAuth
// decides the same).
func PlainAuthAllowed(relay net.Addr, secure bool) error {
	if secure {
		return nil
	}
	if a, ok := relay.(*net.TCPAddr); ok && a.IP.IsLoopback() {
		return nil
	}
	return fmt.Errorf("the session with %s is not under TLS, and AUTH PLAIN would send the password in plain text (RFC 4616 §6): nothing was sent; use a relay that offers STARTTLS", relay)
}

// AuthPlain authenticates with AUTH PLAIN and an initial response (RFC
// 4954 §4, RFC 4616 §2): base64 of NUL user NUL password, the
// authorization identity left empty (the same as the user). The trace
// sees "AUTH PLAIN <redacted>". The caller checks PlainAuthAllowed and
// the relay's offer first.
func (c *Client) AuthPlain(user, password string) error {
	resp := base64.StdEncoding.EncodeToString([]byte("\x00" + user + "\x00" + password))
	c.tc.setQuiet(true)
	if c.trace != nil {
		c.trace('>', "AUTH "+Redacted)
	}
	id, err := c.tp.Cmd("AUTH PLAIN %s", resp)
	c.tc.setQuiet(false)
	if err != nil {
		return err
	}
	c.tp.StartResponse(id)
	defer c.tp.EndResponse(id)
	code, msg, err := c.reply(0)
	switch {
	case err != nil:
		return err
	case code == 235: // RFC 4954 §6
		return nil
	case code == 334:
		// The initial response was all there is to PLAIN: cancel the
		// exchange (RFC 4954 §4: "*").
		c.tp.PrintfLine("*")
		return &ProtocolError{Step: "AUTH PLAIN", Problem: fmt.Sprintf("the relay asked for more (334 %s) after the whole PLAIN response", safetext.Escape(msg))}
	}
	return &RefusalError{&textproto.Error{Code: code, Msg: msg}}
}

// Data sends the message after the relay's 354 to DATA (RFC 5321
// §4.1.1.4): its lines dot-stuffed (§4.5.2) and each ending in CRLF, a
// lone CR or LF made CRLF (§2.3.8), then ".", and reads the 250 that
// takes it. msg is the whole message, header fields and body; it is not
// traced, only its size. A message with NUL is a *MessageError before
// any of it is written (see CheckMessage); the session cannot go on
// then, and the caller closes it without ".", so the relay takes
// nothing (§4.1.1.4).
func (c *Client) Data(msg []byte) error {
	if err := CheckMessage(msg); err != nil {
		return err
	}
	c.tc.setQuiet(true)
	err := writeData(c.tp.W, msg)
	c.tc.setQuiet(false)
	if err != nil {
		return err
	}
	c.note(fmt.Sprintf("<message of %d bytes, dot-stuffed, then \".\">", len(msg)))
	if _, _, err := c.reply(250); err != nil {
		return fmt.Errorf("end of data: %w", err)
	}
	return nil
}

// Quit ends the session (RFC 5321 §4.1.1.10) and closes the connection.
func (c *Client) Quit() error {
	if err := c.Cmd(221, "QUIT"); err != nil {
		c.Close()
		return err
	}
	return c.Close()
}

// Abort ends a session that is sound but cannot go on, politely (QUIT),
// within a short time, and closes the connection: the error is already
// known.
func (c *Client) Abort(ctx context.Context) {
	dl := time.Now().Add(2 * time.Second)
	if d, ok := ctx.Deadline(); ok && d.Before(dl) {
		dl = d
	}
	c.nc.SetDeadline(dl)
	c.Cmd(221, "QUIT")
	c.Close()
}

// HasWord reports whether the space-separated list holds word, in any
// case: an EHLO parameter list such as AUTH's mechanisms.
func HasWord(list, word string) bool {
	for _, w := range strings.Fields(list) {
		if strings.EqualFold(w, word) {
			return true
		}
	}
	return false
}
