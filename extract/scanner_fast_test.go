package extract

import (
	"bytes"
	"io"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
	"testing/iotest"
)

// The fast paths of the scanner, each against the plain reading it
// replaces, on text made of the octets that decide them.

// fastAlphabet holds the octets the colon filters and the bracket count
// look at, and look-alikes: letters of "url", "news" and "mailto" in both
// cases, '<', '/', the brackets and what folds near them ('y', 'Y', '_',
// DEL), space and control octets, scheme octets.
const fastAlphabet = "::://<<  \n\tuUrRlLnNeEwWsSmMaAiItToO-+.9()[]{}yY_\x7f\x01\x21\xff"

func randomText(r *rand.Rand, n int) []byte {
	b := make([]byte, n)
	for k := range b {
		b[k] = fastAlphabet[r.IntN(len(fastAlphabet))]
	}
	return b
}

// TestNextColonSkipsOnlyProse checks that every ':' nextColon passes
// over is one that neither a wrapper nor a bare URL may take: no '<'
// before a run of scheme octets ending there, and no "/" after it nor
// "url", "news" or "mailto" before it (the byte-at-a-time readings).
func TestNextColonSkipsOnlyProse(t *testing.T) {
	skipped := 0
	check := func(b []byte, from int) {
		t.Helper()
		s := NewScanner(nil)
		s.ResetBytes(b)
		next := s.nextColon(from)
		for i := from; i < len(b) && (next < 0 || i < next); i++ {
			if b[i] != ':' {
				continue
			}
			skipped++
			a := i
			for a > from && i-a <= maxScheme && class[b[a-1]]&cScheme != 0 {
				a--
			}
			if a > from && b[a-1] == '<' {
				t.Fatalf("%q from %d: the ':' at %d skipped, but '<' at %d may open a wrapper", b, from, i, a-1)
			}
			// (a word before a space or control ends no scheme of a match:
			// TestNamedBeforeSpace)
			if i+1 == len(b) || b[i+1] == '/' || b[i+1] > ' ' && (equalFold(b[max(i-3, 0):i], "url") ||
				equalFold(b[max(i-4, 0):i], "news") || equalFold(b[max(i-6, 0):i], "mailto")) {
				t.Fatalf("%q from %d: the ':' at %d skipped, but a bare URL may end its scheme there", b, from, i)
			}
		}
		if next >= 0 && b[next] != ':' {
			t.Fatalf("%q from %d: %d is no ':'", b, from, next)
		}
	}
	r := rand.New(rand.NewPCG(1, 2))
	for range 20000 {
		b := randomText(r, 1+r.IntN(80))
		check(b, r.IntN(len(b)))
	}
	// Long enough for colonBlocks, which then passes over the colons.
	for k := range 2000 {
		b := randomText(r, 130+r.IntN(1500))
		if k%2 == 1 {
			b = b[:0]
			for len(b) < 130+r.IntN(1500) {
				b = append(b, kernelWords[r.IntN(len(kernelWords))]...)
			}
		}
		check(b, r.IntN(len(b)))
	}
	// A '<' at every distance before the ':', after a word or a space,
	// and the words of mayBeBare in both cases at every offset.
	for n := 0; n <= maxScheme+8; n++ {
		for pad := 0; pad < 50; pad++ {
			for _, run := range []string{"a", "Z9+", "x.y-z"} {
				lead := strings.Repeat("p", pad)
				word := strings.Repeat(run, n)[:n]
				check([]byte(lead+"<"+word+":x y"), 0)
				check([]byte(lead+" "+word+":x y"), 0)
			}
			for _, w := range []string{"url", "URL", "News", "mailTO", "uRl"} {
				check([]byte(strings.Repeat(" ", pad)+w+":x"), 0)
				check([]byte(strings.Repeat(" ", pad)+w[1:]+":x"), 0)
			}
		}
	}
	if skipped < 1000 {
		t.Fatalf("only %d colons skipped: the test does not reach the fast path", skipped)
	}
}

// TestOpenBefore checks openBefore, which stops at the first bracket left
// open, against a count of every bracket from the end.
func TestOpenBefore(t *testing.T) {
	slow := func(b []byte) (open [3]int) {
		var closed [3]int
		for k := len(b) - 1; k >= 0; k-- {
			switch c := b[k]; c {
			case ')', ']', '}':
				closed[pair(c)]++
			case '(', '[', '{':
				if p := pair(c); closed[p] > 0 {
					closed[p]--
				} else {
					open[p]++
				}
			}
		}
		return open
	}
	r := rand.New(rand.NewPCG(3, 4))
	for range 20000 {
		b := randomText(r, r.IntN(300))
		for _, c := range []byte(")]}") {
			if got, want := openBefore(b, c), slow(b)[pair(c)] > 0; got != want {
				t.Fatalf("openBefore(%q, %q) = %v, want %v", b, c, got, want)
			}
		}
	}
	// Every octet alone in a word of otherwise plain letters.
	for c := range 256 {
		b := []byte(strings.Repeat("x", 16))
		b[11] = byte(c)
		for _, c := range []byte(")]}") {
			if got, want := openBefore(b, c), slow(b)[pair(c)] > 0; got != want {
				t.Fatalf("openBefore(%q, %q) = %v, want %v", b, c, got, want)
			}
		}
	}
}

