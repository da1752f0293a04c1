package nntp

import (
	"errors"
	"fmt"
	"net"
	"net/textproto"
	"strconv"
	"strings"

	"github.com/rfc1738/rfc1738/internal/safetext"
)

// ProtocolError reports a server that broke the protocol: a malformed
// status line, a reply code the command cannot have, an over-long line,
// unparsable listing data. The connection is closed when one is returned.
type ProtocolError struct {
	Cmd    string // the command (or "greeting from …") whose reply was bad
	Line   string // the offending line, clipped to 120 bytes
	Reason string // what was wrong with it
}

// Error formats the command, the reason and the quoted line.
func (e *ProtocolError) Error() string {
	return fmt.Sprintf("nntp: %s: protocol error: %s: %s", e.Cmd, e.Reason, strconv.Quote(e.Line))
}

// ArgumentError reports an argument refused before anything was sent: a
// group name or message-id that would break the command line (RFC 1738 §6,
// RFC 3977 §3.1) or does not follow RFC 3977's syntax.
type ArgumentError struct {
	What   string // "group name", "message-id", "article number", …
	Value  string // the argument as given
	Offset int    // byte offset of the first bad byte, -1 when the whole value is at fault
	Reason string
}

// Error formats the argument, quoted, with the offset and the reason.
func (e *ArgumentError) Error() string {
	if e.Offset >= 0 {
		return fmt.Sprintf("nntp: bad %s %s: %s at offset %d", e.What, strconv.Quote(e.Value), e.Reason, e.Offset)
	}
	return fmt.Sprintf("nntp: bad %s %s: %s", e.What, strconv.Quote(e.Value), e.Reason)
}

// ReplyCode returns the code of the server refusal (*textproto.Error)
// wrapped in err, or 0 when err is not one.
func ReplyCode(err error) int {
	var te *textproto.Error
	if errors.As(err, &te) {
		return te.Code
	}
	return 0
}

// IsNoSuchGroup reports whether err is the server's 411 (RFC 3977 §6.1.1).
func IsNoSuchGroup(err error) bool { return ReplyCode(err) == CodeNoSuchGroup }

// IsNoSuchArticle reports whether err says the article is not there: 423
// (no article with that number), 430 (no article with that message-id) or
// 420 (no current article) (RFC 3977 §6.2.1).
func IsNoSuchArticle(err error) bool {
	switch ReplyCode(err) {
	case CodeNoSuchNumber, CodeNoSuchMessageID, CodeNoCurrentArticle:
		return true
	}
	return false
}

// IsAuthRequired reports whether err is the server's 480 (RFC 4643 §2.3),
// returned when no credentials were configured or they did not suffice.
func IsAuthRequired(err error) bool { return ReplyCode(err) == CodeAuthRequired }

// IsUnavailable reports whether err is 400 (service temporarily
// unavailable) or 502 (permanently unavailable / not permitted).
func IsUnavailable(err error) bool {
	c := ReplyCode(err)
	return c == CodeUnavailable || c == CodeServiceUnavailable
}

// checkLineSafe refuses CR, LF and NUL: RFC 1738 §6, a value that would
// end the command line early and smuggle a second command.
func checkLineSafe(what, v string) error {
	for i := 0; i < len(v); i++ {
		switch v[i] {
		case '\r', '\n', 0:
			return &ArgumentError{What: what, Value: v, Offset: i, Reason: "CR, LF or NUL would end the command line"}
		}
	}
	return nil
}

// checkGroupName applies RFC 3977 §4.1 (newsgroup-name = 1*wildmat-exact:
// printable US-ASCII but "!*,?[\]", or UTF-8) and the §6 line safety rule.
func checkGroupName(name string) error {
	if name == "" {
		return &ArgumentError{What: "group name", Value: name, Offset: -1, Reason: "empty"}
	}
	if len(name) > 497 { // RFC 3977 §3.1: a 512-octet line holds "GROUP " + name + CRLF
		return &ArgumentError{What: "group name", Value: name, Offset: -1, Reason: "longer than 497 bytes"}
	}
	for i := 0; i < len(name); i++ {
		b := name[i]
		switch {
		case b == '\r' || b == '\n' || b == 0:
			return &ArgumentError{What: "group name", Value: name, Offset: i, Reason: "CR, LF or NUL would end the command line"}
		case b <= ' ' || b == 0x7f:
			return &ArgumentError{What: "group name", Value: name, Offset: i, Reason: "space or control character"}
		case b == '!' || b == '*' || b == ',' || b == '?' || b == '[' || b == '\\' || b == ']':
			return &ArgumentError{What: "group name", Value: name, Offset: i, Reason: "wildmat character not allowed in a group name"}
		}
	}
	return nil
}

