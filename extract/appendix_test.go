package extract

import (
	"io"
	"slices"
	"strings"
	"testing"
	"testing/iotest"
	"time"
)

// The Appendix's rules and the scanner's heuristics at their edges: each
// case gives the exact URLs, where each starts and ends in the input, and
// the notes (offset and other reading).

type noteWant struct {
	offset int64
	alt    string
}

type spanWant struct {
	url        string
	form       Form
	start, end int64
	notes      []noteWant
}

// TestScanEnds: Scan moves on past every match and every ':' it
// refuses, so that extraction ends on any text, streamed or in memory,
// and Format ends on every URL: the rule and span tables, read whole,
// one octet per read with a small buffer, the rule table's URLs formatted
// at narrow widths and Format's own table, all within a generous deadline (they take
// milliseconds). It runs first: a scan that reads the same text again
// without end fails the test binary here at once instead of hanging every
// test and example after.
func TestScanEnds(t *testing.T) {
	var in []string
	for _, tt := range ruleTests {
		in = append(in, tt.in)
	}
	for _, tt := range spanTests {
		in = append(in, tt.in)
	}
	done := make(chan struct{})
	go func() {
		defer close(done)
		for _, s := range in {
			All(s)
			sc := newScanner(iotest.OneByteReader(strings.NewReader(s)), 64, 0)
			for sc.Scan() {
			}
		}
		for _, tt := range ruleTests {
			for _, w := range tt.want {
				for width := 7; width <= 40; width++ {
					Format(w.url, width, "  ")
				}
			}
		}
		for _, tt := range formatTests {
			Format(tt.url, tt.width, tt.indent)
		}
	}()
	select {
	case <-done:
	case <-time.After(2 * time.Second):
		// Nothing stops the scan in its goroutine, and -failfast does
		// not stop the examples, which would hang on it: end the test
		// binary here.
		panic("extraction or Format of the tables did not end within 2 s")
	}
}

// TestSpanEnd: the end of a URL whose rest after a soft hyphen is all
// trimmed is before the hyphen, not after the line break. It runs early
// and stops at a wrong end: the scanner goes on from a match's end, and a
// wrong one can make it read the same text again without end.
func TestSpanEnd(t *testing.T) {
	in := "http://a.org/x\u00ad\n  ). more"
	want := []spanWant{{"http://a.org/x", Bare, 0, 14, nil}}
	if got := spans(All(in)); !equalSpans(got, want) {
		t.Fatalf("All(%q)\n got %+v\nwant %+v", in, got, want)
	}
}

// TestCutSkipsTheRest: a bare URL that runs on past the maximum length
// is cut there, with a note, and the rest of it is no URL of its own, in
// memory as in a stream read in halves or one octet at a time; the text
// after it is read on, past a buffer full. The input ends with a cut URL
// too.
func TestCutSkipsTheRest(t *testing.T) {
	long := "http://a.org/" + strings.Repeat("x", 60) + "http://b.org/"
	in := long + " and " + strings.Repeat("prose: more ", 30000) + "http://z.org/ " + long
	want := []spanWant{
		{long[:64], Bare, 0, 64, []noteWant{{64, ""}}},
		{"http://z.org/", Bare, int64(len(in) - len(long) - 14), int64(len(in) - len(long) - 1), nil},
		{long[:64], Bare, int64(len(in) - len(long)), int64(len(in) - len(long) + 64), []noteWant{{int64(len(in) - len(long) + 64), ""}}},
	}
	for _, r := range []io.Reader{strings.NewReader(in), iotest.HalfReader(strings.NewReader(in)), iotest.OneByteReader(strings.NewReader(in))} {
		sc := NewScanner(r)
		sc.SetMaxLength(64)
		var ms []Match
		for sc.Scan() {
			ms = append(ms, sc.Match())
		}
		if got := spans(ms); sc.Err() != nil || !equalSpans(got, want) {
			t.Fatalf("%T: error %v\n got %+v\nwant %+v", r, sc.Err(), got, want)
		}
	}
}

