package linkcheck

import (
	"context"
	"errors"
	"fmt"
	"net/textproto"
	"strings"

	"github.com/rfc1738/rfc1738"
	"github.com/rfc1738/rfc1738/access/smtp"
)

// checkMailto checks a mailto URL (§3.5). A mailbox is not a data object:
// only the address syntax can be checked, unless an SMTP relay is set,
// which is asked with MAIL FROM and RCPT TO and never sent DATA.
func (k *Checker) checkMailto(ctx context.Context, u rfc1738.URL) outcome {
	m, _ := u.Mailto()
	if !m.AddrSpec {
		return outcome{status: Invalid, detail: fmt.Sprintf("%q is not one RFC 822 addr-spec (§3.5)", m.Address)}
	}
	if strings.ContainsAny(m.Address, "\r\n\x00") {
		return outcome{status: Invalid, detail: "the decoded address holds CR, LF or NUL (§6)"}
	}
	if k.SMTPRelay == "" {
		return skipped("address syntax valid (§3.5); not verified (no SMTP relay set to ask with RCPT TO)")
	}
	return k.smtpVerify(ctx, m.Address)
}

// smtpVerify asks the relay whether it accepts mail for addr: EHLO, MAIL
// FROM, RCPT TO, then RSET and QUIT (RFC 5321 §4.1.1); no message is sent.
// Every line goes through access/smtp, which refuses CR and LF in them.
func (k *Checker) smtpVerify(ctx context.Context, addr string) outcome {
	from := k.SMTPFrom
	if from == "" {
		from = k.Client.Email
	}
	if strings.ContainsAny(from, "\r\n\x00") {
		return outcome{status: Invalid, detail: "the MAIL FROM address holds CR, LF or NUL (§6)"}
	}
	c, err := smtp.Dial(ctx, k.SMTPRelay, k.Client.Trace)
	if err != nil {
		return broken(fmt.Errorf("smtp %s: %w", k.SMTPRelay, err))
	}
	defer c.Close()
	if err := c.Hello(); err != nil {
		return smtpBroken("EHLO", err)
	}
	if err := c.Cmd(250, "MAIL FROM:<"+from+">"); err != nil {
		return smtpBroken("MAIL FROM", err)
	}
	// RFC 5321 §4.1.1.3: 250, or 251 "user not local; will forward".
	if err := c.Cmd(25, "RCPT TO:<"+addr+">"); err != nil {
		return smtpBroken("RCPT TO", err)
	}
	c.Cmd(250, "RSET")
	c.Quit()
	return okay("the relay %s accepts RCPT TO:<%s> (no DATA sent)", k.SMTPRelay, addr)
}

func smtpBroken(cmd string, err error) outcome {
	o := broken(fmt.Errorf("smtp %s: %w", cmd, err))
	var te *textproto.Error
	if errors.As(err, &te) && te.Code/100 == 4 {
		o.transient = true // RFC 5321 §4.2.1: 4yz is transient
	}
	return o
}
