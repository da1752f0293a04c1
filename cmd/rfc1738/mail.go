package main

import (
	"context"
	"crypto/tls"
	"crypto/x509"
	"flag"
	"fmt"
	"net"
	"os"
	"strings"
	"time"

	"github.com/rfc1738/rfc1738"
	"github.com/rfc1738/rfc1738/access"
	"github.com/rfc1738/rfc1738/internal/safetext"
)

func init() {
	register(&command{
		name:    "mail",
		short:   "send stdin to the mailbox a mailto URL names",
		args:    "[--from ADDR] [--subject S] [--smtp HOST:PORT] [--smtp-tls auto|require|off] [--smtp-ca FILE] [--smtp-user NAME] [--header 'K: V']... mailto:ADDRESS",
		summary: "Send a message (body from stdin) to the mailbox a mailto URL names (§3.5), through an SMTP relay (--smtp, $RFC1738_SMTP or $SMTP_RELAY).",
		run:     runMail,
		fetches: true,
	})
	accessFlagHooks = append(accessFlagHooks, mailtoAccessFlags)
}

// mailtoAccessFlags lets plan show the relay a message to a mailto URL
// would go through, and the STARTTLS and AUTH steps before the envelope.
func mailtoAccessFlags(fs *flag.FlagSet) func(*env, *access.Client) error {
	relay := fs.String("smtp", "", "SMTP relay `host[:port]` for mailto: URLs (plan shows the envelope; rfc1738 mail sends; default $RFC1738_SMTP, else $SMTP_RELAY)")
	sf := smtpSessionFlags(fs)
	return func(e *env, c *access.Client) error {
		// The plan only shows AUTH, with the password redacted: it is
		// neither asked for nor needed here.
		h, err := sf.handler(e, smtpRelay(e, *relay), nil)
		if err != nil {
			return err
		}
		c.RegisterProtocol("mailto", h)
		return nil
	}
}

// smtpFlags are the flags of the SMTP session: STARTTLS and AUTH.
type smtpFlags struct {
	tls, ca, user *string
}

func smtpSessionFlags(fs *flag.FlagSet) *smtpFlags {
	return &smtpFlags{
		tls: choice(fs, "smtp-tls", access.MailtoTLSAuto, "STARTTLS (RFC 3207) with the SMTP relay: `auto` (when offered), require, or off; a certificate that does not verify is always an error",
			access.MailtoTLSAuto, access.MailtoTLSRequire, access.MailtoTLSOff),
		ca:   fs.String("smtp-ca", "", "verify the SMTP relay's certificate against the CAs in this PEM `file` instead of the system's"),
		user: fs.String("smtp-user", "", "log in to the SMTP relay with AUTH PLAIN (RFC 4954) as `name`, only under TLS or to a loopback relay; the password is $RFC1738_SMTP_PASSWORD, else asked on the terminal"),
	}
}

// handler builds the mailto handler of the flags. ask, when not nil, asks
// for the password when the environment has none.
func (f *smtpFlags) handler(e *env, relay string, ask func(string, bool) (string, error)) (access.Mailto, error) {
	h := access.Mailto{Relay: relay, TLS: *f.tls, User: *f.user}
	switch h.TLS {
	case access.MailtoTLSAuto, access.MailtoTLSRequire, access.MailtoTLSOff:
	default:
		return h, fmt.Errorf("--smtp-tls %q: want auto, require or off", h.TLS)
	}
	if *f.ca != "" {
		pem, err := os.ReadFile(*f.ca)
		if err != nil {
			return h, fmt.Errorf("--smtp-ca: %w", err)
		}
		pool := x509.NewCertPool()
		if !pool.AppendCertsFromPEM(pem) {
			return h, fmt.Errorf("--smtp-ca %s: no PEM certificate in it", *f.ca)
		}
		h.TLSConfig = &tls.Config{RootCAs: pool}
	}
	if h.User == "" {
		return h, nil
	}
	// Never from the URL: a mailto URL has no login part (§3.5).
	h.Password = e.Getenv("RFC1738_SMTP_PASSWORD")
	if h.Password == "" && ask != nil {
		pw, err := ask(fmt.Sprintf("SMTP password for %s at %s: ", h.User, relay), true)
		if err != nil {
			return h, fmt.Errorf("SMTP password: %w", err)
		}
		h.Password = pw
	}
	return h, nil
}

