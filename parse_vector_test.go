package rfc1738

import (
	"math/rand/v2"
	"reflect"
	"strings"
	"testing"

	"github.com/rfc1738/rfc1738/internal/cpuid"
)

// The parser reads spans, host names and generic URLs 64 octets a step
// with the AVX2 kernels of span_amd64.s where the CPU runs them (vector),
// 8 at a time elsewhere. The tests of the parser's verdicts run with both
// readings (bothReadings); the tests here check the kernels and the
// masks they return octet by octet, and the two readings against each
// other on inputs made to cross the kernels' 32- and 64-octet bounds.

// bothReadings runs f with the 8-octet reading and, where the CPU runs
// the AVX2 kernels, with them.
func bothReadings(t *testing.T, f func(t *testing.T)) {
	t.Helper()
	defer func(saved bool) { vector = saved }(vector)
	vector = false
	t.Run("words", f)
	if !cpuid.AVX2 {
		t.Log("this CPU has no AVX2 (or the purego tag is set): the 8-octet reading only")
		return
	}
	vector = true
	t.Run("vector", f)
}

// withReading runs f with vector set to v and returns what it returns.
func withReading[T any](v bool, f func() T) T {
	defer func(saved bool) { vector = saved }(vector)
	vector = v
	return f()
}

// allOctets are the octets tables the parser scans with.
var allOctets = map[string]*octets{
	"xchar": xcharOctets, "uchar": ucharOctets, "user": userOctets,
	"fpath": fpathOctets, "hpath": hpathOctets, "hsegment": hsegmentOctets,
	"field": fieldOctets, "article": articleOctets, "host": hostOctets,
}

// inSet is the kernels' test of c through a set's nibble tables, as
// VPSHUFB makes it: an index with its high bit set looks up 0.
func inSet(t *[32]byte, c byte) bool {
	return c < 0x80 && t[c&15]&t[16+c>>4] != 0
}

// TestNibbles: each set's nibble tables hold exactly its octets, none of
// them 8-bit (§2.2: those are always encoded), and the host set is §5's
// alphadigit, '-' and '.'.
func TestNibbles(t *testing.T) {
	for name, set := range allOctets {
		for c := range 256 {
			if in := set[c] != 0; inSet(set.nibbles(), byte(c)) != in || in && c >= 0x80 {
				t.Errorf("%s: octet %#02x: table %v, nibble tables %v", name, c, in, inSet(set.nibbles(), byte(c)))
			}
		}
	}
	for c := range 256 {
		want := 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' || c == '-' || c == '.'
		if (hostOctets[c] != 0) != want {
			t.Errorf("hostOctets[%q] = %d", rune(c), hostOctets[c])
		}
	}
}

// kernelText returns a random text of n octets, mostly of the octets the
// kernels tell apart: host octets, '.', '-', other xchars, '%' and hex
// digits, and some that end every set (space, '#', controls, 8-bit).
func kernelText(r *rand.Rand, n int) string {
	const common = "abcxyzABZ0189..--/:;@?&=+$_!*'(),%%%"
	const rare = " #<>\"{}|\\^~[]`\x00\x1f\x7f\x80\xe9\xff"
	b := make([]byte, n)
	for k := range b {
		if r.IntN(12) == 0 {
			b[k] = rare[r.IntN(len(rare))]
		} else {
			b[k] = common[r.IntN(len(common))]
		}
	}
	return string(b)
}

// TestKernels checks spanBlocks and masks64 (through blocks64) against
// their contracts, octet by octet, at every start in texts of 32 to 200
// octets: the masks of s[i:i+64], the octets past the end stops; the first
// octet of s[i:j] not in a set.
func TestKernels(t *testing.T) {
	r := rand.New(rand.NewPCG(1738, 32))
	names := []string{"xchar", "fpath", "hsegment", "user", "host"}
	for round := range 400 {
		n := 32 + round%169
		s := kernelText(r, n)
		if round%5 == 0 { // long runs of one set, the stops rare
			s = strings.Repeat("a.b-c", n/5+1)[:n]
			b := []byte(s)
			b[r.IntN(n)] = " %/_"[r.IntN(4)]
			s = string(b)
		}
		for i := 0; i <= n; i++ {
			stop, dot, dash, xstop := masks64(s, i)
			for k := range 64 {
				bit := uint64(1) << k
				at := i + k
				past := at >= n
				var c byte
				if !past {
					c = s[at]
				}
				if got, want := stop&bit != 0, past || hostOctets[c] == 0; got != want {
					t.Fatalf("masks64(%q, %d): host stop at %d is %v", s, i, at, got)
				}
				if got, want := xstop&bit != 0, past || xcharOctets[c] == 0; got != want {
					t.Fatalf("masks64(%q, %d): xchar stop at %d is %v", s, i, at, got)
				}
				if dot&bit != 0 != (!past && c == '.') || dash&bit != 0 != (!past && c == '-') {
					t.Fatalf("masks64(%q, %d): dot or dash at %d wrong", s, i, at)
				}
			}
			for _, j := range []int{i, i + 1, i + 31, i + 32, i + 33, i + 63, i + 64, i + 65, n} {
				if j > n {
					continue
				}
				name := names[(i+j)%len(names)]
				set := allOctets[name]
				want := i
				for want < j && set[s[want]] != 0 {
					want++
				}
				if got := spanBlocks(s, i, j, set.nibbles()); got != want {
					t.Fatalf("spanBlocks(%q, %d, %d, %s) = %d, want %d", s, i, j, name, got, want)
				}
			}
		}
	}
}

