package extract

import (
	"errors"
	"io"
	"regexp"
	"slices"
	"strings"
	"testing"
	"testing/iotest"

	"github.com/rfc1738/rfc1738"
)

// lineBreaks matches a line break with the whitespace around it, and the
// typesetter's hyphen before it.
var lineBreaks = regexp.MustCompile("(\u2010|\u00ad)?[ \t\r\f\v]*\n[ \t\r\f\v\n]*")

// checkMatches checks what must hold of any match of in: the span is in
// order and inside the input; the URL is the span without its line
// breaks, the whitespace around them and a typesetter's hyphen before
// them; line and column agree with the text; a valid match re-parses as
// valid.
func checkMatches(t *testing.T, in string, ms []Match) {
	t.Helper()
	var prev int64
	for _, m := range ms {
		if m.Start.Offset < prev || m.End.Offset < m.Start.Offset || m.End.Offset > int64(len(in)) {
			t.Fatalf("%q: span %d..%d out of order or outside the input (len %d, previous end %d)", m.URL, m.Start.Offset, m.End.Offset, len(in), prev)
		}
		prev = m.End.Offset
		span := in[m.Start.Offset:m.End.Offset]
		if joined := lineBreaks.ReplaceAllString(span, ""); joined != m.URL {
			t.Errorf("%q: span without its line breaks is %q", m.URL, joined)
		}
		for _, p := range []Pos{m.Start, m.End} {
			line := 1 + strings.Count(in[:p.Offset], "\n")
			col := int(p.Offset) - strings.LastIndexByte(in[:p.Offset], '\n')
			if p.Line != line || p.Column != col {
				t.Errorf("%q: position %+v, want line %d column %d", m.URL, p, line, col)
			}
		}
		if _, err := rfc1738.Parse(m.URL); (err == nil) != m.Valid {
			t.Errorf("%q: Valid %v but Parse says %v", m.URL, m.Valid, err)
		}
		if m.Valid != (len(m.Errors) == 0) {
			t.Errorf("%q: Valid %v with errors %v", m.URL, m.Valid, m.Errors)
		}
	}
}

// scanAll runs a Scanner with a small buffer over r.
func scanAll(t testing.TB, r io.Reader, maxLen, size int) ([]Match, error) {
	sc := newScanner(r, maxLen, size)
	var ms []Match
	for sc.Scan() {
		ms = append(ms, sc.Match())
	}
	return ms, sc.Err()
}

// TestStreaming checks that refills of a buffer much smaller than the
// input, fed one byte per read, find what All finds.
func TestStreaming(t *testing.T) {
	inputs := []string{readRFC(t)}
	for _, tt := range ruleTests {
		inputs = append(inputs, tt.in)
	}
	for _, tt := range spanTests {
		inputs = append(inputs, tt.in)
	}
	// URLs and schemes across every possible refill boundary.
	inputs = append(inputs, strings.Repeat("x http://a.org/p-\n q <URL:ftp://b.org/\n c> ", 40))
	for _, in := range inputs {
		want := All(in)
		for _, r := range []io.Reader{iotest.OneByteReader(strings.NewReader(in)), iotest.HalfReader(strings.NewReader(in))} {
			got, err := scanAll(t, r, DefaultMaxLength, 0)
			if err != nil {
				t.Fatal(err)
			}
			if !slices.EqualFunc(got, want, equalMatch) {
				t.Errorf("streaming over %.60q…:\n got %+v\nwant %+v", in, got, want)
			}
		}
	}
}

func equalMatch(a, b Match) bool {
	return a.URL == b.URL && a.Form == b.Form && a.Start == b.Start && a.End == b.End &&
		a.Valid == b.Valid && slices.Equal(a.Errors, b.Errors) && slices.Equal(a.Notes, b.Notes)
}

// repeatReader yields s over and over, n bytes in all.
type repeatReader struct {
	s   string
	off int
	n   int64
}

func (r *repeatReader) Read(p []byte) (int, error) {
	if r.n <= 0 {
		return 0, io.EOF
	}
	k := 0
	for k < len(p) && r.n > 0 {
		c := copy(p[k:min(len(p), k+int(min(r.n, int64(len(r.s)))))], r.s[r.off:])
		r.off = (r.off + c) % len(r.s)
		k += c
		r.n -= int64(c)
	}
	return k, nil
}

