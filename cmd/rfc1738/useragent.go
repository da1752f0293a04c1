package main

import (
	"flag"
	"fmt"
	"strings"

	"github.com/rfc1738/rfc1738/access"
)

func init() {
	accessFlagHooks = append(accessFlagHooks, userAgentFlags)
}

// userAgentFlags define -A/--user-agent, as curl's and wget's: the
// User-Agent of every http and https request (RFC 9110 §10.1.5), in place
// of rfc1738/VERSION; linkcheck's robots.txt groups are matched against
// its product token (RFC 9309 §2.2.1). get is left out: its -A belongs
// with its other curl-style header flags (-H, -e).
func userAgentFlags(fs *flag.FlagSet) func(*env, *access.Client) error {
	if fs.Name() == "get" {
		return func(*env, *access.Client) error { return nil }
	}
	ua := fs.String("user-agent", "", "send this User-Agent on http and https requests, in place of "+access.DefaultUserAgent)
	fs.StringVar(ua, "A", "", "as --user-agent")
	return func(e *env, c *access.Client) error {
		if *ua == "" {
			return nil
		}
		// RFC 9110 §5.5: a field value holds no control octet; CR or
		// LF would end the header line.
		if i := strings.IndexFunc(*ua, func(r rune) bool { return r < ' ' && r != '\t' || r == 0x7f }); i >= 0 {
			return fmt.Errorf("--user-agent: a control character at offset %d: a header value cannot hold it (RFC 9110 §5.5)", i)
		}
		setHTTP(c, func(h *access.HTTP) { h.UserAgent = *ua })
		return nil
	}
}
