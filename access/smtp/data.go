package smtp

import (
	"bufio"
	"bytes"
)

// CheckMessage refuses a message Data would refuse, before a session is
// opened: one that holds NUL. RFC 5322 §3.5 leaves NUL out of a message's
// text and RFC 5321 §4.5.2's transparency does not cover it; relays drop
// it, keep it or cut the line there, so it is refused rather than
// encoded: encoding would change the message without the sender knowing.
func CheckMessage(msg []byte) error {
	if i := bytes.IndexByte(msg, 0); i >= 0 {
		return &MessageError{Offset: i, Byte: 0, Reason: "NUL has no place in a message (RFC 5322 §3.5); nothing was sent"}
	}
	return nil
}

// writeData writes msg as the text of DATA (RFC 5321 §4.1.1.4): every
// line end — CRLF, a lone CR, a lone LF — as CRLF (§2.3.8: nothing else
// ends a line, and a bare CR or LF "MUST NOT" be sent), so no relay, however
// it reads a bare CR or LF, sees a line the client did not send; a line
// that starts with "." gets one more (§4.5.2); a last line without an end
// gets CRLF; then the "." line that ends the data.
func writeData(w *bufio.Writer, msg []byte) error {
	bol := true // at the beginning of a line
	for i := 0; i < len(msg); i++ {
		switch b := msg[i]; b {
		case '\r':
			if i+1 < len(msg) && msg[i+1] == '\n' {
				i++
			}
			w.WriteString("\r\n")
			bol = true
		case '\n':
			w.WriteString("\r\n")
			bol = true
		default:
			if bol && b == '.' {
				w.WriteByte('.')
			}
			w.WriteByte(b)
			bol = false
		}
	}
	if !bol {
		w.WriteString("\r\n")
	}
	w.WriteString(".\r\n")
	return w.Flush()
}
