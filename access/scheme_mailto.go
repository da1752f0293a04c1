package access

import (
	"bytes"
	"context"
	"crypto/tls"
	"encoding/base64"
	"errors"
	"fmt"
	"io"
	"mime"
	"net"
	"net/textproto"
	"os"
	"strings"
	"sync"
	"time"

	"github.com/rfc1738/rfc1738"
)

func init() { defaultHandlers["mailto"] = Mailto{} }

// ErrNotDataObject is wrapped by the error of Get for a URL that names no
// data object: a mailto URL names a mailbox (§3.5).
var ErrNotDataObject = errors.New("not a data object")

// MaxMailBody bounds the body of a message Send reads.
const MaxMailBody = 10 << 20

// maxSMTPRead bounds everything read from the relay in one conversation.
const maxSMTPRead = 1 << 20

// The settings of Mailto.TLS: when Send upgrades the SMTP session with
// STARTTLS (RFC 3207).
const (
	MailtoTLSAuto    = "auto"    // upgrade when the relay offers STARTTLS, else plain text
	MailtoTLSRequire = "require" // fail before MAIL unless the session is upgraded
	MailtoTLSOff     = "off"     // never upgrade
)

// Placeholders of the run-time parts of a mailto plan.
const (
	mailtoIfOffered = "<if offered>" // STARTTLS in the auto mode
	mailtoRedacted  = "PLAIN <redacted>"
)

// Mailto is the handler of mailto URLs (RFC 1738 §3.5). A mailto URL
// names an Internet mailbox, not a data object, so Get refuses with an
// error wrapping ErrNotDataObject that says so. Plan shows the SMTP
// envelope a message to the mailbox would have (RFC 5321 §3.3: MAIL
// FROM:<Client.Email>, RCPT TO:<address>, DATA), preceded by STARTTLS
// and AUTH when they would be used, and Send sends one along it through
// the relay. The zero value has no relay.
type Mailto struct {
	// Relay is the SMTP relay, host:port, that Send gives mail to; it is
	// the plan's Connect. "" means none is configured.
	Relay string

	// TLS chooses whether the session is upgraded with STARTTLS (RFC
	// 3207): MailtoTLSAuto ("auto", or ""), MailtoTLSRequire ("require")
	// or MailtoTLSOff ("off"). In every mode a certificate that does not
	// verify, or a STARTTLS the relay offers and then refuses, is an
	// error: Send never falls back to plain text once it tried TLS.
	TLS string

	// TLSConfig configures the upgrade: its RootCAs (nil: the system's)
	// and ServerName ("": the relay's host, a name or an IP address) are
	// the ones the relay's certificate is verified against. Nil means
	// both defaults. A config with InsecureSkipVerify is refused.
	TLSConfig *tls.Config

	// User and Password, when User is set, are sent with AUTH PLAIN (RFC
	// 4954, RFC 4616) after STARTTLS and before MAIL. They are sent only
	// over TLS, or to a relay on a loopback address; otherwise Send
	// fails before sending them. The password never appears in a plan,
	// a trace or an error.
	User, Password string
}

// mailtoPlan is the execution detail of a mailto plan (Plan.Data).
type mailtoPlan struct {
	from, to string
	user     string // the AUTH PLAIN authentication identity, or ""
}

// tlsMode returns h.TLS checked, "" read as MailtoTLSAuto.
func (h Mailto) tlsMode() (string, error) {
	switch h.TLS {
	case "", MailtoTLSAuto:
		return MailtoTLSAuto, nil
	case MailtoTLSRequire, MailtoTLSOff:
		return h.TLS, nil
	}
	return "", fmt.Errorf("the TLS setting %q is none of auto, require, off", h.TLS)
}

