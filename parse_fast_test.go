package rfc1738

import (
	"math"
	"math/rand/v2"
	"strings"
	"testing"
)

// The fast paths of the parser read the commonest URLs in one pass and
// hand anything else to the rule-by-rule reading. TestOracle proves that
// they never accept what §5 refuses; the tests here prove that they do take
// the inputs they are there for, so that one silently disabled (always
// handing over: the same verdicts, only slower) fails a test too.

// TestHostnameEnd: where a §5 hostname read from i ends, -1 when what is
// there is not a hostname, i when there is no host at all.
func TestHostnameEnd(t *testing.T) { bothReadings(t, testHostnameEnd) }

func testHostnameEnd(t *testing.T) {
	for _, tt := range []struct {
		s    string
		i    int
		want int
	}{
		{"h.org/x", 0, 5},
		{"ftp://h.org/", 6, 11},
		{"ftp://a-b.c9.d-e:21/", 6, 16},
		{"x://", 4, 4},    // no host at all
		{"x:///p", 4, 4},  // no host at all, then the path
		{"x://:80", 4, 4}, // no host at all, then a port
		{".a", 0, -1},     // an empty first label
		{"a.", 0, -1},     // an empty last label
		{"a..b", 0, -1},   // an empty label between
		{"-a", 0, -1},     // §5: a label starts with an alphadigit
		{"a-", 0, -1},     // and ends with one
		{"a.1b", 0, -1},   // §3.1: a toplabel starting with a digit: a hostnumber
		{"1.2.3.4", 0, -1},
		{"a_b", 0, 1}, // the name ends where '_' is; the caller decides
	} {
		if got := hostnameEnd(tt.s, tt.i, len(tt.s)); got != tt.want {
			t.Errorf("hostnameEnd(%q, %d) = %d, want %d", tt.s, tt.i, got, tt.want)
		}
	}
}

// hostnameEndByOctet is the reading hostnameEnd does 8 octets at a time,
// one octet at a time, label by label (§5 hostname, §3.1).
func hostnameEndByOctet(s string, i, end int) int {
	t := s[i:end]
	j := 0
	for {
		start := j
		for j < len(t) && (classes[t[j]]&classAlphadigit != 0 || t[j] == '-') {
			j++
		}
		if j == start {
			if j == 0 && (j == len(t) || t[j] != '.') {
				return i // no host at all
			}
			return -1 // an empty label
		}
		if t[start] == '-' || t[j-1] == '-' {
			return -1
		}
		if j < len(t) && t[j] == '.' {
			j++
			continue
		}
		if classes[t[start]]&classAlpha == 0 {
			return -1
		}
		return i + j
	}
}

// TestHostnameEndWordAtATime checks hostnameEnd against the reading one
// octet at a time, on every string of up to 5 octets over the octets
// that decide it and on longer random ones, at offsets that put each
// octet at each place in a word, with the end of the input or not.
func TestHostnameEndWordAtATime(t *testing.T) { bothReadings(t, testHostnameEndWordAtATime) }

func testHostnameEndWordAtATime(t *testing.T) {
	const alphabet = "a9Z-./:_\xe9" // 0xe9: not ASCII; its low 7 bits are 'i'
	// Pads that put each octet at each place in a word, and, for the
	// 64-octet reading, inputs of fewer than 32 octets (read 8 at a time),
	// of 32 to 64 (read as their first and last 32) and of more (read from
	// the host on, or as the last 64 near the end).
	var pads []int
	for _, from := range []int{0, 24, 56} {
		for pad := from; pad < from+9; pad++ {
			pads = append(pads, pad)
		}
	}
	check := func(host string) {
		for _, pad := range pads {
			for _, tail := range []string{"", "/x"} {
				s := strings.Repeat("p", pad) + host + tail
				if got, want := hostnameEnd(s, pad, len(s)), hostnameEndByOctet(s, pad, len(s)); got != want {
					t.Fatalf("hostnameEnd(%q, %d) = %d, want %d", s, pad, got, want)
				}
				// A shorter end, inside the host.
				e := pad + len(host)/2
				if got, want := hostnameEnd(s, pad, e), hostnameEndByOctet(s, pad, e); got != want {
					t.Fatalf("hostnameEnd(%q, %d, %d) = %d, want %d", s, pad, e, got, want)
				}
			}
		}
	}
	var gen func(prefix string, n int)
	gen = func(prefix string, n int) {
		check(prefix)
		if n == 0 {
			return
		}
		for k := 0; k < len(alphabet); k++ {
			gen(prefix+alphabet[k:k+1], n-1)
		}
	}
	gen("", 4)
	r := rand.New(rand.NewPCG(5, 6))
	labels := []string{"a", "b9", "x-y", "9", "-", "", "www", "example", "a.", "Z", "an-abcdefghijklmnopqrstuvwxyz-label0"}
	for range 20000 {
		var b strings.Builder
		for n := r.IntN(8); n >= 0; n-- {
			b.WriteString(labels[r.IntN(len(labels))])
			if r.IntN(4) > 0 {
				b.WriteByte('.')
			}
		}
		if r.IntN(3) == 0 {
			b.WriteByte(alphabet[r.IntN(len(alphabet))])
		}
		check(b.String())
	}
}