// TestInMemoryInput checks that a Scanner over bytes (ResetBytes), over
// a bytes.Reader or a strings.Reader (scanned where they lie) and over a
// stream read one octet at a time find the same, and that the in-memory
// ones neither copy the input into a buffer nor allocate without a URL.
func TestInMemoryInput(t *testing.T) {
	inputs := []string{readRFC(t), strings.Repeat("x <http:\n //a.org/b> mailto:c@d.org URL:news:e\n", 50)}
	for _, tt := range ruleTests {
		inputs = append(inputs, tt.in)
	}
	sc := NewScanner(nil)
	scan := func() []Match {
		var ms []Match
		for sc.Scan() {
			ms = append(ms, sc.Match())
		}
		return ms
	}
	for _, in := range inputs {
		want, err := scanAll(t, iotest.OneByteReader(strings.NewReader(in)), DefaultMaxLength, 0)
		if err != nil {
			t.Fatal(err)
		}
		sc.ResetBytes([]byte(in))
		if got := scan(); !slices.EqualFunc(got, want, equalMatch) {
			t.Errorf("ResetBytes over %.60q…:\n got %+v\nwant %+v", in, got, want)
		}
		sc.Reset(bytes.NewReader([]byte(in)))
		if got := scan(); !slices.EqualFunc(got, want, equalMatch) {
			t.Errorf("bytes.Reader over %.60q…:\n got %+v\nwant %+v", in, got, want)
		}
		// A reader part read already is scanned from where it stands,
		// its offsets counted from there, as a stream's are.
		r := strings.NewReader("http://skipped.org/ " + in)
		r.Seek(int64(len("http://skipped.org/ ")), io.SeekStart)
		sc.Reset(r)
		if got := scan(); !slices.EqualFunc(got, want, equalMatch) {
			t.Errorf("strings.Reader over %.60q…:\n got %+v\nwant %+v", in, got, want)
		}
		if sc.own != nil {
			t.Fatalf("a buffer of %d bytes was made for in-memory input", len(sc.own))
		}
	}
	prose := []byte(strings.Repeat("Plain prose: no URL here, only colons: and <tags> or <a:b c>.\n", 2000))
	r := bytes.NewReader(nil)
	if a := testing.AllocsPerRun(5, func() {
		r.Reset(prose)
		sc.Reset(r)
		for sc.Scan() {
		}
	}); a > 0 {
		t.Errorf("%v allocations over a bytes.Reader without a URL, want 0", a)
	}
}

// TestViewWriterWhole checks that the view is whole when WriteTo hands
// its bytes over in more than one Write.
func TestViewWriterWhole(t *testing.T) {
	var w viewWriter
	w.Write([]byte("http://a.org/"))
	w.WriteString("b c")
	if string(w.b) != "http://a.org/b c" {
		t.Fatalf("view %q", w.b)
	}
}

// TestNextColonTakes: what the fast path passes over, at its edges. A
// ':' after a word of prose that holds a space or a control octet is
// passed over from the ninth octet of the input on (the eight before it
// are read at once); one after a run of 40 octets with no '<' in reach
// is too; a ':' before '/' or at the end, after "url", "news" or
// "mailto", or with a '<' close enough to open a wrapper, is returned.
func TestNextColonTakes(t *testing.T) {
	tests := []struct {
		in   string
		want int
	}{
		{"abc defg: x", -1},                                // ':' at 8, a space before it
		{"abcdefg: x", 7},                                  // ':' at 7: read one octet at a time
		{"abc defgh: x:/", 12},                             // the first passed over, the second before '/'
		{"abc defgh:", 9},                                  // at the end of the input
		{"see the url: x", 11},                             // "url" before
		{"the  news: x", 9},                                // "news"
		{"a  mailto: x", 9},                                // "mailto"
		{"the  two: x", -1},                                // 'o' last, but no "mailto"
		{"x <abcdefg: y", 10},                              // '<' among the 8 before
		{strings.Repeat("a", 39) + ": x", 39},              // no space before, too close to the start to read 40 back
		{strings.Repeat("a", 40) + ": x", -1},              // no space before, no '<' in the 40 octets before
		{"bbbbbbb<" + strings.Repeat("a", 33) + ": x", 41}, // a '<' 34 back is read: the words reach 40 back
		{"<" + strings.Repeat("a", 40) + ": x", -1},
		{"x<" + strings.Repeat("a", 31) + " abcdefg: x", -1}, // a space among the 8 before: a '<' further back opens no wrapper ending here        // a '<' 41 back is out of reach
	}
	for _, tt := range tests {
		s := NewScanner(nil)
		s.ResetBytes([]byte(tt.in))
		if got := s.nextColon(0); got != tt.want {
			t.Errorf("nextColon(%q) = %d, want %d", tt.in, got, tt.want)
		}
	}
}