// Plan makes the SMTP envelope of a message to the URL's address. It
// refuses an address that is not one RFC 822 addr-spec, and CR, LF and NUL
// in the address, the sender or the user name (§6: they would end the
// SMTP command line).
func (h Mailto) Plan(c *Client, u rfc1738.URL) (*Plan, error) {
	m, ok := u.Mailto()
	if !ok {
		return nil, fmt.Errorf("%s: not a mailto URL", Redact(u.String()))
	}
	raw, _ := u.Opaque()
	if err := CheckLine(u, raw, u.OpaqueOffset(), "address", LineDelimiters); err != nil {
		return nil, err
	}
	if !m.AddrSpec {
		return nil, fmt.Errorf("%s: %q is not one RFC 822 addr-spec (local-part@domain, §3.5): it cannot be an SMTP recipient", u, m.Address)
	}
	if err := checkMailbox("sender (Client.Email)", c.Email); err != nil {
		return nil, fmt.Errorf("%s: %w", u, err)
	}
	mode, err := h.tlsMode()
	if err != nil {
		return nil, fmt.Errorf("%s: %w", u, err)
	}
	if err := checkSMTPUser(h.User); err != nil {
		return nil, fmt.Errorf("%s: %w", u, err)
	}
	p := &Plan{Connect: h.Relay, Data: &mailtoPlan{from: c.Email, to: m.Address, user: h.User}}
	switch mode {
	case MailtoTLSAuto:
		p.Steps = append(p.Steps, Step{Verb: "STARTTLS", Placeholder: mailtoIfOffered})
		p.Notes = append(p.Notes, "STARTTLS (RFC 3207) is sent if the relay offers it in its answer to EHLO, else the message goes in plain text; once sent, a certificate that does not verify is an error, and EHLO is sent again (§4.2)")
	case MailtoTLSRequire:
		p.Steps = append(p.Steps, Step{Verb: "STARTTLS"})
		p.Notes = append(p.Notes, "STARTTLS (RFC 3207) is required: nothing is sent unless the relay offers it and its certificate verifies; then EHLO is sent again (§4.2)")
	}
	if h.User != "" {
		// RFC 4954 §4 with an initial response; RFC 4616 §2: the
		// message is [authzid] NUL authcid NUL passwd, in base64.
		p.Steps = append(p.Steps, Step{Verb: "AUTH", Arg: "PLAIN", HasArg: true, Placeholder: mailtoRedacted})
		p.Notes = append(p.Notes, fmt.Sprintf("AUTH PLAIN (RFC 4954, RFC 4616) as %q: the password is sent only under TLS, or to a relay on a loopback address", h.User))
	}
	p.Steps = append(p.Steps,
		Step{Verb: "MAIL", Arg: "FROM:<" + c.Email + ">", HasArg: true}, // RFC 5321 §3.3
		Step{Verb: "RCPT", Arg: "TO:<" + m.Address + ">", HasArg: true},
		Step{Verb: "DATA"},
	)
	p.Notes = append(p.Notes, "a mailto URL names an Internet mailbox, not a data object (§3.5): get refuses it; rfc1738 mail sends a message along this envelope, after EHLO, and ends with QUIT")
	if h.Relay == "" {
		p.Notes = append(p.Notes, "no SMTP relay is configured (--smtp, $RFC1738_SMTP or $SMTP_RELAY)")
	}
	return p, nil
}

// checkMailbox refuses an address that could break an SMTP line or the
// angle brackets of a path.
func checkMailbox(what, addr string) error {
	if addr == "" {
		return fmt.Errorf("the %s is empty", what)
	}
	if i := strings.IndexAny(addr, "\r\n\x00<>"); i >= 0 {
		return fmt.Errorf("the %s %q holds %q at byte %d, which would break the SMTP command (§6)", what, addr, addr[i], i)
	}
	return nil
}

// checkSMTPUser refuses CR, LF and NUL in an AUTH user name: NUL ends the
// authcid of RFC 4616 §2, and CR or LF have no business in a name that
// goes in a command line (§6).
func checkSMTPUser(user string) error {
	if i := strings.IndexAny(user, LineDelimiters); i >= 0 {
		return fmt.Errorf("the SMTP user name %q holds %q at byte %d, which would break AUTH PLAIN (RFC 4616 §2, §6)", user, user[i], i)
	}
	return nil
}

// Get refuses: a mailbox is not a data object (§3.5).
func (h Mailto) Get(ctx context.Context, c *Client, p *Plan) (*Response, error) {
	to := ""
	if d, ok := p.Data.(*mailtoPlan); ok {
		to = d.to
	}
	return nil, fmt.Errorf("%s: %w: a mailto URL names the Internet mailbox %s, and there is nothing to fetch from it (RFC 1738 §3.5); to send it a message, use \"rfc1738 mail %s\"",
		p.URL, ErrNotDataObject, to, p.URL)
}

// A HeaderField is one header field of a message.
type HeaderField struct {
	Name, Value string
}

// A Message is what Send sends to the address of a mailto URL.
type Message struct {
	Subject string
	Header  []HeaderField // more fields, in order, after From, To, Subject, Date and Message-ID (unless Header has one)
	Body    io.Reader     // at most MaxMailBody bytes; lines end in LF or CRLF
	Date    time.Time     // the Date field; zero means now
}

