package access

import (
	"context"
	"crypto/tls"
	"errors"
	"fmt"
	"io"
	"mime"
	"net"
	"net/textproto"
	"os"
	"strings"
	"time"

	"github.com/rfc1738/rfc1738"
	"github.com/rfc1738/rfc1738/access/smtp"
)

func init() { defaultHandlers["mailto"] = Mailto{} }

// ErrNotDataObject is wrapped by the error of Get for a URL that names no
// data object: a mailto URL names a mailbox (§3.5).
var ErrNotDataObject = errors.New("not a data object")

// MaxMailBody bounds the body of a message Send reads.
const MaxMailBody = 10 << 20

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
	mailtoRedacted  = smtp.Redacted
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
	if err := smtp.CheckMailbox("sender (Client.Email)", c.Email); err != nil {
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
	Body    io.Reader     // at most MaxMailBody bytes, no NUL; lines end in CRLF, LF or CR, all sent as CRLF
	Date    time.Time     // the Date field; zero means now
}

// RelayError is the error of Send for a relay that broke the SMTP
// protocol, as opposed to one that refused (a *textproto.Error).
type RelayError = smtp.ProtocolError

// Send sends m along p, the plan of a mailto URL, through the relay of p
// (its Connect): EHLO, then exactly the plan's steps — STARTTLS (RFC 3207)
// and a second EHLO, AUTH PLAIN (RFC 4954), MAIL FROM, RCPT TO, DATA —,
// the message dot-stuffed (RFC 5321 §4.5.2) with every line end as CRLF
// (§2.3.8; a message with NUL is refused before anything is dialled), and
// QUIT. The message has
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
	if err == nil {
		err = smtp.CheckMessage(msg)
	}
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

	sc, err := smtp.Dial(ctx, p.Connect, c.tracer())
	if err != nil {
		return relayError(ctx, p, err)
	}
	fail := func(what string, err error) error {
		sc.Close()
		return relayError(ctx, p, fmt.Errorf("%s: %w", what, err))
	}
	// refuse ends a session that is sound but cannot go on: QUIT, then
	// the error.
	refuse := func(what string, err error) error {
		sc.Abort(ctx)
		return fail(what, err)
	}
	if err := sc.Hello(); err != nil {
		return fail("EHLO", err)
	}
	expect := map[string]int{"MAIL": 250, "RCPT": 25, "DATA": 354}
	for _, step := range p.Steps {
		switch step.Verb {
		case "STARTTLS":
			if _, ok := sc.Extension("STARTTLS"); !ok {
				if step.Placeholder == "" {
					return refuse("STARTTLS", errors.New("TLS is required, but the relay does not offer STARTTLS (RFC 3207 §4) in its answer to EHLO: nothing was sent"))
				}
				c.trace('!', "the relay does not offer STARTTLS: going on in plain text")
				continue
			}
			if err := sc.StartTLS(ctx, tlsConfig); err != nil {
				return fail("STARTTLS", err)
			}
			if err := sc.Hello(); err != nil {
				return fail("EHLO after STARTTLS", err)
			}
		case "AUTH":
			if err := smtp.PlainAuthAllowed(sc.RemoteAddr(), sc.Secure()); err != nil {
				return refuse(step.Line(), err)
			}
			if mechs, ok := sc.Extension("AUTH"); !ok || !smtp.HasWord(mechs, "PLAIN") {
				offer := "no AUTH"
				if ok {
					offer = "AUTH " + mechs + ", not PLAIN"
				}
				hint := ""
				if !sc.Secure() {
					hint = " (many relays offer AUTH only under TLS)"
				}
				return refuse(step.Line(), fmt.Errorf("the relay offers %s in its answer to EHLO (RFC 4954 §3): the credentials were not sent%s", offer, hint))
			}
			if err := sc.AuthPlain(d.user, h.Password); err != nil {
				var te *textproto.Error
				if errors.As(err, &te) {
					return refuse(step.Line(), err)
				}
				return fail(step.Line(), err)
			}
		default:
			if err := sc.Cmd(expect[step.Verb], step.Line()); err != nil {
				return fail(step.Line(), err)
			}
		}
	}
	if err := sc.Data(msg); err != nil {
		return fail("message", err)
	}
	if err := sc.Quit(); err != nil {
		return relayError(ctx, p, fmt.Errorf("QUIT: %w", err))
	}
	return nil
}

// relayError is the error of Send: the URL, the relay, and the context's
// error when it is why err happened.
func relayError(ctx context.Context, p *Plan, err error) error {
	if cause := ctxCause(ctx, err); cause != nil {
		err = fmt.Errorf("%w (%v)", cause, err)
	}
	return fmt.Errorf("%s: smtp relay %s: %w", p.URL, p.Connect, err)
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

// composeMessage writes the header fields and the body (RFC 5322) with
// smtp.Compose.
func composeMessage(d *mailtoPlan, m Message) ([]byte, error) {
	date := m.Date
	if date.IsZero() {
		date = time.Now()
	}
	fields := []smtp.Field{{Name: "From", Value: d.from}, {Name: "To", Value: d.to}}
	if m.Subject != "" {
		if strings.ContainsAny(m.Subject, "\r\n\x00") {
			return nil, fmt.Errorf("the subject holds CR, LF or NUL, which would end the field (§6)")
		}
		fields = append(fields, smtp.Field{Name: "Subject", Value: mime.QEncoding.Encode("utf-8", m.Subject)})
	}
	fields = append(fields, smtp.Field{Name: "Date", Value: date.Format(time.RFC1123Z)})
	if !hasField(m.Header, "Message-ID") {
		fields = append(fields, smtp.Field{Name: "Message-ID", Value: messageID(d.from, date)})
	}
	for _, f := range m.Header {
		fields = append(fields, smtp.Field(f))
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
	return smtp.Compose(fields, body)
}
