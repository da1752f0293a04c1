package safetext

import (
	"strings"
	"testing"
	"unicode/utf8"
)

// TestEscapeEveryControl goes through every code point that can move a
// terminal's cursor or start a sequence — C0, DEL (0x7f) and C1 — alone and
// amid text: none survives Escape, and every printable ASCII character and
// the first code points past C1 pass unchanged.
func TestEscapeEveryControl(t *testing.T) {
	for r := rune(0); r < 0x100; r++ {
		s := "a" + string(r) + "b"
		got := Escape(s)
		control := r < 0x20 || r == 0x7f || 0x80 <= r && r < 0xa0
		if control {
			if got == s || strings.ContainsRune(got, r) {
				t.Errorf("Escape(%q) = %q: the control %U reaches the output", s, got, r)
			}
			continue
		}
		if got != s {
			t.Errorf("Escape(%q) = %q, want it unchanged", s, got)
		}
	}
	// The single bytes 0x80-0xff are invalid UTF-8 alone, and a terminal
	// may read 0x9b as CSI: each is written as \xNN.
	for c := 0x80; c < 0x100; c++ {
		s := string([]byte{'a', byte(c), 'b'})
		if got := Escape(s); !utf8.ValidString(got) || strings.IndexByte(got, byte(c)) >= 0 {
			t.Errorf("Escape(%q) = %q: the raw byte %#x reaches the output", s, got, c)
		}
	}
}