// RelayError is the error of Send for a relay that broke the SMTP
// protocol, as opposed to one that refused (a *textproto.Error).
type RelayError struct {
	Step    string // the command it answered, e.g. "STARTTLS"
	Problem string
}

func (e *RelayError) Error() string { return "after " + e.Step + ": " + e.Problem }

// smtpSession is one conversation of Send with the relay.
type smtpSession struct {
	c      *Client
	nc     net.Conn // the TCP connection, under TLS after STARTTLS
	tc     *smtpTrace
	tp     *textproto.Conn
	ext    map[string]string // EHLO keywords (upper case) and their parameters
	secure bool
}

// Send sends m along p, the plan of a mailto URL, through the relay of p
// (its Connect): EHLO, then exactly the plan's steps — STARTTLS (RFC 3207)
// and a second EHLO, AUTH PLAIN (RFC 4954), MAIL FROM, RCPT TO, DATA —,
// the message dot-stuffed (RFC 5321 §4.5.2), and QUIT. The message has
// the header fields From (the envelope sender), To, Subject, Date and
// m.Header; a field name must be printable ASCII without ":", and no
// value may hold CR, LF or NUL (§6). A relay's refusal is a
// *textproto.Error with its code and text, wrapped; a relay that breaks
// the protocol is a *RelayError, wrapped. The password of h is used for
// the plan's AUTH step.
func (h Mailto) Send(ctx context.Context, c *Client, p *Plan, m Message) error {
	d, ok := p.Data.(*mailtoPlan)
	if !ok {
		return fmt.Errorf("%s: not a plan of the mailto handler", p.URL)
	}
	if p.Connect == "" {
		return fmt.Errorf("%s: no SMTP relay is configured (--smtp, $RFC1738_SMTP or $SMTP_RELAY)", p.URL)
	}
	msg, err := composeMessage(d, m)
	if err != nil {
		return fmt.Errorf("%s: %w", p.URL, err)
	}
	host, _, err := net.SplitHostPort(p.Connect)
	if err != nil {
		return fmt.Errorf("%s: smtp relay %q: %w", p.URL, p.Connect, err)
	}
	var tlsConfig *tls.Config
	for _, s := range p.Steps {
		switch s.Verb {
		case "STARTTLS":
			if tlsConfig, err = h.tlsConfig(host); err != nil {
				return fmt.Errorf("%s: %w", p.URL, err)
			}
		case "AUTH":
			if err := checkSMTPUser(d.user); err != nil {
				return fmt.Errorf("%s: %w", p.URL, err)
			}
			if h.Password == "" {
				return fmt.Errorf("%s: no password for the SMTP user %q (AUTH PLAIN, RFC 4616 §2, needs one)", p.URL, d.user)
			}
			if strings.Contains(h.Password, "\x00") {
				return fmt.Errorf("%s: the SMTP password holds NUL, which would end it (RFC 4616 §2)", p.URL)
			}
		}
	}

	var dialer net.Dialer
	nc, err := dialer.DialContext(ctx, "tcp", p.Connect)
	if err != nil {
		return fmt.Errorf("%s: smtp relay: %w", p.URL, err)
	}
	if dl, ok := ctx.Deadline(); ok {
		nc.SetDeadline(dl)
	}
	// The deadlines of the TCP connection hold under TLS too: a tls.Conn
	// reads and writes through it.
	stop := context.AfterFunc(ctx, func() { nc.SetDeadline(time.Unix(1, 0)) })
	defer stop()
	tc := &smtpTrace{conn: nc, trace: c.Trace, left: maxSMTPRead}
	s := &smtpSession{c: c, nc: nc, tc: tc, tp: textproto.NewConn(tc)}
	fail := func(what string, err error) error {
		s.tc.Close()
		if cause := ctxCause(ctx, err); cause != nil {
			err = fmt.Errorf("%w (%v)", cause, err)
		}
		return fmt.Errorf("%s: smtp relay %s: %s: %w", p.URL, p.Connect, what, err)
	}
	// refuse ends a session that is sound but cannot go on: QUIT, then
	// the error.
	refuse := func(what string, err error) error {
		s.quit(ctx)
		return fail(what, err)
	}
	if _, _, err := s.tp.ReadResponse(220); err != nil {
		return fail("greeting", err)
	}
	if err := s.hello(); err != nil {
		return fail("EHLO", err)
	}
	expect := map[string]int{"MAIL": 250, "RCPT": 25, "DATA": 354}
	for _, step := range p.Steps {
		switch step.Verb {
		case "STARTTLS":
			if _, ok := s.ext["STARTTLS"]; !ok {
				if step.Placeholder == "" {
					return refuse("STARTTLS", errors.New("TLS is required, but the relay does not offer STARTTLS (RFC 3207 §4) in its answer to EHLO: nothing was sent"))
				}
				c.trace('!', "the relay does not offer STARTTLS: going on in plain text")
				continue
			}
			if err := s.startTLS(ctx, tlsConfig); err != nil {
				return fail("STARTTLS", err)
			}
			if err := s.hello(); err != nil {
				return fail("EHLO after STARTTLS", err)
			}
		case "AUTH":
			if err := plainAuthAllowed(nc.RemoteAddr(), s.secure); err != nil {
				return refuse(step.Line(), err)
			}
			if mechs, ok := s.ext["AUTH"]; !ok || !hasWord(mechs, "PLAIN") {
				offer := "no AUTH"
				if ok {
					offer = "AUTH " + mechs + ", not PLAIN"
				}
				hint := ""
				if !s.secure {
					hint = " (many relays offer AUTH only under TLS)"
				}
				return refuse(step.Line(), fmt.Errorf("the relay offers %s in its answer to EHLO (RFC 4954 §3): the credentials were not sent%s", offer, hint))
			}
			if err := s.authPlain(d.user, h.Password); err != nil {
				var te *textproto.Error
				if errors.As(err, &te) {
					return refuse(step.Line(), err)
				}
				return fail(step.Line(), err)
			}
		default:
			id, err := s.tp.Cmd("%s", step.Line())
			if err != nil {
				return fail(step.Verb, err)
			}
			s.tp.StartResponse(id)
			_, _, err = s.tp.ReadResponse(expect[step.Verb])
			s.tp.EndResponse(id)
			if err != nil {
				return fail(step.Line(), err)
			}
		}
	}
	tc.setQuiet(true)
	w := s.tp.DotWriter()
	_, err = w.Write(msg)
	if err == nil {
		err = w.Close()
	}
	tc.setQuiet(false)
	if err != nil {
		return fail("message", err)
	}
	c.trace('!', fmt.Sprintf("<message of %d bytes, dot-stuffed, then \".\">", len(msg)))
	if _, _, err := s.tp.ReadResponse(250); err != nil {
		return fail("end of data", err)
	}
	if err := s.cmd(221, "QUIT"); err != nil {
		return fail("QUIT", err)
	}
	return s.tc.Close()
}

