package rfc1738

import (
	"fmt"
	"strconv"
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
// of the first violation, and the rule that failed.
type Error struct {
	Input string
	Diagnostic
}

func (e *Error) Error() string {
	return fmt.Sprintf("rfc1738: parse %s: offset %d: %s: %s", strconv.Quote(e.Input), e.Offset, e.Rule, e.Message)
}

// badByteMessage describes why the octet c may not appear unencoded where
// it stands (§2.2).
func badByteMessage(c byte, rule string) string {
	enc := "%" + string([]byte{upperhex[c>>4], upperhex[c&15]})
	switch {
	case c == ' ':
		return "a space is unsafe and must be encoded as %20 (§2.2)"
	case c < 0x20 || c == 0x7f:
		return "control character " + strconv.QuoteRune(rune(c)) + " must be encoded as " + enc + " (§2.2)"
	case c >= 0x80:
		return "octet 0x" + enc[1:] + " is not US-ASCII and must be encoded as " + enc + " (§2.2)"
	case classes[c]&(classNational|classPunctuation) != 0:
		return strconv.QuoteRune(rune(c)) + " is unsafe and must be encoded as " + enc + " (§2.2)"
	case classes[c]&classReserved != 0:
		return strconv.QuoteRune(rune(c)) + " is reserved in " + rule + " and must be encoded as " + enc + " when it is data (§2.2)"
	default:
		return strconv.QuoteRune(rune(c)) + " is not allowed in " + rule
	}
}