// TestBoundedBuffer scans 64 MiB with long lines and a URL that never
// ends: the buffer does not grow, every URL is found, offsets pass 2^26,
// and the endless URL is cut with a note.
func TestBoundedBuffer(t *testing.T) {
	const unit = "some prose, then <URL:http://a.org/x-\n y> and ftp://b.org/z.\n"
	n := int64(64 << 20)
	n -= n % int64(len(unit))
	sc := NewScanner(io.MultiReader(
		&repeatReader{s: unit, n: n},
		strings.NewReader("http://c.org/"+strings.Repeat("a", 3*DefaultMaxLength)+" http://d.org/ end")))
	size := sc.size // the buffer is made at the first read, at this size
	count := 0
	var last []Match
	for sc.Scan() {
		count++
		last = append(last, sc.Match())
		if len(last) > 3 {
			last = last[1:]
		}
	}
	if sc.Err() != nil {
		t.Fatal(sc.Err())
	}
	if len(sc.buf) != size {
		t.Errorf("buffer grew from %d to %d bytes", size, len(sc.buf))
	}
	units := int(n / int64(len(unit)))
	if count != 2*units+2 {
		t.Errorf("%d matches, want %d", count, 2*units+2)
	}
	cut, tail := last[1], last[2]
	if len(cut.URL) != DefaultMaxLength || len(cut.Notes) != 1 || cut.Notes[0].Alternative != "" {
		t.Errorf("the endless URL: %d bytes, notes %v; want cut at %d with a note", len(cut.URL), cut.Notes, DefaultMaxLength)
	}
	if tail.URL != "http://d.org/" || tail.Start.Offset != n+int64(len("http://c.org/")+3*DefaultMaxLength+1) || tail.Start.Line != 2*units+1 {
		t.Errorf("after the cut: %+v", tail)
	}
}

// TestReadError reports the matches before a read error, then the error.
func TestReadError(t *testing.T) {
	boom := errors.New("boom")
	r := io.MultiReader(strings.NewReader("http://a.org/ <URL:http://b.org/>"), iotest.ErrReader(boom))
	ms, err := scanAll(t, r, DefaultMaxLength, 0)
	if !errors.Is(err, boom) || len(ms) != 2 {
		t.Errorf("%d matches, error %v; want 2 and boom", len(ms), err)
	}
}

func TestSetMaxLength(t *testing.T) {
	in := "<URL:http://a.org/" + strings.Repeat("b", 100) + "> http://c.org/" + strings.Repeat("d", 100) + " http://e.org/"
	sc := NewScanner(strings.NewReader(in))
	sc.SetMaxLength(64)
	var got []string
	for sc.Scan() {
		got = append(got, sc.Match().URL)
	}
	// The wrapper's '>' is too far: read as URL:… prose, cut at 64 bytes.
	if len(got) != 3 || len(got[0]) != 64 || len(got[1]) != 64 || got[2] != "http://e.org/" {
		t.Errorf("got %q", got)
	}
	defer func() {
		if recover() == nil {
			t.Error("SetMaxLength after Scan did not panic")
		}
	}()
	sc.SetMaxLength(100)
}

// lazyInputs are inputs with every kind of match: the RFC's text, the
// rule and span tables, URLs across every refill boundary, a URL cut at
// the maximum length (whose run the scan skips) and a joined one.
func lazyInputs(t *testing.T) []string {
	inputs := []string{readRFC(t)}
	for _, tt := range ruleTests {
		inputs = append(inputs, tt.in)
	}
	for _, tt := range spanTests {
		inputs = append(inputs, tt.in)
	}
	return append(inputs,
		strings.Repeat("x http://a.org/p-\n q <URL:ftp://b.org/\n c> ", 40),
		"http://c.org/"+strings.Repeat("a", 3*DefaultMaxLength)+"/http://x.org/b http://d.org/ <URL:http://e.org/a-\n b> end")
}

// TestBytesAlone: a caller that asks only for Bytes gets the URLs Match
// gives, in memory and streamed over a small buffer, though the rest of
// each match is never made — a cut URL still makes the scan skip its run.
func TestBytesAlone(t *testing.T) {
	for _, in := range lazyInputs(t) {
		var want []string
		for _, m := range All(in) {
			want = append(want, m.URL)
		}
		for _, r := range []io.Reader{strings.NewReader(in), iotest.HalfReader(strings.NewReader(in))} {
			sc := newScanner(r, DefaultMaxLength, 0)
			var got []string
			for sc.Scan() {
				got = append(got, string(sc.Bytes()))
			}
			if !slices.Equal(got, want) {
				t.Errorf("Bytes over %.60q…:\n got %q\nwant %q", in, got, want)
			}
		}
	}
}

// TestCutRunSkipped: a URL cut at the maximum length makes the scan skip
// the rest of its run, whether its match is made or only its Bytes read:
// the "http://x.org/b" inside the run is no URL of its own.
func TestCutRunSkipped(t *testing.T) {
	long := "http://c.org/" + strings.Repeat("a", 2*DefaultMaxLength)
	in := long + "/http://x.org/b http://d.org/"
	want := []string{long[:DefaultMaxLength], "http://d.org/"}
	for _, match := range []bool{false, true} {
		sc := NewScanner(strings.NewReader(in))
		var got []string
		for sc.Scan() {
			if match {
				sc.Match()
			}
			got = append(got, string(sc.Bytes()))
		}
		if len(got) != len(want) || got[0] != want[0] || got[1] != want[1] {
			t.Errorf("Match %v: %d URLs, want %d: %.40q", match, len(got), len(want), got)
		}
	}
}