// TestNoteLength: the longer reading a note offers reads no further
// than the maximum length from the URL's start, past a backquote as
// past a hyphen at a line break.
func TestNoteLength(t *testing.T) {
	tests := []struct {
		in, url, alt string
	}{
		{"http://a.org/x`" + strings.Repeat("y", 100), "http://a.org/x", "http://a.org/x`" + strings.Repeat("y", 49)},
		{"http://a.org/x-\n(" + strings.Repeat("y", 100), "http://a.org/x-", "http://a.org/x-(" + strings.Repeat("y", 47)},
		// From the URL's start, not the input's.
		{"see http://a.org/x`" + strings.Repeat("y", 100), "http://a.org/x", "http://a.org/x`" + strings.Repeat("y", 49)},
		{"see http://a.org/x-\n(" + strings.Repeat("y", 100), "http://a.org/x-", "http://a.org/x-(" + strings.Repeat("y", 47)},
	}
	for _, tt := range tests {
		sc := NewScanner(strings.NewReader(tt.in))
		sc.SetMaxLength(64)
		if !sc.Scan() || sc.Match().URL != tt.url || len(sc.Match().Notes) != 1 || sc.Match().Notes[0].Alternative != tt.alt {
			t.Errorf("%.20q…: %+v, want %s with the note %s", tt.in, sc.Match(), tt.url, tt.alt)
		}
	}
}

func equalSpans(got, want []spanWant) bool {
	return slices.EqualFunc(got, want, func(a, b spanWant) bool {
		return a.url == b.url && a.form == b.form && a.start == b.start && a.end == b.end && slices.Equal(a.notes, b.notes)
	})
}

const s32 = "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa" // a scheme name of maxScheme octets

