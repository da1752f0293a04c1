package access

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"mime"
	"net"
	"net/smtp"
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

// Mailto is the handler of mailto URLs (RFC 1738 §3.5). A mailto URL
// names an Internet mailbox, not a data object, so Get refuses with an
// error wrapping ErrNotDataObject that says so. Plan shows the SMTP
// envelope a message to the mailbox would have (RFC 5321 §3.3: MAIL
// FROM:<Client.Email>, RCPT TO:<address>, DATA), and Send sends one
// along it through the relay.
type Mailto struct {
	// Relay is the SMTP relay, host:port, that Send gives mail to; it is
	// the plan's Connect. "" means none is configured.
	Relay string
}

// mailtoPlan is the execution detail of a mailto plan (Plan.Data).
type mailtoPlan struct {
	from, to string
}

// Plan makes the SMTP envelope of a message to the URL's address. It
// refuses an address that is not one RFC 822 addr-spec, and CR, LF and NUL
// in the address or the sender (§6: they would end the SMTP command line).
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
	p := &Plan{Connect: h.Relay, Data: &mailtoPlan{from: c.Email, to: m.Address}}
	p.Steps = []Step{
		{Verb: "MAIL", Arg: "FROM:<" + c.Email + ">", HasArg: true}, // RFC 5321 §3.3
		{Verb: "RCPT", Arg: "TO:<" + m.Address + ">", HasArg: true},
		{Verb: "DATA"},
	}
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
	Header  []HeaderField // more fields, in order, after From, To, Subject and Date
	Body    io.Reader     // at most MaxMailBody bytes; lines end in LF or CRLF
	Date    time.Time     // the Date field; zero means now
}

// Send sends m along p, the plan of a mailto URL, through the relay of p
// (its Connect): EHLO, then exactly the plan's steps (MAIL FROM, RCPT TO,
// DATA), the message dot-stuffed (RFC 5321 §4.5.2), and QUIT. The
// message has the header fields From (the envelope sender), To, Subject,
// Date and m.Header; a field name must be printable ASCII without ":",
// and no value may hold CR, LF or NUL (§6). A relay's refusal is a
// *textproto.Error with its code and text, wrapped.
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
	var dialer net.Dialer
	nc, err := dialer.DialContext(ctx, "tcp", p.Connect)
	if err != nil {
		return fmt.Errorf("%s: smtp relay: %w", p.URL, err)
	}
	if dl, ok := ctx.Deadline(); ok {
		nc.SetDeadline(dl)
	}
	stop := context.AfterFunc(ctx, func() { nc.SetDeadline(time.Unix(1, 0)) })
	defer stop()
	tc := &smtpTrace{Conn: nc, trace: c.Trace, left: maxSMTPRead}
	fail := func(what string, err error) error {
		nc.Close()
		if ctx.Err() != nil {
			err = fmt.Errorf("%w (%v)", ctx.Err(), err)
		}
		return fmt.Errorf("%s: smtp relay %s: %s: %w", p.URL, p.Connect, what, err)
	}
	host, _, _ := net.SplitHostPort(p.Connect)
	sc, err := smtp.NewClient(tc, host)
	if err != nil {
		return fail("greeting", err)
	}
	if err := sc.Hello("localhost"); err != nil {
		return fail("EHLO", err)
	}
	expect := map[string]int{"MAIL": 250, "RCPT": 25, "DATA": 354}
	for _, s := range p.Steps {
		id, err := sc.Text.Cmd("%s", s.Line())
		if err != nil {
			return fail(s.Verb, err)
		}
		sc.Text.StartResponse(id)
		_, _, err = sc.Text.ReadResponse(expect[s.Verb])
		sc.Text.EndResponse(id)
		if err != nil {
			return fail(s.Line(), err)
		}
	}
	tc.setQuiet(true)
	w := sc.Text.DotWriter()
	_, err = w.Write(msg)
	if err == nil {
		err = w.Close()
	}
	tc.setQuiet(false)
	if err != nil {
		return fail("message", err)
	}
	c.trace('!', fmt.Sprintf("<message of %d bytes, dot-stuffed, then \".\">", len(msg)))
	if _, _, err := sc.Text.ReadResponse(250); err != nil {
		return fail("end of data", err)
	}
	if err := sc.Quit(); err != nil {
		return fail("QUIT", err)
	}
	return nil
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
// bounds what is read from the relay.
type smtpTrace struct {
	net.Conn
	trace func(dir byte, line string)

	mu    sync.Mutex
	quiet bool // the message itself is not traced
	in    []byte
	out   []byte
	left  int // bytes the relay may still send
}

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
	n, err := t.Conn.Read(p)
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
	return t.Conn.Write(p)
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