// TestMatchNowAndThen: Match asked for every third match only (the
// others read with Bytes) is the match All makes — positions counted
// over the matches never made, notes, validity — in memory and streamed.
func TestMatchNowAndThen(t *testing.T) {
	for _, in := range lazyInputs(t) {
		all := All(in)
		for _, r := range []io.Reader{strings.NewReader(in), iotest.OneByteReader(strings.NewReader(in))} {
			sc := newScanner(r, DefaultMaxLength, 0)
			k := 0
			for ; sc.Scan(); k++ {
				if k%3 != 2 {
					continue
				}
				if k >= len(all) {
					t.Fatalf("more matches than All's %d over %.60q…", len(all), in)
				}
				if got := sc.Match(); !equalMatch(got, all[k]) || string(sc.Bytes()) != got.URL {
					t.Errorf("match %d over %.60q…:\n got %+v (bytes %q)\nwant %+v", k, in, got, sc.Bytes(), all[k])
				}
			}
			if k != len(all) {
				t.Errorf("%d matches over %.60q…, All finds %d", k, in, len(all))
			}
		}
	}
}

// TestMatchAfterTheEnd: once Scan has found nothing more, Match is the
// zero Match and Bytes nil, not the last match.
func TestMatchAfterTheEnd(t *testing.T) {
	sc := NewScanner(strings.NewReader("see http://a.org/x and"))
	for sc.Scan() {
	}
	if m := sc.Match(); !equalMatch(m, Match{}) || sc.Bytes() != nil {
		t.Errorf("after the end: Match %+v, Bytes %q; want the zero Match and nil", m, sc.Bytes())
	}
	if m := NewScanner(nil).Match(); !equalMatch(m, Match{}) {
		t.Errorf("before any Scan: Match %+v, want the zero Match", m)
	}
}

// TestAllocsPerMatch: scanning allocates per match made (the URL string),
// not per byte, and nothing on the success path otherwise; a caller that
// reads only Bytes allocates nothing.
func TestAllocsPerMatch(t *testing.T) {
	// Candidates that turn out to be no URL allocate nothing either.
	prose := strings.Repeat("Plain prose: no URL here, only colons: and <tags> or e-mail a@b.org, http://<host>/ \"%s://%s\" <a:b c>.\n", 2000)
	withURLs := strings.Repeat("See http://a.org/x and <URL:ftp://b.org/\n  y>.\n", 100)
	sc := NewScanner(nil)
	r := strings.NewReader("")
	count := func(in string, match bool) float64 {
		return testing.AllocsPerRun(5, func() {
			r.Reset(in)
			sc.Reset(r)
			for sc.Scan() {
				if match {
					sc.Match()
				} else if len(sc.Bytes()) == 0 {
					t.Fatal("a match without a URL")
				}
			}
		})
	}
	if a := count(prose, true); a > 0 {
		t.Errorf("%v allocations over %d bytes without a URL, want 0", a, len(prose))
	}
	if a := count(withURLs, true); a > 200 {
		t.Errorf("%v allocations for 200 URLs, want ≤ 200", a)
	}
	if a := count(withURLs, false); a > 0 {
		t.Errorf("%v allocations for 200 URLs read with Bytes alone, want 0", a)
	}
}

// zeroReader returns nothing, without an error, zeros times, then reads r.
type zeroReader struct {
	zeros int
	r     io.Reader
}

func (z *zeroReader) Read(p []byte) (int, error) {
	if z.zeros > 0 {
		z.zeros--
		return 0, nil
	}
	return z.r.Read(p)
}

// TestNoProgress: a reader that returns nothing 100 times in a row is
// given up on with io.ErrNoProgress, as bufio.Scanner does; 99 empty
// reads are waited out.
func TestNoProgress(t *testing.T) {
	for zeros, want := range map[int]int{99: 1, 100: 0} {
		ms, err := scanAll(t, &zeroReader{zeros, strings.NewReader("http://a.org/")}, DefaultMaxLength, 0)
		if len(ms) != want || (want == 0) != errors.Is(err, io.ErrNoProgress) {
			t.Errorf("after %d empty reads: %d matches, error %v; want %d", zeros, len(ms), err, want)
		}
	}
}

// TestBufferSize: a stream's buffer is about four times the maximum URL
// length, and at least 256 KiB (see Scanner).
func TestBufferSize(t *testing.T) {
	for _, n := range []int{64, 8 << 10, 1 << 20} {
		sc := NewScanner(io.MultiReader(strings.NewReader("http://a.org/"))) // a stream, not viewed in place
		sc.SetMaxLength(n)
		for sc.Scan() {
		}
		if got, least := len(sc.own), max(256<<10, 4*n); got < least || got > least+1024 {
			t.Errorf("SetMaxLength(%d): a buffer of %d bytes, want %d to %d", n, got, least, least+1024)
		}
	}
}