// TestSpanTail: the last octets of a span are tried as the last 8 octets
// at once, which holds them and octets before i; a span that stops there,
// or whose octets before i are not in set, is read octet by octet all the
// same.
func TestSpanTail(t *testing.T) { bothReadings(t, testSpanTail) }

func testSpanTail(t *testing.T) {
	for _, tt := range []struct {
		s    string
		i    int
		want int
	}{
		{"abcdefgh", 5, 8},      // the last 8 in set: the tail at once
		{"abcdefghijk", 8, 11},  // after 8 at a time
		{"abcdefghijk~", 8, 11}, // end at a stop after the tail
		{"ab~defghijk", 8, 11},  // an octet before i not in set: one by one
		{"abcdefgh~jk", 8, 8},   // a stop in the tail
		{"abcdefgh%41k", 8, 12}, // an escape in the tail
		{"abcdefgh%4", 8, 8},    // a cut escape
		{"abc", 1, 3},           // fewer than 8 octets in all
		{"ab~", 0, 2},
	} {
		if got := span(tt.s, tt.i, len(tt.s), xcharOctets); got != tt.want {
			t.Errorf("span(%q, %d) = %d, want %d", tt.s, tt.i, got, tt.want)
		}
	}
}

// TestValidHostname: the fast path of host accepts the §5 hostnames.
func TestValidHostname(t *testing.T) {
	for _, s := range []string{"h", "h.org", "a-b.org", "a9-0b.c-d.e9", "1a.b"} {
		if !validHostname(s) {
			t.Errorf("validHostname(%q) = false", s)
		}
	}
	for _, s := range []string{"", ".", "a.", ".a", "-a", "a-", "a.-b", "a..b", "a.1b", "1.2.3.4", "a_b"} {
		if validHostname(s) {
			t.Errorf("validHostname(%q) = true", s)
		}
	}
}

// TestPortReader: port reads every digit, keeps the value up to
// math.MaxInt32 and marks a larger one (flagBigPort) without wrapping round.
func TestPortReader(t *testing.T) {
	for _, tt := range []struct {
		s     string
		end   int // index of the first byte after the digits
		value int32
		big   bool
	}{
		{"0/", 1, 0, false},
		{"80/", 2, 80, false},
		{"70", 2, 70, false},
		{"2147483647/", 10, math.MaxInt32, false},
		{"2147483648/", 10, 0, true},
		{"21474836479/", 11, 0, true},
		{"99999999999999999999", 20, 0, true},
		{"99999999999999999999a", 20, 0, true},
		{"4294967376/", 10, 0, true}, // 2^32 + 80: never port 80
		{"x", 0, 0, false},
	} {
		p := parser{s: tt.s}
		end := p.port(0, len(tt.s))
		if end != tt.end || p.u.port != tt.value || (p.u.flags&flagBigPort != 0) != tt.big || p.u.flags&flagPort == 0 {
			t.Errorf("port(%q) = %d, value %d, big %v; want %d, %d, %v", tt.s, end, p.u.port, p.u.flags&flagBigPort != 0, tt.end, tt.value, tt.big)
		}
	}
}

// TestFastPathsTaken: the one-pass readings take the URLs they exist for,
// and what they take is what the rule-by-rule reading gives.
func TestFastPathsTaken(t *testing.T) { bothReadings(t, testFastPathsTaken) }