// smtpRelay returns the relay from the flag or the environment, with the
// SMTP port 25 when none is given.
func smtpRelay(e *env, flagValue string) string {
	r := flagValue
	for _, name := range []string{"RFC1738_SMTP", "SMTP_RELAY"} {
		if r == "" {
			r = e.Getenv(name)
		}
	}
	if r == "" {
		return ""
	}
	if _, _, err := net.SplitHostPort(r); err != nil {
		r = net.JoinHostPort(strings.Trim(r, "[]"), "25")
	}
	return r
}

// headerList is the repeatable --header 'Name: value' flag.
type headerList []access.HeaderField

func (h *headerList) String() string { return fmt.Sprint([]access.HeaderField(*h)) }

func (h *headerList) Set(s string) error {
	name, value, ok := strings.Cut(s, ":")
	if !ok {
		return fmt.Errorf("%q: want 'Name: value'", s)
	}
	*h = append(*h, access.HeaderField{Name: strings.TrimSpace(name), Value: strings.TrimSpace(value)})
	return nil
}

func runMail(e *env, args []string) int {
	fs := newFlags(e, commands["mail"])
	from := fs.String("from", "", "sender `address`: MAIL FROM and the From field (default $EMAIL, else user@host)")
	subject := fs.String("subject", "", "the Subject field")
	relay := fs.String("smtp", "", "SMTP relay `host[:port]` (port 25 by default; default $RFC1738_SMTP, else $SMTP_RELAY)")
	sf := smtpSessionFlags(fs)
	var headers headerList
	fs.Var(&headers, "header", "another header field, `'Name: value'`; repeatable")
	timeout := fs.Duration("timeout", time.Minute, "give up after this long")
	verbose := fs.Bool("v", false, "show the SMTP conversation on stderr (the message itself is not shown)")
	operands, status, ok := parseFlags(fs, args)
	if !ok {
		return status
	}
	u, status, ok := parseOneURL(e, "mail", operands)
	if !ok {
		return status
	}
	if u.Kind() != rfc1738.KindMailto {
		fmt.Fprintf(e.stderr, "rfc1738 mail: %s is not a mailto URL (§3.5)\n", access.Redact(u.String()))
		return exitUsage
	}
	c := access.NewClient()
	switch {
	case *from != "":
		c.Email = *from
	case e.Getenv("EMAIL") != "":
		c.Email = e.Getenv("EMAIL")
	}
	r := smtpRelay(e, *relay)
	if r == "" {
		fmt.Fprintln(e.stderr, "rfc1738 mail: no SMTP relay: give --smtp host:port, or set $RFC1738_SMTP or $SMTP_RELAY")
		return exitUsage
	}
	h, err := sf.handler(e, r, nil)
	if err != nil {
		fmt.Fprintln(e.stderr, "rfc1738 mail:", errText(err))
		return exitUsage
	}
	c.RegisterProtocol("mailto", h)
	if *verbose {
		// A relay's replies are its own text: escaped before the terminal.
		c.Trace = func(dir byte, line string) { fmt.Fprintf(e.stderr, "%c %s\n", dir, safetext.Line(line)) }
	}
	p, err := c.Plan(u)
	if err != nil {
		fmt.Fprintln(e.stderr, "rfc1738 mail:", errText(err))
		return exitStatus(err)
	}
	if h.User != "" && h.Password == "" {
		// stdin is the message: the password is asked on it only when
		// it is a terminal, without echo, before the message is typed.
		if h, err = sf.handler(e, r, terminalPrompt(e)); err != nil {
			fmt.Fprintln(e.stderr, "rfc1738 mail:", errText(err))
			return exitUsage
		}
		if h.Password == "" {
			fmt.Fprintf(e.stderr, "rfc1738 mail: no password for --smtp-user %s: set $RFC1738_SMTP_PASSWORD (stdin is the message, not a terminal to ask on)\n", h.User)
			return exitUsage
		}
	}
	ctx, caught, stop := interruptible(context.Background())
	defer stop()
	ctx, cancel := context.WithTimeout(ctx, *timeout)
	defer cancel()
	err = h.Send(ctx, c, p, access.Message{Subject: *subject, Header: headers, Body: e.stdin})
	if s := caught(); s != nil && err != nil {
		fmt.Fprintf(e.stderr, "rfc1738 mail: interrupted by %s: %v\n", signalName(s), errText(err))
		return signalStatus(s)
	}
	if err != nil {
		fmt.Fprintln(e.stderr, "rfc1738 mail:", errText(err))
		return exitStatus(err)
	}
	return exitOK
}
