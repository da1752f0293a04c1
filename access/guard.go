package access

import (
	"fmt"
	"maps"
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

// DefaultBlockedPorts returns the ports of other well-known line-based
// protocols, by name, in a map of the caller's own: NewClient sets
// Client.BlockedPorts to one. §6: a URL aimed at such a port can make a
// harmless retrieval send commands to another protocol (its example: a
// gopher URL that makes an SMTP server send mail). A URL whose explicit
// port is here, and is not its own scheme's default, is refused unless
// Client.AllowPorts or AllowAnyPort lets it through.
func DefaultBlockedPorts() map[int]string { return maps.Clone(guardedPorts) }

// guardedPorts is DefaultBlockedPorts' table, never handed out: no
// importer can loosen another's guard.
var guardedPorts = map[int]string{
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

// CheckPort applies the §6 port guard to u: a port beyond 65535 (or 0)
// is refused; a port of another line protocol is refused unless allowed;
// any other non-default port yields a warning for the plan. The port is
// read from the digits as written, with an overflow check that cannot
// wrap: a URL's port is never taken modulo anything.
func (c *Client) CheckPort(u rfc1738.URL) (warning string, err error) {
	digits, ok := u.Port()
	if !ok {
		return "", nil
	}
	off := u.PortOffset()
	port, ok := tcpPort(digits)
	if !ok {
		return "", &GuardError{URL: Redact(u.String()), Offset: off, Rule: "port", Reason: "port " + digits + " is not a TCP port (1 to 65535)"}
	}
	warning, reason := c.portPolicy(u.Scheme(), u.DefaultPort(), port)
	if reason != "" {
		return "", &GuardError{URL: Redact(u.String()), Offset: off, Rule: "port", Port: port, Reason: reason,
			Hint: fmt.Sprintf("allow port %d explicitly to go on", port)}
	}
	return warning, nil
}

// CheckDataPort applies the same §6 port guard to a port a server named
// for a data connection (an ftp 227 or 229 reply): a port of another line
// protocol is refused unless allowed, like one typed in a URL. Peer bytes
// are data, not instructions.
func (c *Client) CheckDataPort(scheme string, port int) error {
	if port < 1 || port > 65535 {
		return fmt.Errorf("refused (§6): the server named port %d, which is not a TCP port", port)
	}
	if _, reason := c.portPolicy(scheme, 0, port); reason != "" {
		return fmt.Errorf("refused (§6): the server named a data port: %s; allow port %d explicitly to go on", reason, port)
	}
	return nil
}

// portPolicy is the §6 port guard on a port in 1–65535 for scheme, whose
// default is def (0: none): a refusal's reason, or a caution.
func (c *Client) portPolicy(scheme string, def, port int) (warning, refusal string) {
	if port == def {
		return "", ""
	}
	table := c.BlockedPorts
	if table == nil {
		table = guardedPorts // a Client not made by NewClient is guarded all the same
	}
	if name, blocked := table[port]; blocked && !c.AllowAnyPort && !slices.Contains(c.AllowPorts, port) {
		return "", fmt.Sprintf("port %d belongs to %s, not %s: the URL could make that server act on its content", port, name, scheme)
	}
	if def != 0 {
		return fmt.Sprintf("port %d is not %s's default %d: caution, another protocol may listen there (§6)", port, scheme, def), ""
	}
	return "", ""
}

// tcpPort reads port digits as written (§3.1: port = 1*digit) and says
// whether they name a TCP port, 1 to 65535. Leading zeros are allowed;
// more than five significant digits are never a port, so the sum cannot
// overflow.
func tcpPort(digits string) (int, bool) {
	digits = strings.TrimLeft(digits, "0")
	if digits == "" || len(digits) > 5 {
		return 0, false
	}
	n := 0
	for i := 0; i < len(digits); i++ {
		c := digits[i]
		if c < '0' || c > '9' {
			return 0, false
		}
		n = n*10 + int(c-'0')
	}
	return n, n <= 65535
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
// Strings without a login are returned unchanged.
//
// Redaction does not depend on s being valid. In a valid URL the password
// is exactly the parsed one (§3.1: it holds no "@", "/" or ":"). Any other
// string with "//" is masked from the first ":" after "//" to the last "@"
// after it: a password with an unencoded "/", "#" or "@" (ftp://u:se/cret@h/,
// ftp://u:se@cret@h/) is an invalid URL whose error must not echo it, and
// masking too much of a broken URL is the safe side.
func Redact(s string) string {
	if u, err := rfc1738.Parse(s); err == nil {
		if _, ok := u.RawPassword(); !ok {
			return s
		}
		start := u.PasswordOffset()
		at := start + strings.IndexByte(s[start:], '@')
		return s[:start] + "****" + s[at:]
	}
	slashes := strings.Index(s, "//")
	if slashes < 0 {
		return s
	}
	rest := slashes + 2
	colon := strings.IndexByte(s[rest:], ':')
	if colon < 0 {
		return s
	}
	colon += rest
	at := strings.LastIndexByte(s[colon:], '@')
	if at < 0 {
		return s
	}
	return s[:colon+1] + "****" + s[colon+at:]
}
