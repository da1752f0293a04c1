package smtp

import (
	"bytes"
	"errors"
	"fmt"
	"strings"
)

// A Field is one header field of a message (RFC 5322 §2.2).
type Field struct {
	Name, Value string
}

// Compose writes a message (RFC 5322): the header fields in order, MIME
// fields declaring UTF-8 text when the body is not ASCII (RFC 2045, RFC
// 6532), an empty line and the body. A field name that is not printable
// ASCII without ":" (§2.2), or a value holding CR, LF or NUL, which would
// end the field or smuggle another (RFC 1738 §6), is an error.
func Compose(fields []Field, body []byte) ([]byte, error) {
	var b bytes.Buffer
	for _, f := range fields {
		if f.Name == "" {
			return nil, errors.New("a header field has no name")
		}
		for i := 0; i < len(f.Name); i++ {
			if c := f.Name[i]; c <= ' ' || c >= 0x7f || c == ':' {
				return nil, fmt.Errorf("header field name %q: RFC 5322 §2.2 allows printable ASCII without \":\"", f.Name)
			}
		}
		if i := strings.IndexAny(f.Value, "\r\n\x00"); i >= 0 {
			return nil, fmt.Errorf("header field %s: the value holds %q, which would end the field or smuggle another (§6)", f.Name, f.Value[i])
		}
		b.WriteString(f.Name + ": " + f.Value + "\r\n")
	}
	if !isASCII(body) {
		b.WriteString("MIME-Version: 1.0\r\nContent-Type: text/plain; charset=utf-8\r\nContent-Transfer-Encoding: 8bit\r\n")
	}
	b.WriteString("\r\n")
	b.Write(body)
	return b.Bytes(), nil
}

func isASCII(b []byte) bool {
	for _, c := range b {
		if c >= 0x80 {
			return false
		}
	}
	return true
}

// CheckMailbox refuses an address that could break an SMTP command line
// or the angle brackets of a path (RFC 5321 §4.1.2); what names it in the
// error.
func CheckMailbox(what, addr string) error {
	if addr == "" {
		return fmt.Errorf("the %s is empty", what)
	}
	if i := strings.IndexAny(addr, "\r\n\x00<>"); i >= 0 {
		return fmt.Errorf("the %s %q holds %q at byte %d, which would break the SMTP command (§6)", what, addr, addr[i], i)
	}
	return nil
}
