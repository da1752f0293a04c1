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

// FuzzNameReader feeds arbitrary listing bytes to NameReader: it never
// panics, every name is one non-empty line within MaxListingLine, and the
// listing ends with io.EOF or ErrListingLine.
func FuzzNameReader(f *testing.F) {
	for _, s := range []string{"a\r\nb c\r\n", "a\n\r\n\nb", "", "\r\r\n\n", "x\x00\xff\r\n"} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		r := NewNameReader(strings.NewReader(string(data)))
		for n := 0; ; n++ {
			name, err := r.Next()
			if err != nil {
				if err != io.EOF && !errors.Is(err, ErrListingLine) {
					t.Fatalf("error %v", err)
				}
				return
			}
			if name == "" || strings.ContainsRune(name, '\n') || len(name) > MaxListingLine+1 {
				t.Fatalf("name %q", name)
			}
			if n > len(data) {
				t.Fatalf("%d names from %d bytes", n, len(data))
			}
		}
	})
}
