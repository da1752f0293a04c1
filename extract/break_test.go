package extract

import (
	"strings"
	"testing"
)

// TestFormatBreakSearch: where Format breaks a line when the last octet
// that fits may not end it, and on a later line, where "half full"
// counts from the line's start. It runs before the other tests of
// Format, and stops at the first wrong line: a break search that went
// the wrong way would otherwise loop on in them.
func TestFormatBreakSearch(t *testing.T) {
	tests := []struct {
		url   string
		width int
		want  string
	}{
		// The 15th octet is '-', after which no line may end
		// (Appendix): the break comes before it, not after the next.
		{"http://abcdefg-hijklmnop", 20, "<URL:http://abcdefg\n-hijklmnop>"},
		// On the second line a '/' three octets in is less than half
		// full: the last break that fits is taken.
		{"http://a.org/xxxxxx/ab/" + strings.Repeat("c", 23), 25, "<URL:http://a.org/xxxxxx/\nab/" + strings.Repeat("c", 22) + "\nc>"},
	}
	for _, tt := range tests {
		if got, err := Format(tt.url, tt.width, ""); err != nil || got != tt.want {
			t.Fatalf("Format(%q, %d) =\n%s\n(%v), want\n%s", tt.url, tt.width, got, err, tt.want)
		}
	}
}

// TestColumns: a tab advances to the next multiple of 8, a space by one.
func TestColumns(t *testing.T) {
	for indent, want := range map[string]int{"": 0, " ": 1, "\t": 8, " \t": 8, "\t ": 9, "       \t": 8, "        \t": 16, "  \t\t": 16} {
		if got := columns(indent); got != want {
			t.Errorf("columns(%q) = %d, want %d", indent, got, want)
		}
	}
}
