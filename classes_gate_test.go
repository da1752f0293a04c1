package rfc1738

import (
	"strconv"
	"strings"
	"testing"
)

// §5 hex = digit | "A" | … | "F" | "a" | … | "f", read a second time
// through strconv: isHex holds for exactly those 22 octets and unhex
// gives each one's value.
func TestHexDigits(t *testing.T) {
	n := 0
	for i := 0; i < 256; i++ {
		c := byte(i)
		v, err := strconv.ParseUint(string(c), 16, 8)
		if isHex(c) != (err == nil) {
			t.Errorf("isHex(%q) = %v", c, isHex(c))
		}
		if err == nil {
			n++
			if unhex(c) != byte(v) {
				t.Errorf("unhex(%q) = %d, want %d", c, unhex(c), v)
			}
		}
	}
	if n != 22 {
		t.Errorf("%d hex digits, want 22", n)
	}
	for i := 0; i < 16; i++ {
		if upperhex[i] != strings.ToUpper(strconv.FormatUint(uint64(i), 16))[0] {
			t.Errorf("upperhex[%d] = %q", i, upperhex[i])
		}
	}
}

// §5 scheme = 1*[ lowalpha | digit | "+" | "-" | "." ]; the octets
// tables hold exactly their charsets' octets, and "/" only joins path
// segments.
func TestSchemeClassAndOctets(t *testing.T) {
	for i := 0; i < 256; i++ {
		c := byte(i)
		want := 'a' <= c && c <= 'z' || '0' <= c && c <= '9' || c == '+' || c == '-' || c == '.'
		if (classes[c]&classScheme != 0) != want {
			t.Errorf("octet %q in classScheme: %v", c, !want)
		}
		for _, tc := range []struct {
			t   *octets
			set charset
		}{{xcharOctets, setXchar}, {ucharOctets, setUchar}, {userOctets, setUser}, {fpathOctets, setFsegment | setSlash},
			{hpathOctets, setHsegment | setSlash}, {hsegmentOctets, setHsegment}, {fieldOctets, setField}, {articleOctets, setArticle}} {
			if (tc.t[c] == 1) != (charsets[c]&tc.set != 0) || tc.t[c] > 1 {
				t.Errorf("octets of %b at %q = %d", tc.set, c, tc.t[c])
			}
		}
		if (charsets[c]&setSlash != 0) != (c == '/') {
			t.Errorf("octet %q in setSlash", c)
		}
	}
}