// spanByOctet is span one octet at a time (§2.2: an escape is "%" hex hex).
func spanByOctet(s string, i, j int, set *octets) int {
	for i < j {
		if set[s[i]] != 0 {
			i++
		} else if s[i] == '%' && i+2 < j && isHex(s[i+1]) && isHex(s[i+2]) {
			i += 3
		} else {
			return i
		}
	}
	return j
}

// TestSpanReadings: span, with either reading, ends where the octet by
// octet reading does, for every set, on texts with escapes (well-formed,
// cut by j, with bad digits) placed across the kernels' steps.
func TestSpanReadings(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 1738))
	escapes := []string{"%41", "%7e", "%4", "%", "%g1", "%1G", "%%41"}
	bothReadings(t, func(t *testing.T) {
		for round := range 1500 {
			var b strings.Builder
			for b.Len() < 20+round%150 {
				if r.IntN(6) == 0 {
					b.WriteString(escapes[r.IntN(len(escapes))])
				} else {
					b.WriteString(kernelText(r, 1+r.IntN(12))[:1])
					b.WriteString(strings.Repeat("ab9", r.IntN(8)))
				}
			}
			s := b.String()
			for name, set := range allOctets {
				for _, i := range []int{0, 1, r.IntN(len(s) + 1), len(s) / 2} {
					for _, j := range []int{len(s), i + r.IntN(len(s)-i+1), min(i+33, len(s)), min(i+64, len(s))} {
						if got, want := span(s, i, j, set), spanByOctet(s, i, j, set); got != want {
							t.Fatalf("span(%q, %d, %d, %s) = %d, want %d", s, i, j, name, got, want)
						}
					}
				}
			}
		}
	})
}

// TestReadingsAgree: Parse, Valid and Check give the same with both
// readings on URLs made to cross the kernels' bounds: host names of 1 to
// 90 octets (labels, '-', '.' in every place, a hostnumber), ports, paths
// and fragments with escapes, a wrong octet at every place, for the
// generic scheme the one-pass reading takes (generic) and for schemes of
// §3 that read their hosts and paths with hostnameEnd and span.
func TestReadingsAgree(t *testing.T) {
	if !cpuid.AVX2 {
		t.Skip("this CPU has no AVX2 (or the purego tag is set): there is one reading")
	}
	r := rand.New(rand.NewPCG(32, 64))
	hostParts := []string{"a", "b9", "x-y", "www", "example", "an-abcdefghijklmnopq-label", ".", ".", "-", "9", "1.2.3.4"}
	pathParts := []string{"/", "a", "index.html", "?q=1&r=2", ";type=i", "%41", "%4", "%zz", "#", "#frag", "~", " ", "\x80", ":", "@"}
	schemes := []string{"https://", "x-y://", "ftp://", "http://", "file://", "gopher://", "telnet://", "wais://", "prospero://", "nntp://", "mailto:", "news:"}
	n := 0
	for round := range 6000 {
		var b strings.Builder
		b.WriteString(schemes[round%len(schemes)])
		for range r.IntN(12) {
			b.WriteString(hostParts[r.IntN(len(hostParts))])
		}
		if r.IntN(4) == 0 {
			b.WriteString(":8080")
		}
		for range r.IntN(14) {
			b.WriteString(pathParts[r.IntN(len(pathParts))])
			if r.IntN(3) == 0 {
				b.WriteString(strings.Repeat("p", r.IntN(40)))
			}
		}
		s := b.String()
		for _, in := range []string{s, s[:r.IntN(len(s)+1)]} {
			n++
			parse := func() parsed { u, err := Parse(in); return parsed{u, err} }
			p1, p2 := withReading(false, parse), withReading(true, parse)
			u1, err1, u2, err2 := p1.u, p1.err, p2.u, p2.err
			if u1 != u2 || (err1 == nil) != (err2 == nil) || err1 != nil && err1.(*Error).Diagnostic() != err2.(*Error).Diagnostic() {
				t.Fatalf("Parse(%q): 8-octet reading %+v, %v; 64-octet reading %+v, %v", in, u1, err1, u2, err2)
			}
			if v1, v2 := withReading(false, func() bool { return Valid(in) }), withReading(true, func() bool { return Valid(in) }); v1 != v2 || v1 != (err1 == nil) {
				t.Fatalf("Valid(%q): %v with 8 octets, %v with 64; Parse error %v", in, v1, v2, err1)
			}
			c1, c2 := withReading(false, func() Report { return Check(in) }), withReading(true, func() Report { return Check(in) })
			if !reflect.DeepEqual(c1, c2) {
				t.Fatalf("Check(%q): 8-octet reading %+v; 64-octet reading %+v", in, c1, c2)
			}
		}
	}
	t.Logf("%d inputs", n)
}

// parsed is what Parse returns.
type parsed struct {
	u   URL
	err error
}

// TestVectorFor: where the CPU runs the kernels, they read every input of
// 32 octets or more (the least they read at once), and none shorter.
func TestVectorFor(t *testing.T) {
	bothReadings(t, func(t *testing.T) {
		for n := range 70 {
			s := strings.Repeat("a", n)
			if got, want := vectorFor(s), vector && n >= 32; got != want {
				t.Errorf("vectorFor of %d octets = %v, want %v", n, got, want)
			}
		}
	})
}