var spanTests = []struct {
	in   string
	want []spanWant
}{
	// In prose a scheme starts with a letter: digits before it are not part of it (§5 allows them, prose does not begin a name with one).
	{"x 1http://a.org/", []spanWant{{"http://a.org/", Bare, 3, 16, nil}}},
	// <URL:…> takes any scheme §5 allows, but '%' is no scheme octet.
	{"<URL:%x:y>", nil},
	// A soft hyphen at a line break is the typesetter's (Appendix); the IPv6 note points at the '[' in the input, past the break.
	{"ssh://u\u00ad\n  ser@[::1]/x", []spanWant{{"ssh://user@[::1]/x", Bare, 0, 23, []noteWant{{16, ""}}}}},
	{"clone from ssh://u\u00ad\n  ser@[::1]/x", []spanWant{{"ssh://user@[::1]/x", Bare, 11, 34, []noteWant{{27, ""}}}}},
	{"ssh://u@\u00ad\n  [::1]/x ssh://u@[::1]/a\u00ad\n b", []spanWant{{"ssh://u@[::1]/x", Bare, 0, 20, []noteWant{{13, ""}}}, {"ssh://u@[::1]/ab", Bare, 21, 41, []noteWant{{29, ""}}}}},
	// "URL:" in any case after '<' (Appendix).
	{"<uRl:http://a.org/>", []spanWant{{"http://a.org/", URLBracket, 5, 18, nil}}},
	// A wrapper cut by the end of the input is none.
	{"x <URL:", nil},
	// A scheme of 32 octets is looked for, 33 not (in <…>).
	{"<" + s32 + "://h/> <" + s32 + "b://h/>", []spanWant{{s32 + "://h/", Bracket, 1, 38, nil}}},
	// ... and bare.
	{s32 + "://h/ " + s32 + "b://h/", []spanWant{{s32 + "://h/", Bare, 0, 37, nil}}},
	// Character references: '&#39;' (a quote) and a code point past ASCII end a bare URL; 'A', eight digits, a bad hex digit or no digit are no reference that ends it.
	{"http://a.org/x&#39; http://a.org/y&#x41;z http://a.org/z&#1234567;w http://a.org/v&#12345678;w http://a.org/u&#xG;w http://a.org/t&#;w", []spanWant{{"http://a.org/x", Bare, 0, 14, nil}, {"http://a.org/y&#x41;z", Bare, 20, 41, nil}, {"http://a.org/z", Bare, 42, 56, nil}, {"http://a.org/v&#12345678;w", Bare, 68, 94, nil}, {"http://a.org/u&#xG;w", Bare, 95, 115, nil}, {"http://a.org/t&#;w", Bare, 116, 134, nil}}},
	// A reference at the end is trimmed when its name has at most 9 octets (entityBefore looks 11 back), else only the ';'.
	{"http://a.org/x&abcdefghi; http://a.org/y&abcdefghij;", []spanWant{{"http://a.org/x", Bare, 0, 14, nil}, {"http://a.org/y&abcdefghij", Bare, 26, 51, nil}}},
	// RFC 3986 §3.2.2: an IPv6 literal is hex digits, ':' and '.', in either case, noted; "[g::1]" is a template, no URL.
	{"http://[fe80::1]/ http://[FE80::A]/ http://[g::1]/", []spanWant{{"http://[fe80::1]/", Bare, 0, 17, []noteWant{{7, ""}}}, {"http://[FE80::A]/", Bare, 18, 35, []noteWant{{25, ""}}}}},
	// A typesetter's hyphen right after a line break continues nothing.
	{"http://a.org/x\u2010\n\u2010\ny", []spanWant{{"http://a.org/x", Bare, 0, 14, nil}}},
	// An ASCII hyphen at a line break joins a path (Appendix), not a host, and not a hyphen right after '/'.
	{"http://a.org/x-\n y http://a-\nb.org/ http://a.org/-\nx", []spanWant{{"http://a.org/x-y", Bare, 0, 18, []noteWant{{14, "http://a.org/x-"}, {14, "http://a.org/xy"}}}, {"http://a-", Bare, 19, 28, []noteWant{{27, "http://a-b.org/"}}}, {"http://a.org/-", Bare, 36, 50, []noteWant{{49, "http://a.org/-x"}}}}},
	// Markdown emphasis: the opening '*' or '_' is trimmed at the end.
	{"*http://a.org/x* _http://a.org/y_ x*http://a.org/z*", []spanWant{{"http://a.org/x", Bare, 1, 15, nil}, {"http://a.org/y", Bare, 18, 32, nil}, {"http://a.org/z", Bare, 36, 50, nil}}},
	// A character reference at the end is trimmed, then the punctuation before it.
	{"http://a.org/x&copy;. http://a.org/y&amp;", []spanWant{{"http://a.org/x", Bare, 0, 14, nil}, {"http://a.org/y", Bare, 22, 36, nil}}},
	// mailto: and news: in any case (§2.1), and URL: with any scheme.
	{"news:a news:b. mailto:c@d, MAILTO:e@f NEWS:g URL:h:i url:j:k", []spanWant{{"news:a", Bare, 0, 6, nil}, {"news:b", Bare, 7, 13, nil}, {"mailto:c@d", Bare, 15, 25, nil}, {"MAILTO:e@f", Bare, 27, 37, nil}, {"NEWS:g", Bare, 38, 44, nil}, {"h:i", URLPrefix, 49, 52, nil}, {"j:k", URLPrefix, 57, 60, nil}}},
	// Brackets opened inside the URL and closed there stay, of each kind.
	{"(http://a.org/x(y)) [http://a.org/[y]] {http://a.org/{y}}", []spanWant{{"http://a.org/x(y)", Bare, 1, 18, nil}, {"http://a.org/[y]", Bare, 21, 37, nil}, {"http://a.org/{y}", Bare, 40, 56, nil}}},
	// Closing brackets that close nothing are trimmed; a '(' does not balance a ']'.
	{"http://a.org/x}] http://a.org/(x]", []spanWant{{"http://a.org/x", Bare, 0, 14, nil}, {"http://a.org/(x", Bare, 17, 32, nil}}},
	// After a prose colon, a letter or a digit, a scheme still begins.
	{"see: http://a.org/ x:http://b.org/ 9:http://c.org/", []spanWant{{"http://a.org/", Bare, 5, 18, nil}, {"http://b.org/", Bare, 21, 34, nil}, {"http://c.org/", Bare, 37, 50, nil}}},
	// The joined reading is taken when the next line makes a URL no worse; a blank line ends the paragraph and the URL.
	{"http://a.org/path-\n  more and http://a.org/path-\n\n  more", []spanWant{{"http://a.org/path-more", Bare, 0, 25, []noteWant{{17, "http://a.org/path-"}, {17, "http://a.org/pathmore"}}}, {"http://a.org/path-", Bare, 30, 48, nil}}},
	// <URL:…>: each ASCII hyphen at a line break is kept, with the reading without it noted where it stands.
	{"<URL:http://a.org/x-\n  y-\n  z>", []spanWant{{"http://a.org/x-y-z", URLBracket, 5, 29, []noteWant{{19, "http://a.org/xy-z"}, {24, "http://a.org/x-yz"}}}}},
	// <URL:…> and <…> drop a typesetter's hyphen at a line break.
	{"<URL:http://a.org/x\u00ad\n y> <http://a.org/x\u2010\n y>", []spanWant{{"http://a.org/xy", URLBracket, 5, 24, nil}, {"http://a.org/xy", Bracket, 27, 47, nil}}},
	// A blank line ends a wrapper (read as URL: prose then); whitespace around the URL inside one is not part of it.
	{"<URL:http://a.org/x\n\n y> <URL:\n http://a.org/\n>", []spanWant{{"http://a.org/x", URLPrefix, 5, 19, nil}, {"http://a.org/", URLBracket, 32, 45, nil}}},
	// <…> takes mailto: and news: with anything, other schemes with "//" and more.
	{"<http:x> <mailto:x> <news:x> <ftp://x> <ftp:/x>", []spanWant{{"mailto:x", Bracket, 10, 18, nil}, {"news:x", Bracket, 21, 27, nil}, {"ftp://x", Bracket, 30, 37, nil}}},
	// <URL:…> takes an empty schemepart or "//" alone when §5 does; a scheme without ':' is none.
	{"<URL:x:> <URL:x://> <URL:x:/> <URL:x>", []spanWant{{"x:", URLBracket, 5, 7, nil}, {"x://", URLBracket, 14, 18, nil}, {"x:/", URLBracket, 25, 28, nil}}},
	// A backquote ends a bare URL, noted with the longer reading when that reading holds URL octets; a '~' is taken.
	{"http://a.org/x`y` http://a.org/~ http://a.org/`", []spanWant{{"http://a.org/x", Bare, 0, 14, []noteWant{{14, "http://a.org/x`y`"}}}, {"http://a.org/~", Bare, 18, 32, nil}, {"http://a.org/", Bare, 33, 46, nil}}},
	// §5 allows '+', '-' and '.' anywhere in a scheme, a scheme's last
	// octet too; in prose it begins with a letter, so no scheme is left
	// of "1:" or "9+.:".
	{"x-y+://h.org/", []spanWant{{"x-y+://h.org/", Bare, 0, 13, nil}}},
	{"1://x 9+.://y", nil},
	{".http://a.org/ -x://b.org/", []spanWant{{"http://a.org/", Bare, 1, 14, nil}, {"x://b.org/", Bare, 16, 26, nil}}},
	// URL: and a scheme of 32 octets, not 33.
	{"URL:" + s32 + ":x URL:" + s32 + "b:x", []spanWant{{s32 + ":x", URLPrefix, 4, 38, nil}}},
	// A ':' first in the input ends no scheme; the text after it is read.
	{": see http://a.org/", []spanWant{{"http://a.org/", Bare, 6, 19, nil}}},
	// A wrapper with a space within a line is text: its first word is no
	// URL, the next word is read whole.
	{"<http://a.org/x http://b.org/>", []spanWant{{"http://b.org/", Bare, 16, 29, nil}}},
	// A bracket opened inside a wrapper is not before the bare URL
	// right after it.
	{"<URL:http://a.org/(>http://b.org/x)/y", []spanWant{{"http://a.org/(", URLBracket, 5, 19, nil}, {"http://b.org/x)/y", Bare, 20, 37, nil}}},
	// A typesetter's hyphen alone before the line break is dropped too.
	{"<URL:\u2010\n http://a.org/>", []spanWant{{"http://a.org/", URLBracket, 5, 23, nil}}},
	{"<URL:\u00ad\n http://a.org/>", []spanWant{{"http://a.org/", URLBracket, 5, 22, nil}}},
	// "<:" opens no wrapper, at the end of the input too.
	{"a <: b <:", nil},
	// A wrapper cut by the end of the input after whitespace is none;
	// its text is read as prose.
	{"<URL:http://a.org/x\n", []spanWant{{"http://a.org/x", URLPrefix, 5, 19, nil}}},
	{"<URL:http://a.org/x ", []spanWant{{"http://a.org/x", URLPrefix, 5, 19, nil}}},
	{"<http://a.org/x \n", []spanWant{{"http://a.org/x", Bare, 1, 15, nil}}},
	// A host still to come after "//user@", at the end too: the URL as
	// written, no IPv6 note; an IPv6 literal without its ']' is a
	// template, no URL.
	{"ssh://user@ x ssh://u@", []spanWant{{"ssh://user@", Bare, 0, 11, nil}, {"ssh://u@", Bare, 14, 22, nil}}},
	{"http://[::1 x http://[::1", nil},
	// Character references at their edges: the shortest name is
	// trimmed at the end; "&;" names nothing; 'a' is no decimal digit;
	// a reference right after the ':' leaves nothing.
	{"http://a.org/y&x;", []spanWant{{"http://a.org/y", Bare, 0, 14, nil}}},
	{"http://a.org/a&;b", []spanWant{{"http://a.org/a&;b", Bare, 0, 17, nil}}},
	{"http://a.org/x&#1a;y", []spanWant{{"http://a.org/x&#1a;y", Bare, 0, 20, nil}}},
	{"news:&amp;", nil},
	// '0' and 'a' are digits: "&#10;" (a line feed) and "&#xa0;" (a
	// no-break space) end a URL.
	{"http://a.org/x&#10;y http://a.org/z&#xa0;w", []spanWant{{"http://a.org/x", Bare, 0, 14, nil}, {"http://a.org/z", Bare, 21, 35, nil}}},
	// The longer reading past a backquote runs to the end of the input.
	{"http://a.org/`x", []spanWant{{"http://a.org/", Bare, 0, 13, []noteWant{{13, "http://a.org/`x"}}}}},
	// An ASCII hyphen break right after a soft-hyphen break (a word of
	// two octets), and in the path of an empty host.
	{"http://a.org/x\u00ad\n a-\n b", []spanWant{{"http://a.org/xa-b", Bare, 0, 23, []noteWant{{19, "http://a.org/xa-"}, {19, "http://a.org/xab"}}}}},
	{"file:///a-\n  b", []spanWant{{"file:///a-b", Bare, 0, 14, []noteWant{{9, "file:///a-"}, {9, "file:///ab"}}}}},
	// Joined when the next line makes the URL no worse than it is as
	// written, hyphen included: a telnet URL has no path (§3.8), so
	// "x-" and "x-y" are one error each.
	{"telnet://h.org/x-\n  y", []spanWant{{"telnet://h.org/x-y", Bare, 0, 21, []noteWant{{16, "telnet://h.org/x-"}, {16, "telnet://h.org/xy"}}}}},
	// A hyphen and a line break at the end of the input: nothing to join.
	{"http://a.org/x-\n", []spanWant{{"http://a.org/x-", Bare, 0, 15, nil}}},
	{"http://a.org/x-\n  ", []spanWant{{"http://a.org/x-", Bare, 0, 15, nil}}},
	// The IPv6 note points at the '[' where it stands in the input, at
	// the start of the line after a soft hyphen.
	{"ssh://u@\u00ad\n  [::1]/x", []spanWant{{"ssh://u@[::1]/x", Bare, 0, 20, []noteWant{{13, ""}}}}},
	// A scheme and ':' at the end of the input are no URL.
	{"see http:", nil},
	{"http://a.org/x&#60;y http://a.org/y&#39;z", []spanWant{{"http://a.org/x", Bare, 0, 14, nil}, {"http://a.org/y", Bare, 21, 35, nil}}},
	{"http://a.org/x&#256;y http://a.org/y&#255;z http://a.org/z&#127;a", []spanWant{{"http://a.org/x", Bare, 0, 14, nil}, {"http://a.org/y", Bare, 22, 36, nil}, {"http://a.org/z", Bare, 44, 58, nil}}},
	// The IPv6 note is for a literal host, after "//" and any login
	// (even an empty one), not for a '[' in the path.
	{"ssh://@[::1]/x ftp:///u@[::1]/x", []spanWant{{"ssh://@[::1]/x", Bare, 0, 14, []noteWant{{7, ""}}}, {"ftp:///u@[::1]/x", Bare, 15, 31, nil}}},
	// A host in brackets without a ':' or a ']' is no IPv6 literal.
	{"ssh://u@[x]/y ssh://u@[::1/y", []spanWant{{"ssh://u@[x]/y", Bare, 0, 13, nil}, {"ssh://u@[::1/y", Bare, 14, 28, nil}}},
	// The Appendix's "URL:" takes a scheme of 32 octets, not 33 or 34.
	{"URL:" + s32 + ":x URL:" + s32 + "b:x URL:" + s32 + "bc:x", []spanWant{{s32 + ":x", URLPrefix, 4, 38, nil}}},
	// Brackets are counted back lookback (256) octets from the scheme's
	// ':': a '(' 256 back ends the URL at its ')', one 257 back does not.
	{"(" + strings.Repeat("x", 250) + " http://a.org/x)/y", []spanWant{{"http://a.org/x", Bare, 252, 266, nil}}},
	{"(" + strings.Repeat("x", 251) + " http://a.org/x)/y", []spanWant{{"http://a.org/x)/y", Bare, 253, 270, nil}}},
}

func spans(ms []Match) []spanWant {
	got := []spanWant{}
	for _, m := range ms {
		w := spanWant{url: m.URL, form: m.Form, start: m.Start.Offset, end: m.End.Offset}
		for _, n := range m.Notes {
			w.notes = append(w.notes, noteWant{n.Offset, n.Alternative})
		}
		got = append(got, w)
	}
	return got
}

func TestSpans(t *testing.T) {
	for _, tt := range spanTests {
		ms := All(tt.in)
		if got := spans(ms); !equalSpans(got, tt.want) {
			t.Errorf("All(%q)\n got %+v\nwant %+v", tt.in, got, tt.want)
		}
		checkMatches(t, tt.in, ms)
	}
}
