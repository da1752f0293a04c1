package ftp

import (
	"errors"
	"fmt"
	"net/textproto"
	"strconv"
	"strings"

	"github.com/rfc1738/rfc1738/internal/safetext"
)

// ErrUnsafeArgument is matched (errors.Is) by an *ArgumentError: an
// argument held CR, LF or NUL and was refused before anything was sent.
var ErrUnsafeArgument = errors.New("argument contains CR, LF or NUL")

// ErrTransferOpen is returned by every command issued while the body of
// a RETR, NLST or LIST is still open: the server's final transfer reply
// is still on its way, so the control connection is not free. Read the
// body to the end or Close it first.
var ErrTransferOpen = errors.New("a transfer body is still open: read it to the end or Close it first")

// ErrPasswordRequired is returned by Login when the server asks for a
// password (331), none was given and Credentials.AskPassword is nil.
var ErrPasswordRequired = errors.New("the server asks for a password and none was given")

// ErrAccountRequired is returned by Login when the server asks for an
// account (332); the ACCT command is not supported.
var ErrAccountRequired = errors.New("the server asks for an account (ACCT), which is not supported")

// ErrShortTransfer is returned by a binary transfer body that ends
// before the size announced in the 150 reply ("(N bytes)").
var ErrShortTransfer = errors.New("transfer cut short")

// ErrLongTransfer is returned by a Download that brings more bytes than
// the size announced before it (SIZE, a listing): after REST, a server
// that sent the file from byte 0, or a file that changed.
var ErrLongTransfer = errors.New("more bytes than announced")

// ErrOffsetBeyondEnd is returned by Fetch for a restart offset past the
// size the file has now (it shrank): nothing was retrieved.
var ErrOffsetBeyondEnd = errors.New("restart offset beyond the end of the file")

// ArgumentError reports an argument refused before sending because it
// held CR, LF or NUL (RFC 1738 §6: a decoded %0D%0A must not smuggle a
// second command onto the control connection). It matches
// ErrUnsafeArgument with errors.Is.
type ArgumentError struct {
	Cmd    string // the command verb, e.g. "RETR"
	Arg    string // the argument; empty for PASS, whose value is never shown
	Offset int    // byte offset of the first bad byte in the argument
	Byte   byte   // the bad byte: '\r', '\n' or 0
}

// Error names the command, the argument (never a password) and the bad byte.
func (e *ArgumentError) Error() string {
	arg := ""
	if e.Arg != "" {
		arg = " " + strconv.Quote(e.Arg)
	}
	return fmt.Sprintf("ftp: %s: argument%s has byte %#02x at offset %d: %v", e.Cmd, arg, e.Byte, e.Offset, ErrUnsafeArgument)
}

// Unwrap returns ErrUnsafeArgument.
func (e *ArgumentError) Unwrap() error { return ErrUnsafeArgument }

// CommandError is a server's refusal (a 4xx or 5xx reply) of a command.
// It prints as "ftp: RETR motd: 550 Failed to open file." and unwraps to
// the *textproto.Error with the code and text. (textproto.Error itself
// quotes the text; here it is escaped by internal/safetext instead, C1
// controls such as 0x9B (CSI) included, so a hostile reply cannot write
// terminal escapes into a log.)
type CommandError struct {
	Cmd   string // the command line, "PASS ****" for a password
	Reply *textproto.Error
}

// Error returns "ftp: <command>: <code> <text>".
func (e *CommandError) Error() string {
	var b strings.Builder
	b.WriteString("ftp: ")
	b.WriteString(e.Cmd)
	b.WriteString(": ")
	fmt.Fprintf(&b, "%03d ", e.Reply.Code)
	b.WriteString(safetext.Escape(e.Reply.Msg))
	return b.String()
}

// Unwrap returns the *textproto.Error.
func (e *CommandError) Unwrap() error { return e.Reply }

// ProtocolError reports a peer that broke RFC 959's reply syntax: a
// reply code that is not three digits, a line longer than
// Config.MaxLineLength, more than Config.MaxReplyLines lines, the
// connection closed in the middle of a reply, or a reply that makes no
// sense for the command. The connection is closed after one.
type ProtocolError struct {
	Cmd    string // the command being answered, "PASS ****" for a password; "greeting" before the first
	Reason string // what was wrong
	Line   string // the offending reply line, cut to 120 bytes; may be empty
	Err    error  // underlying cause such as io.ErrUnexpectedEOF; may be nil
}

// Error returns "ftp: <command>: protocol error: <reason>: <line>".
func (e *ProtocolError) Error() string {
	s := "ftp: " + e.Cmd + ": protocol error: " + e.Reason
	if e.Line != "" {
		s += ": " + strconv.Quote(e.Line)
	}
	if e.Err != nil {
		s += ": " + e.Err.Error()
	}
	return s
}

// Unwrap returns the underlying cause, if any.
func (e *ProtocolError) Unwrap() error { return e.Err }

func protoErr(cmd, reason, line string, err error) *ProtocolError {
	const max = 120
	if len(line) > max {
		line = line[:max] + "…"
	}
	return &ProtocolError{Cmd: cmd, Reason: reason, Line: line, Err: err}
}

// checkArg refuses an argument with CR, LF or NUL. The value of a
// password is never copied into the error.
func checkArg(verb, arg string) error {
	for i := 0; i < len(arg); i++ {
		switch b := arg[i]; b {
		case '\r', '\n', 0:
			e := &ArgumentError{Cmd: verb, Arg: arg, Offset: i, Byte: b}
			if verb == "PASS" {
				e.Arg = ""
			}
			return e
		}
	}
	return nil
}
