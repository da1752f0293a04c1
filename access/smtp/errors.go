package smtp

import "fmt"

// ProtocolError reports a relay that broke the SMTP protocol, as opposed
// to one that refused (a *textproto.Error with the relay's code and text).
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