func testFastPathsTaken(t *testing.T) {
	for _, s := range []string{"x-y://h.org/p", "x://h.org:80/p#f", "x-y://h.org", "x-y://h.org:8080", "ab://h/#", "x-y://a-b.c/d?e=f&g#h"} {
		var p parser
		p.s = s
		colon, _ := schemeEnd(s, len(s))
		if !p.generic(colon) {
			t.Errorf("generic(%q) handed it over", s)
			continue
		}
		if r := Check(s); !r.Valid() || r.URL != p.u {
			t.Errorf("generic(%q) = %+v; the full reading gives %+v", s, p.u, r.URL)
		}
	}
	// A wrong octet in the path or the fragment: generic decides, with
	// the violation the rule-by-rule reading finds first.
	for _, s := range []string{"x-y://h.org/a~b", "x://h.org:80/%zz", "x://h.org/a#b c", "x://h.org/a b#c d", "x://h.org/#%4", "x://h/p#f#g"} {
		var p parser
		p.s = s
		colon, _ := schemeEnd(s, len(s))
		if !p.generic(colon) || !p.stop {
			t.Errorf("generic(%q) handed it over", s)
			continue
		}
		if r := Check(s); r.Valid() || p.diagnostic() != r.Errors[0] {
			t.Errorf("generic(%q) found %+v; the full reading finds %+v", s, p.diagnostic(), r.Errors)
		}
	}
	for _, s := range []string{"ftp://h.org/x", "ftp://h.org:21/x", "ftp://h.org:21", "http://a-b.c:8080/", "file:///x"} {
		var p parser
		p.s = s
		colon, _ := schemeEnd(s, len(s))
		p.u.kind = KindOf(s[:colon])
		stop, ok := p.hostport(colon+3, len(s), p.u.kind != KindFile)
		u, err := Parse(s)
		if !ok || err != nil || int32(stop) != u.portEnd || p.u.hostStart != u.hostStart || p.u.hostEnd != u.hostEnd || p.u.port != u.port {
			t.Errorf("hostport(%q) = %d, %v, %+v; Parse gives %+v, %v", s, stop, ok, p.u, u, err)
		}
	}
	for _, s := range []string{"file:///etc/motd", "file://localhost/a/b", "FILE://h.org/c#d", "file://h/"} {
		colon, _ := schemeEnd(s, len(s))
		if !validFile(s, colon) {
			t.Errorf("validFile(%q) handed it over", s)
		}
	}
	for _, s := range []string{"file://1.2.3.4/x", "file://h/a;b", "file://h", "file:/x", "file://h/a#b c"} {
		colon, _ := schemeEnd(s, len(s))
		if validFile(s, colon) {
			t.Errorf("validFile(%q) = true; it is for the rule-by-rule reading", s)
		}
	}
}

// TestSchemeEnd: the scheme's lower-case letters are read 8 at a time,
// the octets after them one at a time (§2.1, §5 scheme).
func TestSchemeEnd(t *testing.T) {
	for _, tt := range []struct {
		s     string
		n     int
		upper bool
	}{
		{"http://h/", 4, false},
		{"https://h/", 5, false},
		{"abcdefghij:x", 10, false}, // past the first 8
		{"abcdefgH:xyz", 8, true},   // upper case within the first 8
		{"HTTP://h.org", 4, true},
		{"z39.50s://h", 7, false}, // a digit after the letters
		{"a+b-c.d:xyzw", 7, false},
		{"\xe1ttp://h.org", 0, false}, // an octet beyond US-ASCII is no letter ('a' | 0x80)
		{"ht\xf4p://h.org", 2, false},
		{"x:y", 1, false}, // shorter than 8
		{"", 0, false},
	} {
		if n, upper := schemeEnd(tt.s, len(tt.s)); n != tt.n || upper != tt.upper {
			t.Errorf("schemeEnd(%q) = %d, %v; want %d, %v", tt.s, n, upper, tt.n, tt.upper)
		}
	}
}

// TestKindOfFolds: KindOf reads a scheme name as one word with the bit
// 0x20 set in each octet: both cases of every name, and nothing else.
func TestKindOfFolds(t *testing.T) {
	for k := KindFTP; k <= KindProspero; k++ {
		name := k.String()
		for _, s := range []string{name, strings.ToUpper(name), strings.ToUpper(name[:1]) + name[1:]} {
			if got := KindOf(s); got != k {
				t.Errorf("KindOf(%q) = %v, want %v", s, got, k)
			}
		}
		// One octet changed for one 0x20 away, or a letter more or less.
		for _, s := range []string{name[:len(name)-1], name + "s", name[:1] + string(name[1]^0x01) + name[2:],
			name[:len(name)-1] + string(name[len(name)-1]&^0x40)} {
			if got := KindOf(s); got != KindOther {
				t.Errorf("KindOf(%q) = %v, want KindOther", s, got)
			}
		}
	}
	for _, s := range []string{"", "x", "ab", "https", "prosperos", "z39.50"} {
		if got := KindOf(s); got != KindOther {
			t.Errorf("KindOf(%q) = %v, want KindOther", s, got)
		}
	}
}