// ctxCause returns the context's error when it is why err happened: the
// connection's deadline is the context's, and it can expire a moment
// before the context's own timer does.
func ctxCause(ctx context.Context, err error) error {
	if ctx.Err() != nil {
		return ctx.Err()
	}
	if dl, ok := ctx.Deadline(); ok && errors.Is(err, os.ErrDeadlineExceeded) && !time.Now().Before(dl) {
		return context.DeadlineExceeded
	}
	return nil
}

// tlsConfig returns the configuration of the upgrade, for the relay's
// host unless h.TLSConfig names a server.
func (h Mailto) tlsConfig(host string) (*tls.Config, error) {
	cfg := &tls.Config{}
	if h.TLSConfig != nil {
		if h.TLSConfig.InsecureSkipVerify {
			return nil, errors.New("the TLS configuration turns certificate verification off (InsecureSkipVerify), which is refused: a relay's certificate always verifies or nothing is sent")
		}
		cfg = h.TLSConfig.Clone()
	}
	if cfg.ServerName == "" {
		cfg.ServerName = host
	}
	return cfg, nil
}

// cmd sends one command and reads its reply, which must have the code
// (see textproto.Reader.ReadResponse).
func (s *smtpSession) cmd(code int, format string, args ...any) error {
	id, err := s.tp.Cmd(format, args...)
	if err != nil {
		return err
	}
	s.tp.StartResponse(id)
	defer s.tp.EndResponse(id)
	_, _, err = s.tp.ReadResponse(code)
	return err
}

