package gopher

import (
	"errors"
	"fmt"
	"net/textproto"
	"strconv"

	"github.com/rfc1738/rfc1738/internal/safetext"
)

// ErrLineTooLong reports a line from the server longer than the client's
// MaxLineLength.
var ErrLineTooLong = errors.New("line too long")

// ErrTooManyItems reports a menu or attribute reply with more entries than
// the client's bound.
var ErrTooManyItems = errors.New("too many items")

// ErrTooLarge reports a menu or attribute reply longer than the client's
// MaxMenuBytes: it is refused, and read no further.
var ErrTooLarge = errors.New("reply too large")

// RequestError reports a request that cannot be sent: a field holds a byte
// the Gopher line protocol cannot carry (RFC 1738 §3.4.1, §6). Nothing was
// sent when it is returned.
type RequestError struct {
	Field  string // "selector", "search", "plus" or "type"
	Value  string // the offending field
	Offset int    // byte offset of the bad byte in Value, -1 if none
	Reason string
}

// Error implements error.
func (e *RequestError) Error() string {
	if e.Offset >= 0 {
		return fmt.Sprintf("gopher: %s %q: %s at offset %d", e.Field, e.Value, e.Reason, e.Offset)
	}
	return fmt.Sprintf("gopher: %s %q: %s", e.Field, e.Value, e.Reason)
}

// ProtocolError reports a server that broke the protocol: a reply that is
// too long, truncated or malformed. Op says what was being read.
type ProtocolError struct {
	Op   string // e.g. "read menu", "read Gopher+ header"
	Line int    // 1-based line number in the reply body, 0 if not line-based
	Text string // the offending input, shortened
	Err  error  // the cause, e.g. ErrLineTooLong or io.ErrUnexpectedEOF
}

// Error implements error.
func (e *ProtocolError) Error() string {
	s := "gopher: " + e.Op
	if e.Line > 0 {
		s += " line " + strconv.Itoa(e.Line)
	}
	if e.Text != "" {
		s += fmt.Sprintf(" %q", e.Text)
	}
	if e.Err != nil {
		s += ": " + e.Err.Error()
	}
	return s
}

// Unwrap returns the cause.
func (e *ProtocolError) Unwrap() error { return e.Err }

// ServerError is a server's refusal: a type-3 error item sent in place of the
// requested item (RFC 1436), or a Gopher+ error block ("-" status line). It
// unwraps to a *textproto.Error carrying the same code and text.
type ServerError struct {
	Selector string // the selector that was requested
	// Code is the Gopher+ error code: 1 item is not available, 2 try again
	// later, 3 item has moved. It is 0 for a type-3 error item.
	Code    int
	Contact string // Gopher+ administrator contact from the error block
	Message string // the error text (lines joined by "\n")
}

// Error implements error.
func (e *ServerError) Error() string {
	what := "error item"
	if e.Code != 0 {
		what = "Gopher+ error " + strconv.Itoa(e.Code)
		if t := plusErrorText(e.Code); t != "" {
			what += " (" + t + ")"
		}
	}
	// The message is the server's text: escaped, so that an error block
	// cannot drive the terminal it is printed on.
	return fmt.Sprintf("gopher: server refused selector %q: %s: %s", e.Selector, what, safetext.Escape(e.Message))
}

// Unwrap returns the refusal as a *textproto.Error, the house type for a
// server's "no".
func (e *ServerError) Unwrap() error {
	return &textproto.Error{Code: e.Code, Msg: e.Message}
}

func plusErrorText(code int) string {
	switch code {
	case 1:
		return "item is not available"
	case 2:
		return "try again later"
	case 3:
		return "item has moved"
	}
	return ""
}

func shorten(s string) string {
	const max = 80
	if len(s) > max {
		return s[:max] + "…"
	}
	return s
}
