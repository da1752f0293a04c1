package linkcheck

import (
	"context"
	"fmt"
	"strings"

	"github.com/rfc1738/rfc1738"
	"github.com/rfc1738/rfc1738/access"
)

// checkMailto checks a mailto URL (§3.5). A mailbox is not a data object:
// only the address syntax can be checked, unless an SMTP relay is set,
// which the mailto handler's Stat asks with MAIL FROM and RCPT TO, never
// sending DATA.
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
	// The relay asked is SMTPRelay, the sender SMTPFrom (else the
	// client's e-mail address): the mailto handler of a client of their own.
	mc := k.Client.Clone()
	mc.RegisterProtocol("mailto", access.Mailto{Relay: k.SMTPRelay})
	if k.SMTPFrom != "" {
		mc.Email = k.SMTPFrom
	}
	if strings.ContainsAny(mc.Email, "\r\n\x00") {
		return outcome{status: Invalid, detail: "the MAIL FROM address holds CR, LF or NUL (§6)"}
	}
	if _, err := mc.Plan(u); err != nil {
		return outcome{status: Invalid, detail: strings.TrimPrefix(err.Error(), u.String()+": ")}
	}
	return k.stat(ctx, mc, u)
}
