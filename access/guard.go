package access

import (
	"fmt"
	"slices"
	"strings"

	"github.com/rfc1738/rfc1738"
)

// GuardError is a URL refused by a §6 guard before anything was sent.
type GuardError struct {
	URL    string // the URL, password redacted
	Offset int    // byte offset in the URL of the offending part, or -1
	Rule   string // which guard: "line-delimiter", "port"
	Reason string
	// Port is the refused port of a "port" refusal that a setting can
	// lift (Client.AllowPorts), else 0.
	Port int
	// Hint, when set, says how to let the URL through; a program
	// rewrites it in its own terms (a command-line flag).
	Hint string
}

func (e *GuardError) Error() string {
	s := fmt.Sprintf("%s: refused (§6): %s", e.URL, e.Reason)
	if e.Offset >= 0 {
		s = fmt.Sprintf("%s: refused (§6): offset %d: %s", e.URL, e.Offset, e.Reason)
	}
	if e.Hint != "" {
		s += "; " + e.Hint
	}
	return s
}

// BlockedPorts are the ports of other well-known line-based protocols. §6:
// a URL aimed at such a port can make a harmless retrieval send commands
// to another protocol (its example: a gopher URL that makes an SMTP server
// send mail). A URL whose explicit port is here, and is not its own
// scheme's default, is refused unless Client.AllowPorts or AllowAnyPort
// lets it through.
var BlockedPorts = map[int]string{
	21:    "ftp",
	22:    "ssh",
	23:    "telnet",
	25:    "smtp",
	110:   "pop3",
	119:   "nntp",
	143:   "imap",
	465:   "smtps",
	512:   "rexec",
	513:   "rlogin",
	514:   "rsh",
	587:   "mail submission",
	993:   "imaps",
	995:   "pop3s",
	2049:  "nfs",
	3306:  "mysql",
	5432:  "postgresql",
	6379:  "redis",
	6667:  "irc",
	11211: "memcached",
}

// CheckPort applies the §6 port guard to u: a port beyond 65535 is
// refused; a port of another line protocol is refused unless allowed; any
// other non-default port yields a warning for the plan.
func (c *Client) CheckPort(u rfc1738.URL) (warning string, err error) {
	digits, ok := u.Port()
	if !ok {
		return "", nil
	}
	port := u.PortNumber()
	off := u.PortOffset()
	if port > 65535 || port == 0 {
		return "", &GuardError{URL: Redact(u.String()), Offset: off, Rule: "port", Reason: "port " + digits + " is not a TCP port"}
	}
	def := u.DefaultPort()
	if port == def {
		return "", nil
	}
	if name, blocked := BlockedPorts[port]; blocked && !c.AllowAnyPort && !slices.Contains(c.AllowPorts, port) {
		return "", &GuardError{URL: Redact(u.String()), Offset: off, Rule: "port", Port: port,
			Reason: fmt.Sprintf("port %d belongs to %s, not %s: the URL could make that server act on its content", port, name, u.Scheme()),
			Hint:   fmt.Sprintf("allow port %d explicitly to go on", port)}
	}
	if def != 0 {
		return fmt.Sprintf("port %d is not %s's default %d: caution, another protocol may listen there (§6)", port, u.Scheme(), def), nil
	}
	return "", nil
}

// guardPort runs the §6 port guard for a plan: a refusal is returned, a
// caution is added to the plan's warnings.
func (c *Client) guardPort(p *Plan, u rfc1738.URL) error {
	warn, err := c.CheckPort(u)
	if warn != "" {
		p.Warnings = append(p.Warnings, warn)
	}
	return err
}

// CheckLine applies the §6 delimiter guard to one part of u that will be
// sent decoded inside a protocol line: raw is the part as written, starting
// at byte offset off of the URL. Every escape that decodes to one of the
// octets in bad (CR, LF and NUL at least; TAB too for gopher) is refused,
// naming its offset, since it would end the line or split its fields.
func CheckLine(u rfc1738.URL, raw string, off int, part string, bad string) error {
	i := rfc1738.IndexEscape(raw, bad)
	if i < 0 {
		return nil
	}
	c, _ := rfc1738.Unescape(raw[i : i+3])
	return &GuardError{URL: Redact(u.String()), Offset: off + i, Rule: "line-delimiter",
		Reason: fmt.Sprintf("the %s holds %s, which decodes to %s and would end or split a protocol line", part, raw[i:i+3], octetName(c[0]))}
}

// LineDelimiters are the octets no decoded URL part may carry into a line
// of a line-based protocol (§6).
const LineDelimiters = "\r\n\x00"

func octetName(c byte) string {
	switch c {
	case '\r':
		return "CR"
	case '\n':
		return "LF"
	case 0:
		return "NUL"
	case '\t':
		return "TAB"
	}
	return fmt.Sprintf("%#02x", c)
}

// Redact returns s with the password of a "//user:password@" login
// replaced by "****" (§6: passwords in URLs are unwise; never print one).
// Strings that are not URLs with a login are returned unchanged.
func Redact(s string) string {
	colon := strings.Index(s, "://")
	if colon < 0 {
		return s
	}
	start := colon + 3
	end := len(s)
	if i := strings.IndexAny(s[start:], "/#"); i >= 0 {
		end = start + i
	}
	at := strings.LastIndexByte(s[start:end], '@')
	if at < 0 {
		return s
	}
	at += start
	pc := strings.IndexByte(s[start:at], ':')
	if pc < 0 {
		return s
	}
	pc += start
	return s[:pc+1] + "****" + s[at:]
}
