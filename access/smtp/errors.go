package smtp

import (
	"fmt"
	"net/textproto"

	"github.com/rfc1738/rfc1738/internal/safetext"
)

// ProtocolError reports a relay that broke the SMTP protocol, as opposed
// to one that refused (a *RefusalError).
type ProtocolError struct {
	Step    string // the command it answered, e.g. "STARTTLS"
	Problem string
}

// Error implements error.
func (e *ProtocolError) Error() string { return "after " + e.Step + ": " + e.Problem }

// MessageError reports a message Data cannot send: it holds a byte that
// has no place in SMTP's DATA. Nothing of the message was sent when
// CheckMessage or Data returns it.
type MessageError struct {
	Offset int  // byte offset of the bad byte in the message
	Byte   byte // the bad byte
	Reason string
}

// Error implements error.
func (e *MessageError) Error() string {
	return fmt.Sprintf("smtp: the message holds %q at offset %d: %s", e.Byte, e.Offset, e.Reason)
}

// RefusalError is a relay's refusal: its reply, code and text, as
// net/textproto reads it (errors.As finds the *textproto.Error). Its
// message is the code and the text with every control character and
// bidirectional override escaped (safetext), whatever the release of
// net/textproto, some of which print the text as it came: a hostile
// relay's reply cannot move a terminal's cursor or forge a log line.
type RefusalError struct{ Reply *textproto.Error }

// Error implements error.
func (e *RefusalError) Error() string {
	return fmt.Sprintf("%03d %s", e.Reply.Code, safetext.Escape(e.Reply.Msg))
}

// Unwrap returns the reply.
func (e *RefusalError) Unwrap() error { return e.Reply }
