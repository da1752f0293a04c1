package rfc1738

import (
	"strings"
	"testing"
)

func TestEscape(t *testing.T) {
	tests := []struct {
		in   string
		c    Component
		want string
	}{
		{"/etc", FSegment, "%2Fetc"},                                                 // §3.2.2: "/" inside a segment
		{"a b;c.txt", FSegment, "a%20b%3Bc.txt"},                                     // §3.2.2: ";" reserved
		{"a?b:c@d&e=f", FSegment, "a?b:c@d&e=f"},                                     // §5 fsegment
		{"東京", FSegment, "%E6%9D%B1%E4%BA%AC"},                                       // §2.2: 8-bit octets
		{"a/b;c?d", HSegment, "a%2Fb;c%3Fd"},                                         // §3.3
		{"x y", Search, "x%20y"},                                                     // §2.2: space is unsafe
		{"u:s@r/", UserComponent, "u%3As%40r%2F"},                                    // §3.1
		{"a%b@c", Address, "a%25b@c"},                                                // §3.5
		{"sel\tx", GopherPart, "sel%09x"},                                            // §3.4.1
		{"a/b@c", ArticlePart, "a/b%40c"},                                            // §5 article
		{"db name/x", UChar, "db%20name%2Fx"},                                        // §5 uchar
		{"a=b;c", FieldPart, "a%3Db%3Bc"},                                            // §5 fieldvalue
		{"~{}|\\^[]`<>\"#", FragmentPart, "%7E%7B%7D%7C%5C%5E%5B%5D%60%3C%3E%22%23"}, // §2.2 unsafe
		{"plain-text_1.2", FSegment, "plain-text_1.2"},
	}
	for _, tt := range tests {
		if got := Escape(tt.in, tt.c); got != tt.want {
			t.Errorf("Escape(%q, %d) = %q, want %q", tt.in, tt.c, got, tt.want)
		}
		if got := string(AppendEscape([]byte("x"), tt.in, tt.c)); got != "x"+tt.want {
			t.Errorf("AppendEscape(%q) = %q", tt.in, got)
		}
		if got, err := Unescape(tt.want); err != nil || got != tt.in {
			t.Errorf("Unescape(%q) = %q, %v; want %q", tt.want, got, err, tt.in)
		}
	}
}

func TestUnescapeErrors(t *testing.T) {
	for in, off := range map[string]int{"%": 0, "a%4": 1, "%zz": 0, "ab%4g": 2} {
		_, err := Unescape(in)
		e, ok := err.(*Error)
		if !ok || e.Offset != off || e.Rule != "escape" {
			t.Errorf("Unescape(%q) = %v, want escape error at %d", in, err, off)
		}
	}
	if got, _ := Unescape("%2f%2F"); got != "//" {
		t.Errorf("lower-case hex: %q", got) // §2.2: "abcdef" may also be used
	}
}

func TestEscapeNoAllocs(t *testing.T) {
	n := testing.AllocsPerRun(100, func() {
		_ = Escape("plain-segment.txt", FSegment)
		_, _ = Unescape("plain")
	})
	if n != 0 {
		t.Errorf("Escape/Unescape of clean text allocate %v times", n)
	}
}

// FuzzEscape: unescape∘escape is the identity for every component, and an
// escaped string scans as valid for its component.
func FuzzEscape(f *testing.F) {
	f.Add("東京 /;?:@&=#%", uint8(0))
	f.Add("\x00\r\n\t\xff", uint8(4))
	f.Fuzz(func(t *testing.T, s string, c uint8) {
		comp := Component(c % uint8(len(componentSets)))
		e := Escape(s, comp)
		if got, err := Unescape(e); err != nil || got != s {
			t.Fatalf("Unescape(Escape(%q)) = %q, %v", s, got, err)
		}
		p := parser{s: e}
		if !p.scan(0, len(e), octetsOf(componentSets[comp]), "x") || p.stop {
			t.Fatalf("Escape(%q) = %q does not scan as component %d", s, e, comp)
		}
		if strings.IndexFunc(e, func(r rune) bool { return r < '!' || r > '~' }) >= 0 {
			t.Fatalf("Escape(%q) = %q holds a non-graphic character", s, e)
		}
	})
}

func TestIndexEscape(t *testing.T) {
	for _, tt := range []struct {
		s, set string
		want   int
	}{
		{"a%0Db", "\r\n", 1},
		{"a%0db", "\r", 1},      // §2.2: lower-case hex too
		{"%250D%0A", "\r\n", 5}, // %25 is "%": its "0D" is text
		{"%09%20", "\r\n\x00", -1},
		{"%0", "\x00", -1},
		{"x%00", "\x00", 1},
	} {
		if got := IndexEscape(tt.s, tt.set); got != tt.want {
			t.Errorf("IndexEscape(%q, %q) = %d, want %d", tt.s, tt.set, got, tt.want)
		}
	}
}
