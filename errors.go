package rfc1738

import (
	"fmt"
	"strconv"
	"strings"
	"unicode/utf8"
)

// A Diagnostic is one finding about a URL: where it is (a byte offset into
// the input), which §5 rule it concerns, and what is wrong.
type Diagnostic struct {
	Offset  int    // byte offset into the input
	Rule    string // the §5 production, e.g. "hostname", "fsegment", "escape"
	Message string // a sentence for people
}

func (d Diagnostic) String() string {
	return "offset " + strconv.Itoa(d.Offset) + ": " + d.Rule + ": " + d.Message
}

// Error is the error returned by Parse. It names the input, the byte offset
// of the first violation (Offset), and the §5 rule that failed (Rule). It
// holds what the message is made of, not the message: the sentence is
// formatted only when Message, Diagnostic or Error is called, so that a
// rejection costs no more than an acceptance.
type Error struct {
	Input  string
	Offset int    // byte offset of the first violation in Input
	Rule   string // the §5 production that failed, e.g. "toplabel", "escape"

	why why // what the message is made of
}

// why is what an Error's message is made of: a fixed message, or a code
// and its argument. Nothing is formatted (and nothing allocated) until the
// message is asked for.
type why struct {
	msg  string    // the message, when code is msgFixed
	code faultCode // how to make the message when msg is ""
	kind Kind      // the scheme, for msgStartsWith and msgNoUser
}

// Message returns the sentence that says what is wrong, as Check reports it.
func (e *Error) Message() string { return e.message(e.Input) }

// Diagnostic returns the violation as Check reports it.
func (e *Error) Diagnostic() Diagnostic {
	return Diagnostic{Offset: e.Offset, Rule: e.Rule, Message: e.Message()}
}

func (e *Error) Error() string {
	return "rfc1738: parse " + strconv.Quote(e.Input) + ": offset " + strconv.Itoa(e.Offset) + ": " + e.Rule + ": " + e.Message()
}

// errorOf returns the *Error of a Diagnostic whose message is already made.
func errorOf(input string, d Diagnostic) *Error {
	return &Error{Input: input, Offset: d.Offset, Rule: d.Rule, why: why{msg: d.Message}}
}

// A fault is a violation as the parser records it: an Error whose Input
// is not yet set.
type fault = Error

type faultCode uint8

const (
	msgFixed      faultCode = iota // msg is the message
	msgByte                        // the octet at Offset is not allowed in Rule (§2.2)
	msgStartsWith                  // a <scheme> URL starts with <scheme>:// (§3.1)
	msgNoUser                      // a <scheme> URL allows no user name or password (§3)
)

// message formats the fault's sentence; s is the input it was found in.
func (f *Error) message(s string) string {
	switch f.why.code {
	case msgByte:
		if f.Offset >= len(s) {
			return "unexpected end of the URL"
		}
		if r, n := utf8.DecodeRuneInString(s[f.Offset:]); n > 1 {
			// §2.2: a character beyond US-ASCII, encoded octet by octet.
			return strconv.QuoteRune(r) + " (" + fmt.Sprintf("U+%04X", r) + ") is not US-ASCII and must be encoded as " +
				escapeAll(s[f.Offset:f.Offset+n]) + " (§2.2)"
		}
		return badByteMessage(s[f.Offset], f.Rule)
	case msgStartsWith:
		return article(f.why.kind) + " URL starts with " + kindNames[f.why.kind] + ":// (§3.1)"
	case msgNoUser:
		return article(f.why.kind) + " URL allows no user name or password (§3)"
	}
	return f.why.msg
}

// badByteMessage describes why the octet c may not appear unencoded where
// it stands (§2.2). The sentences that do not name the rule are made once
// (byteMessages); the others in one concatenation: a rejected URL's report
// allocates little more than its list.
func badByteMessage(c byte, rule string) string {
	if m := byteMessages[c]; m != "" {
		return m
	}
	if classes[c]&classReserved != 0 {
		return octetQuoted[c] + " is reserved in " + rule + " and must be encoded as " + octetEscaped[c] + " when it is data (§2.2)"
	}
	return octetQuoted[c] + " is not allowed in " + rule
}

// octetQuoted and octetEscaped are each octet as Go quotes it ('~') and
// as §2.2 encodes it (%7E).
var octetQuoted, octetEscaped = func() (q, e [256]string) {
	for c := range q {
		q[c] = strconv.QuoteRune(rune(c))
		e[c] = "%" + string([]byte{upperhex[c>>4], upperhex[c&15]})
	}
	return q, e
}()

// byteMessages are badByteMessage's sentences that name no rule: for a
// space, a control character, an octet beyond US-ASCII and an unsafe
// one (§2.2); "" for the others.
var byteMessages = func() (t [256]string) {
	for c := range t {
		enc := octetEscaped[c]
		switch {
		case c == ' ':
			t[c] = "a space is unsafe and must be encoded as %20 (§2.2)"
		case c < 0x20 || c == 0x7f:
			t[c] = "control character " + octetQuoted[c] + " must be encoded as " + enc + " (§2.2)"
		case c >= 0x80:
			t[c] = "octet 0x" + enc[1:] + " is not US-ASCII and must be encoded as " + enc + " (§2.2)"
		case classes[c]&(classNational|classPunctuation) != 0:
			t[c] = octetQuoted[c] + " is unsafe and must be encoded as " + enc + " (§2.2)"
		}
	}
	return t
}()

// escapeAll encodes every octet of s as §2.2 does, %XX.
func escapeAll(s string) string {
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		b.WriteString(octetEscaped[s[i]])
	}
	return b.String()
}
