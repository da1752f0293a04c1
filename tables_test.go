package rfc1738

import (
	"errors"
	"strings"
	"testing"
)

// reservedSchemesTable is §4's list of names to reserve, written out here
// apart from the code so that a name dropped from it fails a test.
var reservedSchemesTable = []string{"afs", "mid", "cid", "nfs", "tn3270", "mailserver", "z39.50"}

// TestReservedSchemesTable: each of §4's reserved names draws the §4
// warning, in any case; a longer or shorter name does not.
func TestReservedSchemesTable(t *testing.T) {
	has := func(in string) bool {
		for _, d := range Check(in).Warnings {
			if strings.Contains(d.Message, "reserved by §4") {
				return true
			}
		}
		return false
	}
	for _, name := range reservedSchemesTable {
		for _, in := range []string{name + ":x", strings.ToUpper(name) + ":x"} {
			if !has(in) {
				t.Errorf("Check(%q): no §4 reserved-scheme warning", in)
			}
		}
		for _, in := range []string{name + "x:x", name[:len(name)-1] + ":x"} {
			if has(in) {
				t.Errorf("Check(%q): a §4 warning for a name §4 does not reserve", in)
			}
		}
	}
}

// wellFormedEscapes is §5's escape rule stated on its own, as a second
// recogniser the parser is checked against: every "%" is followed by two
// hex digits (escape = "%" hex hex).
func wellFormedEscapes(s string) bool {
	isHex := func(c byte) bool { return '0' <= c && c <= '9' || 'a' <= c && c <= 'f' || 'A' <= c && c <= 'F' }
	for i := 0; i < len(s); i++ {
		if s[i] == '%' && (i+2 >= len(s) || !isHex(s[i+1]) || !isHex(s[i+2])) {
			return false
		}
	}
	return true
}

// TestEscapeNeedsTwoHexDigits: a "%" not followed by two hex digits is no
// escape (§5), in every part that allows escapes, whichever digit is bad.
func TestEscapeNeedsTwoHexDigits(t *testing.T) {
	for _, in := range []string{
		"http://h/%4G", "http://h/%G4", "http://h/%4", "http://h/%", "http://h/a%4zb",
		"ftp://h/a%4zb", "ftp://u%4g@h/", "ftp://u:p%g4@h/", "ftp://h/f;type=a%2",
		"gopher://h/0%4Gx", "gopher://h/0x%09%0G", "news:a%4Gb@c", "news:grou%Gp",
		"nntp://h/g%4Z/1", "wais://h/db?a%4Gb", "file://h/%4G", "mailto:a%4Gb@c",
		"telnet://u%4G@h/", "prospero://h/x%4G", "prospero://h/x;a=%4G", "x-y:ab%4Gc",
		"http://h/p?q%4G", "x-y://h/%G0",
	} {
		if wellFormedEscapes(in) {
			t.Fatalf("test case %q has no bad escape", in)
		}
		if _, err := Parse(in); err == nil {
			t.Errorf("Parse(%q) accepted a malformed escape", in)
		}
		if Valid(in) {
			t.Errorf("Valid(%q) accepted a malformed escape", in)
		}
	}
	for _, in := range []string{"http://h/%4F", "ftp://h/a%4fb", "gopher://h/0%4Ax", "news:a%4Bb@c", "x-y:ab%4cc"} {
		if _, err := Parse(in); err != nil {
			t.Errorf("Parse(%q): %v", in, err)
		}
	}
}

// TestEscapeRuleOnDatasets checks the parser against the independent
// recogniser on real URLs: no accepted line holds a malformed escape
// before its fragment, and breaking either hex digit of any escape of an
// accepted line makes it rejected.
func TestEscapeRuleOnDatasets(t *testing.T) {
	broken := 0
	for _, name := range datasets {
		for _, in := range loadDataset(t, name) {
			if _, err := Parse(in); err != nil {
				continue
			}
			base, _, _ := strings.Cut(in, "#")
			if !wellFormedEscapes(base) {
				t.Errorf("%s: Parse accepted %q, which holds a malformed escape", name, in)
			}
			for i := 0; i+2 < len(base); i++ {
				if base[i] != '%' {
					continue
				}
				for _, at := range []int{i + 1, i + 2} {
					bad := in[:at] + "G" + in[at+1:]
					if _, err := Parse(bad); err == nil {
						t.Errorf("%s: Parse accepted %q (a 'G' for a hex digit)", name, bad)
					}
					broken++
				}
			}
		}
	}
	if broken == 0 {
		t.Error("the datasets gave no escape to break")
	}
}