// hello sends EHLO and learns the extensions the relay offers (RFC 5321
// §4.1.1.1), forgetting those it knew: after STARTTLS they are learnt
// again (RFC 3207 §4.2). A relay that refuses EHLO with 5xx gets HELO,
// and offers nothing (RFC 5321 §3.2).
func (s *smtpSession) hello() error {
	s.ext = map[string]string{}
	id, err := s.tp.Cmd("EHLO localhost")
	if err != nil {
		return err
	}
	s.tp.StartResponse(id)
	_, msg, err := s.tp.ReadResponse(250)
	s.tp.EndResponse(id)
	var te *textproto.Error
	if errors.As(err, &te) && te.Code/100 == 5 {
		return s.cmd(250, "HELO localhost")
	}
	if err != nil {
		return err
	}
	// The first line is the relay's name; each other line is an
	// ehlo-keyword and its parameters.
	lines := strings.Split(msg, "\n")
	for _, l := range lines[1:] {
		k, v, _ := strings.Cut(l, " ")
		s.ext[strings.ToUpper(k)] = v
	}
	return nil
}

// startTLS upgrades the session (RFC 3207 §4): STARTTLS, 220, then the
// TLS handshake with the relay's certificate verified against cfg. The
// trace goes on seeing the lines in clear text.
func (s *smtpSession) startTLS(ctx context.Context, cfg *tls.Config) error {
	if err := s.cmd(220, "STARTTLS"); err != nil {
		// RFC 3207 §4: 454 means TLS is not available now. The relay
		// offered it, so this is no reason to go on in plain text.
		return fmt.Errorf("the relay offered STARTTLS, then refused it; the message is not sent in plain text instead: %w", err)
	}
	// RFC 3207 §6: whatever came with the 220 came in plain text, from
	// anyone on the path; the TLS session must start from nothing.
	if n := s.tp.R.Buffered(); n > 0 {
		return &RelayError{Step: "STARTTLS", Problem: fmt.Sprintf("the relay sent %d bytes after its 220, before the TLS handshake (text injected in plain text?)", n)}
	}
	tlsConn := tls.Client(s.nc, cfg)
	if err := tlsConn.HandshakeContext(ctx); err != nil {
		return fmt.Errorf("TLS with %s failed, and the message is not sent in plain text instead: %w", cfg.ServerName, err)
	}
	st := tlsConn.ConnectionState()
	s.tc.swap(tlsConn)
	s.tp = textproto.NewConn(s.tc)
	s.secure = true
	s.c.trace('!', fmt.Sprintf("%s, %s, certificate for %s verified", tls.VersionName(st.Version), tls.CipherSuiteName(st.CipherSuite), cfg.ServerName))
	return nil
}

// plainAuthAllowed decides whether AUTH PLAIN may be sent: its password
// is only base64, so it goes under TLS, or to a relay on a loopback
// address, where no network sees it (RFC 4616 §6; net/smtp's PlainAuth
// decides the same).
func plainAuthAllowed(relay net.Addr, secure bool) error {
	if secure {
		return nil
	}
	if a, ok := relay.(*net.TCPAddr); ok && a.IP.IsLoopback() {
		return nil
	}
	return fmt.Errorf("the session with %s is not under TLS, and AUTH PLAIN would send the password in plain text (RFC 4616 §6): nothing was sent; use a relay that offers STARTTLS", relay)
}

// authPlain authenticates with AUTH PLAIN and an initial response (RFC
// 4954 §4, RFC 4616 §2): base64 of NUL user NUL password, the
// authorization identity left empty (the same as the user). The trace
// sees "AUTH PLAIN <redacted>".
func (s *smtpSession) authPlain(user, password string) error {
	resp := base64.StdEncoding.EncodeToString([]byte("\x00" + user + "\x00" + password))
	s.tc.setQuiet(true)
	s.c.trace('>', "AUTH "+mailtoRedacted)
	id, err := s.tp.Cmd("AUTH PLAIN %s", resp)
	s.tc.setQuiet(false)
	if err != nil {
		return err
	}
	s.tp.StartResponse(id)
	defer s.tp.EndResponse(id)
	code, msg, err := s.tp.ReadResponse(0)
	switch {
	case err != nil:
		return err
	case code == 235: // RFC 4954 §6
		return nil
	case code == 334:
		// The initial response was all there is to PLAIN: cancel the
		// exchange (RFC 4954 §4: "*").
		s.tp.PrintfLine("*")
		return &RelayError{Step: "AUTH PLAIN", Problem: fmt.Sprintf("the relay asked for more (334 %s) after the whole PLAIN response", msg)}
	}
	return &textproto.Error{Code: code, Msg: msg}
}

