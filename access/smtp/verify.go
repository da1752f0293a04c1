package smtp

import "fmt"

// Verify asks the relay whether it accepts mail from from to to, without
// sending any: EHLO, MAIL FROM, RCPT TO, then RSET (RFC 5321 §4.1.1). The
// error names the command the relay refused ("smtp RCPT TO: 550 …") and
// wraps its *textproto.Error. The caller ends the session (Quit).
func (c *Client) Verify(from, to string) error {
	if err := c.Hello(); err != nil {
		return fmt.Errorf("smtp EHLO: %w", err)
	}
	if err := c.Cmd(250, "MAIL FROM:<"+from+">"); err != nil {
		return fmt.Errorf("smtp MAIL FROM: %w", err)
	}
	// RFC 5321 §4.1.1.3: 250, or 251 "user not local; will forward".
	if err := c.Cmd(25, "RCPT TO:<"+to+">"); err != nil {
		return fmt.Errorf("smtp RCPT TO: %w", err)
	}
	c.Cmd(250, "RSET")
	return nil
}