// datasetAccepted pins how many lines of each dataset the strict grammar
// accepts: the figures the README's table shows. A change of the grammar
// that moves one of them must change the README with it.
var datasetAccepted = map[string]int{
	"kasztp.txt":       43556,
	"node_files.txt":   43285,
	"isaacs_files.txt": 6207,
}

func TestDatasetAcceptanceCounts(t *testing.T) {
	for _, name := range datasets {
		accepted := 0
		for _, in := range loadDataset(t, name) {
			if _, err := Parse(in); err == nil {
				accepted++
			}
		}
		if want := datasetAccepted[name]; accepted != want {
			t.Errorf("%s: %d lines accepted, the README says %d", name, accepted, want)
		}
	}
}

// TestPortDigitsAtTheLimits: a port is what its digits spell, at and
// around the 32-bit boundary where the parser stops keeping the value
// and past the size of an int, with digits of every kind after the
// boundary, and the path after the port is still read (§3.1: port =
// 1*digit; §5).
func TestPortDigitsAtTheLimits(t *testing.T) {
	for _, tc := range []struct {
		digits string
		value  int
		fits   bool
	}{
		{"0", 0, true},
		{"65535", 65535, true},
		{"2147483646", 2147483646, true},
		{"2147483647", 2147483647, true},
		{"2147483648", 2147483648, true},
		{"2147483649", 2147483649, true},
		{"2147483650", 2147483650, true},
		{"9999999999", 9999999999, true},
		{"21474836479", 21474836479, true},
		{"00000000002147483648", 2147483648, true},
		{"9223372036854775807", 9223372036854775807, true},
		{"9223372036854775808", 0, false},
		{"99999999999999999999999", 0, false},
	} {
		for _, in := range []string{"ftp://h:" + tc.digits + "/d/f;type=a", "x-y://h:" + tc.digits + "/p"} {
			u, err := Parse(in)
			if err != nil {
				t.Errorf("Parse(%q): %v", in, err)
				continue
			}
			if d, ok := u.Port(); !ok || d != tc.digits {
				t.Errorf("%q: Port() = %q, %v", in, d, ok)
			}
			if v, ok := u.PortValue(); v != tc.value || ok != tc.fits {
				t.Errorf("%q: PortValue() = %d, %v; want %d, %v", in, v, ok, tc.value, tc.fits)
			}
			if p, _ := u.Path(); !strings.HasPrefix(p, "d/") && !strings.HasPrefix(p, "p") {
				t.Errorf("%q: the path after the port is %q", in, p)
			}
		}
	}
}

// TestInputLengthLimit: an input of exactly the longest length is read,
// one byte more is refused at offset 0 under rule "url", by Parse, Valid
// and Check alike, whichever reading (generic, file, named scheme) the
// URL takes. The limit is lowered for the test; the real one, 2^31-1
// bytes, is where int32 offsets end.
func TestInputLengthLimit(t *testing.T) {
	defer func(n int) { maxInputLen = n }(maxInputLen)
	maxInputLen = 24
	for _, base := range []string{"x-y://h.org/", "file://h.org/", "ftp://h.org/", "x-y:", "news:a"} {
		ok := base + strings.Repeat("a", maxInputLen-len(base))
		long := ok + "a"
		if _, err := Parse(ok); err != nil || !Valid(ok) || !Check(ok).Valid() {
			t.Errorf("%q (%d bytes, the limit): Parse %v, Valid %v, Check %v", ok, len(ok), err, Valid(ok), Check(ok).Valid())
		}
		_, err := Parse(long)
		var e *Error
		if !errors.As(err, &e) || e.Rule != "url" || e.Offset != 0 {
			t.Errorf("Parse(%d bytes) = %v, want rule url at 0", len(long), err)
		}
		if Valid(long) || Check(long).Valid() {
			t.Errorf("%d bytes, one over the limit: Valid %v, Check %v", len(long), Valid(long), Check(long).Valid())
		}
	}
}