// checkMessageID checks the id of a news: URL (RFC 1738 §3.6: the
// Message-ID "without the enclosing < and >"), before the client adds
// the brackets: RFC 3977 §3.6 allows printable US-ASCII only, no ">"
// inside, at most 250 octets with the brackets.
func checkMessageID(id string) error {
	if id == "" {
		return &ArgumentError{What: "message-id", Value: id, Offset: -1, Reason: "empty"}
	}
	if len(id) > 248 {
		return &ArgumentError{What: "message-id", Value: id, Offset: -1, Reason: "longer than 250 bytes with its brackets"}
	}
	for i := 0; i < len(id); i++ {
		b := id[i]
		switch {
		case b == '\r' || b == '\n' || b == 0:
			return &ArgumentError{What: "message-id", Value: id, Offset: i, Reason: "CR, LF or NUL would end the command line"}
		case b == '<' || b == '>':
			return &ArgumentError{What: "message-id", Value: id, Offset: i, Reason: "give the id without its angle brackets (RFC 1738 §3.6)"}
		case b <= ' ' || b >= 0x7f:
			return &ArgumentError{What: "message-id", Value: id, Offset: i, Reason: "not printable US-ASCII (RFC 3977 §3.6)"}
		}
	}
	return nil
}

// CommandError is the server's refusal (a 4xx or 5xx reply) of a command.
// It prints as "nntp: <command>: <code> <text>", the server's text with
// control characters escaped, and unwraps to the *textproto.Error.
type CommandError struct {
	Cmd   string // the command line, "AUTHINFO PASS ****" for a password
	Reply *textproto.Error
}

func (e *CommandError) Error() string {
	return "nntp: " + e.Cmd + ": " + fmt.Sprintf("%03d ", e.Reply.Code) + safetext.Escape(e.Reply.Msg)
}

// Unwrap returns the *textproto.Error.
func (e *CommandError) Unwrap() error { return e.Reply }

// Explain says what the reply code of err means for a request to server
// (host:port) in group, as user (the AUTHINFO user, "" when none was
// configured): RFC 3977 §3.2 and RFC 4643 §2.3. It returns "" for an error
// without a code this package knows.
func Explain(err error, server, group, user string) string {
	switch ReplyCode(err) {
	case CodeNoSuchGroup:
		return "no such newsgroup on " + server
	case CodeNoSuchNumber:
		return "no article with that number in " + group
	case CodeNoSuchMessageID:
		return "no article with that message-id on " + server
	case CodeNoCurrentArticle:
		return "no such article"
	case CodeAuthRequired:
		if user == "" {
			return server + " demands authentication (RFC 4643): give --nntp-user and --nntp-password, or $NNTPUSER and $NNTPPASS"
		}
		return server + " still demands authentication after AUTHINFO as " + user
	case CodeAuthRejected:
		return server + " rejected the AUTHINFO credentials of " + user
	case CodeServiceUnavailable:
		return server + " refuses this client: permission denied or service permanently unavailable"
	case CodeUnavailable:
		return server + " is temporarily unavailable"
	}
	return ""
}

// ServerAddr checks a configured news server, host[:port], and returns it
// as host:port, with DefaultPort when none is given.
func ServerAddr(s string) (string, error) {
	s = strings.TrimSpace(s)
	host, port, err := net.SplitHostPort(s)
	if err != nil {
		host, port = strings.TrimSuffix(strings.TrimPrefix(s, "["), "]"), strconv.Itoa(DefaultPort)
	}
	if host == "" || strings.ContainsAny(host, " \t\r\n\x00/@[]") {
		return "", fmt.Errorf("news server %q is not host[:port]", s)
	}
	if n, err := strconv.Atoi(port); err != nil || n < 1 || n > 65535 {
		return "", fmt.Errorf("news server %q: %q is not a TCP port", s, port)
	}
	return net.JoinHostPort(host, port), nil
}
