package access

import (
	"bytes"
	"io"
	"strings"
	"testing"
	"testing/iotest"
)

func TestLocalText(t *testing.T) {
	if !localLineEnd {
		t.Skip("the local line end is CRLF: nothing is converted")
	}
	tests := []struct{ in, want string }{
		{"", ""},
		{"a\r\nb\r\n", "a\nb\n"},
		{"a\nb\n", "a\nb\n"},         // LF alone stays
		{"x\ry\r\n", "x\ry\n"},       // a CR that no LF follows is data
		{"z\r\r\n", "z\r\n"},         // CR, then the CR LF line end
		{"end\r", "end\r"},           // a CR at the very end is data
		{"\r\n\r\n.\r\n", "\n\n.\n"}, // lines of a gopher text
		{strings.Repeat("ab\r\n", 20000), strings.Repeat("ab\n", 20000)},
	}
	for _, tt := range tests {
		for name, r := range map[string]func(string) io.Reader{
			"whole":     func(s string) io.Reader { return strings.NewReader(s) },
			"one byte":  func(s string) io.Reader { return iotest.OneByteReader(strings.NewReader(s)) },
			"data+EOF":  func(s string) io.Reader { return iotest.DataErrReader(strings.NewReader(s)) },
			"half read": func(s string) io.Reader { return iotest.HalfReader(strings.NewReader(s)) },
		} {
			got, err := io.ReadAll(newLocalText(r(tt.in)))
			if err != nil || string(got) != tt.want {
				t.Errorf("%s %q: got %q, %v, want %q", name, trim(tt.in), trim(string(got)), err, trim(tt.want))
			}
			// A one-byte destination: a held CR must come out alone.
			var b bytes.Buffer
			lt := newLocalText(r(tt.in))
			one := make([]byte, 1)
			for {
				n, err := lt.Read(one)
				b.Write(one[:n])
				if err != nil {
					break
				}
			}
			if b.String() != tt.want {
				t.Errorf("%s, 1-byte reads, %q: got %q", name, trim(tt.in), trim(b.String()))
			}
		}
	}
}

func trim(s string) string {
	if len(s) > 40 {
		return s[:40] + "…"
	}
	return s
}