// TestMayBeBareTakes: the colons a bare URL or URL: may end a scheme at,
// read one octet at a time in the first eight octets and eight at a time
// after: before '/', at the end, or after "url", "news" or "mailto" in
// any case (§3.5, §3.6, Appendix).
func TestMayBeBareTakes(t *testing.T) {
	tests := []struct {
		in   string
		want bool
	}{
		{"url:x", true}, {"URL:x", true}, {"xurl:x", true}, {"ur:x", false}, {"rl:x", false},
		{"news:x", true}, {"NeWs:x", true}, {"ews:x", false},
		{"mailto:x", true}, {"ailto:x", false}, {"mailt:x", false},
		{"http:x", false}, {"http:/", true}, {"http:", true}, {"x:/x", true},
		{"abcdeurl:x", true}, {"abcdeurx:x", false}, {"abcdnews:x", true}, {"abmailto:x", true},
		{"long prose, then url:x", true}, {"long prose, then news:x", true}, {"long prose, mailto:x", true},
		{"long prose, and more:x", false}, {"long prose, and more:/", true}, {"long prose, and more:", true},
	}
	for _, tt := range tests {
		s := NewScanner(nil)
		s.ResetBytes([]byte(tt.in))
		i := strings.IndexByte(tt.in, ':')
		if got := s.mayBeBare(i); got != tt.want {
			t.Errorf("mayBeBare(%q, %d) = %v, want %v", tt.in, i, got, tt.want)
		}
	}
}

// TestWrapperBeforeTakes: the '<' that may open a wrapper whose scheme
// ends at a ':', at or after where the search starts (bracket decides
// whether it is one), read one octet at a time near the start and after
// eight at a time.
func TestWrapperBeforeTakes(t *testing.T) {
	tests := []struct {
		in   string
		from int
		want int
	}{
		{"x <abc: y", 0, 2},
		{"<abc:", 0, 0},
		{"<abc:", 1, -1}, // the '<' is before from
		{"< abc:", 0, -1},
		{"<" + s32 + ":", 0, 0},
		{"<" + s32 + "b:", 0, 0},   // 33 octets: bracket refuses it
		{"<" + s32 + "bc:", 0, -1}, // 34: too far back
		{"abcdefgh <abc:", 0, 9},
		{"abcdefgh <" + s32 + ":", 0, 9},
		{"abc defgh:", 0, -1},
		{"abcdefghi:", 0, -1},
	}
	for _, tt := range tests {
		s := NewScanner(nil)
		s.ResetBytes([]byte(tt.in))
		if got := s.wrapperBefore(tt.from, strings.LastIndexByte(tt.in, ':')); got != tt.want {
			t.Errorf("wrapperBefore(%q, from %d) = %d, want %d", tt.in, tt.from, got, tt.want)
		}
	}
}

// TestBracketAtTheEnd: a '<' at the end of the input, or before a
// scheme and ':' that the input ends in, opens no wrapper; what follows
// "<URL" is read as prose.
func TestBracketAtTheEnd(t *testing.T) {
	for _, in := range []string{"x<", "<abc", "<abc:", "<URL", "<URL:", "<url:x", "<" + s32 + ":", "x <" + s32 + "b:"} {
		if ms := All(in); len(ms) != 0 {
			t.Errorf("All(%q) = %+v, want nothing", in, ms)
		}
	}
}

// TestNoHost: the schemepart before a '[' has its host still to come
// when it is "//" or "//user@".
func TestNoHost(t *testing.T) {
	for p, want := range map[string]bool{"//": true, "//u@": true, "//u:p@": true, "//u@h": false, "//a/b@": false, "///u@": false, "/": false, "": false, "x@": false} {
		if got := noHost([]byte(p)); got != want {
			t.Errorf("noHost(%q) = %v, want %v", p, got, want)
		}
	}
}
