package ftp

import (
	"errors"
	"io"
	"reflect"
	"strings"
	"testing"
)

// TestNameReader: NLST lines (RFC 959 §4.1.3) end in CRLF or a bare LF,
// empty lines are skipped, a last line without an end counts, and a line
// beyond MaxListingLine is an error rather than an unbounded buffer.
func TestNameReader(t *testing.T) {
	tests := []struct {
		in   string
		want []string
		err  error
	}{
		{"a\r\nb c\r\n", []string{"a", "b c"}, nil},
		{"a\n\r\n\nb", []string{"a", "b"}, nil},
		{"", nil, nil},
		{"x\r\n" + strings.Repeat("y", MaxListingLine+3) + "\r\n", []string{"x"}, ErrListingLine},
		{strings.Repeat("z", MaxListingLine) + "\r\n", []string{strings.Repeat("z", MaxListingLine)}, nil},
	}
	for _, tt := range tests {
		r := NewNameReader(strings.NewReader(tt.in))
		var got []string
		var err error
		for {
			var name string
			if name, err = r.Next(); err != nil {
				break
			}
			got = append(got, name)
		}
		if tt.err == nil && err != io.EOF || tt.err != nil && !errors.Is(err, tt.err) {
			t.Errorf("%.20q: err = %v, want %v", tt.in, err, tt.err)
		}
		if !reflect.DeepEqual(got, tt.want) {
			t.Errorf("%.20q: names %.60q, want %.60q", tt.in, got, tt.want)
		}
	}
}
