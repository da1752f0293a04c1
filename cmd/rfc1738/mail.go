package main

import (
	"context"
	"flag"
	"fmt"
	"net"
	"os"
	"os/signal"
	"strings"
	"syscall"
	"time"

	"github.com/rfc1738/rfc1738"
	"github.com/rfc1738/rfc1738/access"
)

func init() {
	register(&command{
		name:    "mail",
		short:   "send stdin to the mailbox a mailto URL names",
		args:    "[--from ADDR] [--subject S] [--smtp HOST:PORT] [--header 'K: V']... mailto:ADDRESS",
		summary: "Send a message (body from stdin) to the mailbox a mailto URL names (§3.5), through an SMTP relay (--smtp, $RFC1738_SMTP or $SMTP_RELAY).",
		run:     runMail,
	})
	accessFlagHooks = append(accessFlagHooks, mailtoAccessFlags)
}

// mailtoAccessFlags lets plan show the relay a message to a mailto URL
// would go through.
func mailtoAccessFlags(fs *flag.FlagSet) func(*env, *access.Client) error {
	relay := fs.String("smtp", "", "SMTP relay `host[:port]` for mailto: URLs (plan shows the envelope; rfc1738 mail sends; default $RFC1738_SMTP, else $SMTP_RELAY)")
	return func(e *env, c *access.Client) error {
		c.RegisterProtocol("mailto", access.Mailto{Relay: smtpRelay(e, *relay)})
		return nil
	}
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
	h := access.Mailto{Relay: smtpRelay(e, *relay)}
	if h.Relay == "" {
		fmt.Fprintln(e.stderr, "rfc1738 mail: no SMTP relay: give --smtp host:port, or set $RFC1738_SMTP or $SMTP_RELAY")
		return exitUsage
	}
	c.RegisterProtocol("mailto", h)
	if *verbose {
		c.Trace = func(dir byte, line string) { fmt.Fprintf(e.stderr, "%c %s\n", dir, line) }
	}
	p, err := c.Plan(u)
	if err != nil {
		fmt.Fprintln(e.stderr, "rfc1738 mail:", err)
		return exitNegative
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	ctx, cancel := context.WithTimeout(ctx, *timeout)
	defer cancel()
	err = h.Send(ctx, c, p, access.Message{Subject: *subject, Header: headers, Body: e.stdin})
	if err != nil {
		fmt.Fprintln(e.stderr, "rfc1738 mail:", err)
		return exitNegative
	}
	return exitOK
}