func hasWord(list, word string) bool {
	for _, w := range strings.Fields(list) {
		if strings.EqualFold(w, word) {
			return true
		}
	}
	return false
}

// quit ends a session that cannot go on, politely (RFC 5321 §4.1.1.10),
// within a short time: the error is already known.
func (s *smtpSession) quit(ctx context.Context) {
	dl := time.Now().Add(2 * time.Second)
	if d, ok := ctx.Deadline(); ok && d.Before(dl) {
		dl = d
	}
	s.nc.SetDeadline(dl)
	s.cmd(221, "QUIT")
}

// composeMessage writes the header fields and the body (RFC 5322).
func composeMessage(d *mailtoPlan, m Message) ([]byte, error) {
	var b bytes.Buffer
	field := func(name, value string) error {
		if name == "" {
			return errors.New("a header field has no name")
		}
		for i := 0; i < len(name); i++ {
			if name[i] <= ' ' || name[i] >= 0x7f || name[i] == ':' {
				return fmt.Errorf("header field name %q: RFC 5322 §2.2 allows printable ASCII without \":\"", name)
			}
		}
		if i := strings.IndexAny(value, "\r\n\x00"); i >= 0 {
			return fmt.Errorf("header field %s: the value holds %q, which would end the field or smuggle another (§6)", name, value[i])
		}
		b.WriteString(name + ": " + value + "\r\n")
		return nil
	}
	date := m.Date
	if date.IsZero() {
		date = time.Now()
	}
	if err := field("From", d.from); err != nil {
		return nil, err
	}
	if err := field("To", d.to); err != nil {
		return nil, err
	}
	if m.Subject != "" {
		if strings.ContainsAny(m.Subject, "\r\n\x00") {
			return nil, fmt.Errorf("the subject holds CR, LF or NUL, which would end the field (§6)")
		}
		if err := field("Subject", mime.QEncoding.Encode("utf-8", m.Subject)); err != nil {
			return nil, err
		}
	}
	if err := field("Date", date.Format(time.RFC1123Z)); err != nil {
		return nil, err
	}
	if !hasField(m.Header, "Message-ID") {
		if err := field("Message-ID", messageID(d.from, date)); err != nil {
			return nil, err
		}
	}
	for _, f := range m.Header {
		if err := field(f.Name, f.Value); err != nil {
			return nil, err
		}
	}
	var body []byte
	if m.Body != nil {
		var err error
		body, err = io.ReadAll(io.LimitReader(m.Body, MaxMailBody+1))
		if err != nil {
			return nil, fmt.Errorf("message body: %w", err)
		}
		if len(body) > MaxMailBody {
			return nil, fmt.Errorf("the message body is more than %d bytes", MaxMailBody)
		}
	}
	if !isASCII(body) {
		b.WriteString("MIME-Version: 1.0\r\nContent-Type: text/plain; charset=utf-8\r\nContent-Transfer-Encoding: 8bit\r\n")
	}
	b.WriteString("\r\n")
	b.Write(body)
	return b.Bytes(), nil
}

func isASCII(b []byte) bool {
	for _, c := range b {
		if c >= 0x80 {
			return false
		}
	}
	return true
}

// smtpTrace passes the SMTP conversation to a trace, line by line, and
// bounds what is read from the relay. It sits above TLS (swap puts the
// tls.Conn under it after STARTTLS), so the trace sees clear text.
type smtpTrace struct {
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
func (t *smtpTrace) swap(c net.Conn) {
	t.mu.Lock()
	t.conn = c
	t.in, t.out = t.in[:0], t.out[:0]
	t.mu.Unlock()
}

func (t *smtpTrace) Close() error { return t.conn.Close() }

func (t *smtpTrace) setQuiet(q bool) {
	t.mu.Lock()
	t.quiet = q
	t.out = t.out[:0]
	t.mu.Unlock()
}

func (t *smtpTrace) Read(p []byte) (int, error) {
	t.mu.Lock()
	left := t.left
	t.mu.Unlock()
	if left <= 0 {
		return 0, fmt.Errorf("the relay sent more than %d bytes", maxSMTPRead)
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

func (t *smtpTrace) Write(p []byte) (int, error) {
	t.mu.Lock()
	if !t.quiet {
		t.out = t.lines('>', append(t.out, p...))
	}
	t.mu.Unlock()
	return t.conn.Write(p)
}

// lines traces the complete lines of buf and returns the rest.
func (t *smtpTrace) lines(dir byte, buf []byte) []byte {
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
