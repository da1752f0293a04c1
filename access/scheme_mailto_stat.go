package access

import (
	"context"
	"fmt"

	"github.com/rfc1738/rfc1738/access/smtp"
)

// Stat implements Stater. A mailbox is not a data object (§3.5): without
// a relay it cannot be verified (an error wrapping ErrNotVerified); with
// one, the relay is asked with MAIL FROM and RCPT TO along the plan's
// envelope, and never sent DATA (smtp.Client.Verify). Every line goes
// through access/smtp, which refuses CR and LF in them.
func (h Mailto) Stat(ctx context.Context, c *Client, p *Plan) (*Info, error) {
	d, ok := p.Data.(*mailtoPlan)
	if !ok {
		return nil, fmt.Errorf("%s: not a plan of the mailto handler", p.URL)
	}
	if h.Relay == "" {
		return nil, &NotVerifiedError{URL: p.URL, Reason: "address syntax valid (§3.5); not verified (no SMTP relay set to ask with RCPT TO)"}
	}
	sc, err := smtp.Dial(ctx, h.Relay, c.tracer())
	if err != nil {
		return nil, fmt.Errorf("%s: smtp %s: %w", p.URL, h.Relay, err)
	}
	defer sc.Close()
	if err := sc.Verify(d.from, d.to); err != nil {
		return nil, fmt.Errorf("%s: %w", p.URL, err)
	}
	sc.Quit()
	return &Info{Kind: KindMailbox, Size: -1, Detail: fmt.Sprintf("the relay %s accepts RCPT TO:<%s> (no DATA sent)", h.Relay, d.to)}, nil
}
