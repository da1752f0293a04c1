package extract

import (
	"bytes"
	"encoding/binary"
	"io"
	"math/bits"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"
	"unsafe"

	"github.com/rfc1738/rfc1738"
)

// DefaultMaxLength is the longest URL the Scanner takes by default, in
// bytes of input (whitespace inside a wrapper included).
const DefaultMaxLength = 8 << 10

// maxScheme is the longest scheme name looked back for before a ':'.
const maxScheme = 32

// lookback is how many bytes before the scan position are kept when the
// buffer is refilled: enough to find a scheme name cut by the refill, and
// the '(' or '[' a bare URL may stand in.
const lookback = 256

// Scanner finds the URLs of a stream, one per call to Scan, like
// bufio.Scanner. Its memory is bounded: it buffers a fixed window of the
// input (about four times the maximum URL length, at least 256 KiB), so
// it scans input of any size. Input in memory — ResetBytes, or a
// *bytes.Reader or *strings.Reader as the reader — is scanned where it
// lies, with no buffer.
//
//	sc := extract.NewScanner(r)
//	for sc.Scan() {
//		m := sc.Match()
//		...
//	}
//	if err := sc.Err(); err != nil { ... }
type Scanner struct {
	r      io.Reader
	buf    []byte // the input window: own, or the caller's bytes (see fill)
	own    []byte // the buffer of a stream, made at its first read
	size   int    // len(own) to make
	end    int    // buf[:end] holds input
	pos    int    // next byte to scan
	floor  int    // no scheme is looked for before this: the end of the last match
	base   int64  // input offset of buf[0]
	eof    bool
	err    error
	maxLen int
	window int  // bytes wanted after an event before it is handled
	strict bool // a bare URL stops at the first unsafe octet (SetStrict)

	skipping bool

	// Line tracking: line is the line number at buf[lineAt], and lastNL
	// the input offset of the last '\n' before it (-1 when none).
	lineAt int
	line   int
	lastNL int64

	colons  colonQueue // colonBlocks' finds ahead of the scan
	viewW   viewWriter
	scratch []byte
	segs    []seg
	notes   []Note
	m       Match
	started bool
}

// NewScanner returns a Scanner reading from r.
func NewScanner(r io.Reader) *Scanner {
	return newScanner(r, DefaultMaxLength, defaultBufSize(DefaultMaxLength))
}

func defaultBufSize(maxLen int) int { return max(256<<10, 4*(maxLen+64)) }

func newScanner(r io.Reader, maxLen, size int) *Scanner {
	s := &Scanner{r: r, line: 1, lastNL: -1}
	s.setMax(maxLen, size)
	return s
}

func (s *Scanner) setMax(maxLen, size int) {
	s.maxLen = maxLen
	s.window = maxLen + 16
	// Progress needs room for a window and the look-back after a refill.
	s.size = max(size, s.window+lookback+1)
	s.own = nil
}

// SetMaxLength sets the longest URL the scanner takes, in bytes of input
// (n ≥ 64), and sizes the buffer for it. A bare URL that runs on past it
// is reported cut, with a note; a wrapper whose '>' is further away is
// not a wrapper. It panics when called after Scan, like bufio.Scanner.Buffer.
func (s *Scanner) SetMaxLength(n int) {
	if s.started {
		panic("extract: SetMaxLength called after Scan")
	}
	s.setMax(max(n, 64), defaultBufSize(max(n, 64)))
}

// Reset makes the scanner read r from its start, keeping its buffer and
// maximum length, so one Scanner serves many files without allocating.
func (s *Scanner) Reset(r io.Reader) {
	*s = Scanner{r: r, own: s.own, size: s.size, scratch: s.scratch[:0], segs: s.segs[:0], notes: s.notes[:0],
		maxLen: s.maxLen, window: s.window, strict: s.strict, line: 1, lastNL: -1}
}

// ResetBytes makes the scanner read b, which it scans where it lies,
// without copying (a file read whole or memory-mapped, say). b must not
// change until the scan is over.
func (s *Scanner) ResetBytes(b []byte) {
	s.Reset(nil)
	s.buf, s.end, s.eof = b, len(b), true
}

// SetStrict sets how a bare URL meets an octet that §2.2 calls unsafe,
// such as the '~' of http://host/~user or the '[' of an IPv6 literal.
// By default the URL runs on over the national characters but '\\' and
// '`', and is reported invalid with the §2.2 error where each stands and
// the repaired strict form (Match.Repaired). Strict, the URL stops at the
// first unsafe octet, with a note giving the longer reading; an IPv6
// literal, which would leave no host, is then no URL at all.
func (s *Scanner) SetStrict(strict bool) { s.strict = strict }

// Match returns the match found by the last call to Scan.
func (s *Scanner) Match() Match { return s.m }

// Err returns the first error from the reader, other than io.EOF. The
// matches before it were reported.
func (s *Scanner) Err() error { return s.err }

// Scan advances to the next URL, which Match then returns. It returns
// false at the end of the input or after a read error (see Err).
func (s *Scanner) Scan() bool {
	s.started = true
	for {
		if s.skipping {
			run := cBare
			if s.strict {
				run = cURL
			}
			for s.pos < s.end && class[s.buf[s.pos]]&run != 0 {
				s.pos++
			}
			if s.pos == s.end && !s.eof {
				s.fill(s.pos)
				continue
			}
			s.skipping = false
			s.floor = s.pos
		}
		// Every form holds a ':' (Appendix: "URL:", "<URL:", scheme ":"
		// §5), and the '<' of a wrapper stands at most maxScheme+1 octets
		// before its first one: one search for ':' finds every start.
		from := s.pos
		i := s.nextColon(from)
		if i < 0 {
			if s.eof {
				s.pos = s.end
				return false
			}
			// A '<' near the end may open a wrapper whose ':' is still
			// to come: it is searched again after the refill.
			s.pos = max(from, s.end-maxScheme-1)
			s.fill(max(s.floor, s.end-lookback))
			continue
		}
		if !s.eof && s.end-i < s.window {
			// Only a '<' right before the ':' matters; the octets before
			// it have been searched.
			s.pos = max(from, i-maxScheme-1)
			s.fill(min(i, max(s.floor, i-lookback)))
			continue
		}
		// A wrapper that is none because of its spaces has moved floor
		// past i (see bracket): atColon finds no scheme behind floor.
		if p := s.wrapperBefore(from, i); p != -1 && s.bracket(p, i) {
			return true
		}
		if s.mayBeBare(i) && s.atColon(i) {
			return true
		}
		s.pos = max(s.pos, i+1)
	}
}

// nextColon returns the index of the next ':' at or after from that may
// end a scheme (endsScheme), or -1: it passes over the colons of prose
// ("Note: ", "10:30", "a::b"), those neither wrapperBefore nor mayBeBare
// would take. It takes them from colonBlocks, 64 octets a step, where the
// CPU has a kernel for it, and searches colon by colon elsewhere and at
// the ends of the input. It keeps the line count close behind, so that
// posAt counts lines in octets still in the cache.
func (s *Scanner) nextColon(from int) int {
	b := s.buf[:s.end]
	i := from
	q := &s.colons
	for {
		// The colons colonBlocks found, ahead of the scan: from never
		// goes back between fills, which empty the queue.
		for ; q.k < q.n; q.k++ {
			if c := q.at[q.k]; c >= i && endsScheme(b, c) {
				return c
			}
		}
		i = max(i, q.to)
		if colonBlocks != nil {
			// The lines up to lookback before i: no match found from here
			// on starts before that (its scheme, or its '<', stands at
			// most maxScheme+2 octets before its ':').
			s.posAt(max(s.lineAt, i-lookback))
			if n, next := colonBlocks(b[:min(len(b), i+blockSpan+65)], i, q.at[:]); next > i {
				q.k, q.n, q.to = 0, n, next
				continue
			}
		}
		k := bytes.IndexByte(b[i:], ':')
		if k < 0 {
			return -1
		}
		i += k
		if endsScheme(b, i) {
			return i
		}
		if i-s.lineAt >= 16<<10 {
			s.posAt(i)
		}
		i++
	}
}

// endsScheme reports whether the ':' b[i] may end a scheme, for
// nextColon, from the 8 octets before it: a '<' opens a wrapper whose
// scheme ends at the ':' only right before a run of scheme octets
// (Appendix: "<URL:", "<scheme:"); none does when no '<' is among the 8
// octets before the ':' and a space or control octet is, so that the run
// starts inside them, after no '<'; nor when no '<' stands within reach
// at all.
func endsScheme(b []byte, i int) bool {
	if i < 8 || i+1 >= len(b) || b[i+1] == '/' {
		return true
	}
	w := binary.LittleEndian.Uint64(b[i-8 : i])
	// "url", "news" or "mailto" before (see mayBeBare), when the octet
	// before is one of their last letters; a '<' that may open a wrapper
	// (see wrapperBefore).
	last := byte(w>>56) | 0x20
	return (last == 'l' || last == 's' || last == 'o') && namedScheme(w) || lessClose(b, w, i)
}

// lessClose reports whether a '<' that may open a wrapper whose scheme
// ends at the ':' b[i] stands close enough before it: among the 8 octets
// before it (w), or before those when none of them is a space or control
// (lessBefore).
func lessClose(b []byte, w uint64, i int) bool {
	return hasZero(w^(lo8*'<')) || !hasLess(w, ' '+1) && lessBefore(b, i)
}

// wrapperBefore returns the index of the '<' that may open a wrapper
// whose scheme (or "URL") ends at the ':' buf[i] — a '<' at or after from
// right before a run of scheme octets — or -1. bracket decides.
func (s *Scanner) wrapperBefore(from, i int) int {
	b := s.buf
	a := i
	for a > from && i-a <= maxScheme && class[b[a-1]]&cScheme != 0 {
		a--
	}
	if a > from && b[a-1] == '<' {
		return a - 1
	}
	return -1
}

// lessBefore reports whether a '<' that may open a wrapper whose scheme
// ends at the ':' b[i] may stand before the 8 octets before it: the
// wrapper's '<' (Appendix) stands at most maxScheme+2 octets before the
// ':' (wrapperBefore looks back over at most maxScheme+1 scheme octets),
// inside the 8-octet words down to b[i-40:i-32]. It reads them 8 at a time; near the start of the
// input, where they are not all there, it answers yes.
func lessBefore(b []byte, i int) bool {
	if i < 40 {
		return true
	}
	for k := i - 16; k >= i-40; k -= 8 {
		if hasZero(binary.LittleEndian.Uint64(b[k:k+8]) ^ (lo8 * '<')) {
			return true
		}
	}
	return false
}

// mayBeBare reports whether a bare URL or the prefix URL: may end its
// scheme at the ':' buf[i]: a ':' before "/" or at the end of the input,
// or a ':' after "url", "news" or "mailto" in any case (§3.5, §3.6,
// Appendix). atColon decides; this spares it the colons of prose.
func (s *Scanner) mayBeBare(i int) bool {
	b := s.buf[:s.end]
	return i+1 == len(b) || b[i+1] == '/' || equalFold(b[max(i-3, 0):i], "url") ||
		equalFold(b[max(i-4, 0):i], "news") || equalFold(b[max(i-6, 0):i], "mailto")
}

// namedScheme reports whether the 8 octets w before a ':', the last one
// highest, end with "url", "news" or "mailto" in any case. Upper case
// folds to lower by the bit 0x20, which makes no other octet a letter of
// these words.
func namedScheme(w uint64) bool {
	w |= lo8 * 0x20
	return w>>40 == urlWord || w>>32 == newsWord || w>>16 == mailtoWord
}

// Words as 8-octet loads hold them, first octet lowest; lo8*c repeats c.
const (
	lo8        = 0x0101010101010101
	hi8        = 0x8080808080808080
	lo7        = 0x7f7f7f7f7f7f7f7f
	urlWord    = 'u' | 'r'<<8 | 'l'<<16
	newsWord   = 'n' | 'e'<<8 | 'w'<<16 | 's'<<24
	mailtoWord = 'm' | 'a'<<8 | 'i'<<16 | 'l'<<24 | 't'<<32 | 'o'<<40
)

// hasZero reports whether an octet of w is zero.
func hasZero(w uint64) bool { return (w-lo8)&^w&hi8 != 0 }

// hasLess reports whether an octet of w is less than n (n ≤ 128).
func hasLess(w, n uint64) bool { return (w-lo8*n)&^w&hi8 != 0 }

// fill drops the input before buf[keep], then reads more. A read error
// ends the input; Err reports it.
func (s *Scanner) fill(keep int) {
	s.colons = colonQueue{}
	if keep > 0 {
		s.posAt(max(keep, s.lineAt)) // count the lines about to be dropped
		n := copy(s.buf, s.buf[keep:s.end])
		s.end = n
		s.pos -= keep
		s.floor = max(s.floor-keep, 0)
		s.lineAt -= keep
		s.base += int64(keep)
	}
	if s.buf == nil {
		if s.view() {
			return
		}
		if s.own == nil {
			s.own = make([]byte, s.size)
		}
		s.buf = s.own
	}
	for tries := 0; tries < 100; tries++ {
		n, err := s.r.Read(s.buf[s.end:])
		s.end += n
		if err != nil {
			if err != io.EOF {
				s.err = err
			}
			s.eof = true
			return
		}
		if n > 0 {
			return
		}
	}
	s.err = io.ErrNoProgress
	s.eof = true
}

// posAt returns the position of buf[idx]; idx never goes back between
// calls (each is at a scheme, a URL's end or a passed-over ':', all at or
// after the last).
func (s *Scanner) posAt(idx int) Pos {
	seg := s.buf[s.lineAt:idx]
	if n := bytes.Count(seg, nl); n > 0 {
		s.line += n
		s.lastNL = s.base + int64(s.lineAt+bytes.LastIndexByte(seg, '\n'))
	}
	s.lineAt = idx
	off := s.base + int64(idx)
	return Pos{Offset: off, Line: s.line, Column: int(off - s.lastNL)}
}

var nl = []byte{'\n'}

// offset returns the input offset of buf[idx].
func (s *Scanner) offset(idx int) int64 { return s.base + int64(idx) }

// bracket tries the wrappers <URL:…> and <…> at the '<' buf[i], before
// the run of scheme octets that ends at the ':' buf[colon] (wrapperBefore).
func (s *Scanner) bracket(i, colon int) bool {
	b := s.buf[:s.end]
	j := i + 1
	form := Bracket
	if colon == j+3 && equalFold(b[j:colon], "url") {
		form = URLBracket
		j += 4
	} else if class[b[j]]&cAlpha == 0 || colon-j > maxScheme {
		// <…>: a scheme (§5, at most maxScheme octets) and ':' right
		// after '<', then what a bare URL needs (mailto:x, news:x,
		// scheme://x), tested below once the whitespace is out.
		return false
	}
	// Appendix: whitespace that breaks a line inside the wrapper is
	// ignored; a typesetter's hyphen before the break (U+2010, U+00AD)
	// is dropped; an ASCII hyphen before it is kept, and the reading
	// without it noted.
	u := s.scratch[:0]
	s.notes = s.notes[:0]
	first, last := -1, 0 // last is set with first
	limit := min(len(b), j+s.maxLen)
	var hyphens []hyphenAt
	spaced := -1 // the octet after the first whitespace within a line inside the URL
	k := j
	for ; k < limit; k++ {
		c := b[k]
		if class[c]&cSpace == 0 {
			if c == '>' {
				break
			}
			if c == '<' {
				return false
			}
			if first == -1 {
				first = k
			}
			last = k
			u = append(u, c)
			continue
		}
		// A run of whitespace: a blank line ends the paragraph, and so
		// any hope of a '>'.
		breaks := 0
		for ; k < limit && class[b[k]]&cSpace != 0; k++ {
			if b[k] == '\n' {
				breaks++
			}
		}
		if breaks > 1 {
			return false
		}
		// Whitespace between the wrapper and the URL is nothing; within
		// the URL it is a space within a line or a line break.
		if len(u) > 0 && k < limit && b[k] != '>' {
			if breaks == 0 {
				if spaced == -1 {
					spaced = k // the word after the space
				}
			} else if n := typesetterHyphen(u); n > 0 {
				u = u[:len(u)-n]
			} else if u[len(u)-1] == '-' {
				hyphens = append(hyphens, hyphenAt{len(u) - 1, last})
			}
		}
		k-- // the loop steps on to the octet after the run
	}
	s.scratch = u
	if k >= limit {
		return false
	}
	if spaced != -1 {
		// Appendix: whitespace is there to break long URLs across lines;
		// "<mailto:joe at example.org>" is text, and its first word is
		// no URL either: the text is read on after the space, the word
		// there whole.
		s.pos, s.floor = spaced, spaced
		return false
	}
	// Inside <URL:…> any scheme §5 allows, and a schemepart that is
	// nothing or "//" alone when the URL is valid all the same
	// (genericurl's *xchar may be empty: "https://", "x:").
	end := schemeEnd(u, form == URLBracket)
	if end == -1 || !schemepartOK(u, end, form == Bracket) && (form == Bracket || !rfc1738.Valid(string(u))) {
		return false
	}
	s.m = Match{URL: string(u), Form: form}
	s.m.Start = s.posAt(first)
	s.m.End = s.posAt(last + 1)
	for _, h := range hyphens {
		alt := s.m.URL[:h.u] + s.m.URL[h.u+1:]
		s.notes = append(s.notes, Note{
			Offset:      s.offset(h.in),
			Message:     "a line break follows '-': the hyphen may be the typesetter's, not the URL's (RFC 1738 Appendix); without it the URL reads " + alt,
			Alternative: alt,
		})
	}
	s.finish()
	s.pos, s.floor = k+1, k+1
	return true
}

// hyphenAt is an ASCII hyphen before a line break in a wrapper: its
// index in the URL and in the buffer.
type hyphenAt struct{ u, in int }

// typesetterHyphen returns the length of the U+2010 HYPHEN or U+00AD SOFT
// HYPHEN that ends u, or 0. Neither can be in a URL (§2.2): before a line
// break, it is the typesetter's.
func typesetterHyphen(u []byte) int {
	n := len(u)
	if n >= 3 && u[n-3] == 0xe2 && u[n-2] == 0x80 && u[n-1] == 0x90 {
		return 3
	}
	if n >= 2 && u[n-2] == 0xc2 && u[n-1] == 0xad {
		return 2
	}
	return 0
}

// schemeEnd returns the index of the ':' that ends a scheme at the start
// of u, or -1. §5: scheme = 1*[ lowalpha | digit | "+" | "-" | "." ], any
// of which may come first; in prose (marked false) a scheme also starts
// with a letter, as every registered one does, so that "1:2" or "+x:y" in
// running text is not read as a URL. What the Appendix's "URL:" marks is a
// URL whatever its scheme.
func schemeEnd(u []byte, marked bool) int {
	if len(u) == 0 || class[u[0]]&cScheme == 0 || !marked && class[u[0]]&cAlpha == 0 {
		return -1
	}
	for k := 1; k < len(u) && k <= maxScheme; k++ {
		if u[k] == ':' {
			return k
		}
		if class[u[k]]&cScheme == 0 {
			return -1
		}
	}
	return -1
}

// schemepartOK reports whether what follows the scheme u[:colon] is enough
// for a URL: never nothing or "//" alone (so "http:" and "http://" are not
// URLs). When bare, the rules of prose apply: the ten schemes by their
// productions, mailto: and news: with no "//" (§3.5, §3.6) and the eight
// others with "://" (§3.1), any other scheme only in its scheme:// form.
func schemepartOK(u []byte, colon int, bare bool) bool {
	rest := u[colon+1:]
	slashes := len(rest) >= 2 && rest[0] == '/' && rest[1] == '/'
	if len(rest) == 0 || (slashes && len(rest) == 2) {
		return false
	}
	if !bare || slashes {
		return true
	}
	return isMailtoOrNews(u[:colon])
}

func isMailtoOrNews(name []byte) bool {
	switch len(name) {
	case 4:
		return equalFold(name, "news")
	case 6:
		return equalFold(name, "mailto")
	}
	return false
}

// equalFold compares b with the lower-case ASCII word, ignoring case.
func equalFold(b []byte, lower string) bool {
	if len(b) != len(lower) {
		return false
	}
	for i := range len(b) {
		if b[i]|0x20 != lower[i] {
			return false
		}
	}
	return true
}

// atColon tries a bare URL whose scheme ends at the ':' buf[i], or the
// prefix URL: there.
func (s *Scanner) atColon(i int) bool {
	b := s.buf[:s.end]
	a := i
	for a > s.floor && i-a <= maxScheme && class[b[a-1]]&cScheme != 0 {
		a--
	}
	if i-a > maxScheme {
		return false
	}
	// In prose a scheme starts after a run of punctuation ("see...http:"
	// reads "http:"), and with a letter (§5 allows '+', '-', '.' and
	// digits later in the name, as in "z39.50", §4).
	for k := i - 1; k > a; k-- {
		if class[b[k]]&cAlphadigit == 0 && class[b[k-1]]&cAlphadigit == 0 {
			a = k // b[k] is no letter: the loop below steps past it
			break
		}
	}
	for a < i && class[b[a]]&cAlpha == 0 {
		a++
	}
	if a == i {
		return false
	}
	// A scheme begins a word: in "%s://%s:%hu/%s" or "$proto://host" the
	// letters before "://" belong to a format directive or a variable.
	if a > s.floor && !wordStart(b[a-1]) {
		return false
	}
	// Brackets are counted back to lo: never into the last match, and
	// no further than lookback bytes, which every refill keeps (see
	// fill), so the reading does not depend on where the buffer was cut.
	lo := max(s.floor, i-lookback, 0)
	form := Bare
	if i-a == 3 && equalFold(b[a:i], "url") {
		// Appendix: the prefix "URL:" marks a URL; then scheme ':' and
		// at least one octet, any scheme §5 allows (one may begin with a
		// digit, '+', '-' or '.').
		form = URLPrefix
		a = i + 1
		i = a
		// §5: a scheme of at most maxScheme octets, then ':'.
		end := min(len(b), a+maxScheme+1)
		for i < end && class[b[i]]&cScheme != 0 {
			i++
		}
		if i == a || i == end || b[i] != ':' {
			return false
		}
	} else if i+1 < len(b) && b[i+1] != '/' && !isMailtoOrNews(b[a:i]) {
		return false // the common case in prose: "Note:", "e.g.:"
	}
	var emphasis byte // Markdown: *http://a.org/* and _http://a.org/_
	if a > s.floor && (b[a-1] == '*' || b[a-1] == '_') {
		emphasis = b[a-1]
	}

	// A bare URL runs over the octets a URL may hold unencoded (§2.2,
	// §5 xchar, '%' of an escape, one '#' of a fragment) and, unless
	// strict, over the unsafe national characters real text writes
	// unencoded (§2.2: the URL is then reported invalid). It goes on
	// across a line break after a typesetter's hyphen, and after an ASCII
	// hyphen in a path when that makes a no worse URL (Appendix).
	run := cBare
	if s.strict {
		run = cURL
	}
	limit := min(len(b), a+s.maxLen)
	// Whether a bracket is left open before the URL is asked at its first
	// closing bracket of each pair that closes none of its own (most URLs
	// hold none), once a pair.
	var inner [3]int
	var outerKnown, outerOpen [3]bool
	segs := s.segs[:0]
	from, j := a, a // the scheme's octets and its ':' are all in the run
	hash := false
	joinSeg := -1 // the segment after an ASCII hyphen at a line break
scan:
	for j < limit {
		c := b[j]
		if class[c]&run == 0 {
			if k := typesetterBreak(b, from, j, limit, run); k > 0 {
				segs = append(segs, seg{from, j})
				from, j = k, k
				continue
			}
			if k := hyphenBreak(b, i, j, limit); k > 0 && joinSeg == -1 {
				segs = append(segs, seg{from, j})
				joinSeg = len(segs)
				from, j = k, k
				continue
			}
			if k := intlHost(b, i, j, limit); k > j && len(segs) == 0 {
				j = k // an international name: the match says it is not RFC 1738
				continue
			}
			break
		}
		switch c {
		case '#':
			if hash {
				break scan
			}
			hash = true
		case '(', '[', '{':
			inner[pair(c)]++
		case ')', ']', '}':
			// A closing bracket whose opening one stands before the URL
			// ends it: "(see http://a.org/x)/y", "[t](http://a.org/)".
			p := pair(c)
			if inner[p] > 0 {
				inner[p]--
				break
			}
			if !outerKnown[p] {
				outerOpen[p], outerKnown[p] = openBefore(b[lo:a], c), true
			}
			if outerOpen[p] {
				break scan
			}
		case '&':
			if entityEnds(b[j:limit]) {
				break scan
			}
		}
		j++
	}
	segs = append(segs, seg{from, j})
	s.segs = segs // kept even when this is no URL, so the next call does not allocate
	runEnd := j
	cut := j == limit && j < len(b) && class[b[j]]&run != 0
	u := s.scratch[:0]
	for _, g := range segs {
		u = append(u, b[g.from:g.to]...)
	}
	s.scratch = u
	n := trimTrailing(u, i+1-a, len(u), emphasis)
	if !schemepartOK(u[:n], i-a, form == Bare) {
		return false
	}
	if s.strict && n == len(u) && j < len(b) && b[j] == '[' && noHost(u[i+1-a:n]) {
		return false // an IPv6 literal (not RFC 1738, §3.1): no torn "ssh://user@"
	}
	// schemepartOK has refused "//" alone: after "//" there is an octet.
	if p := u[i+1-a : n]; bytes.HasPrefix(p, slashes) && class[p[2]]&cNational != 0 && ipv6At(p) != 2 {
		return false // a template, not a URL: "file://{path}", "ssh://[user@]host"
	}
	// Map the trimmed length back to the input, dropping the segments
	// the trimming emptied.
	e, rest := a, n
	for k, g := range segs {
		if rest <= g.to-g.from {
			e = g.from + rest
			segs = segs[:k+1]
			break
		}
		rest -= g.to - g.from
	}
	s.segs = segs
	// The segment after the hyphen starts with a letter or digit, which
	// trimming keeps: a joined URL stays joined.
	joined := joinSeg != -1
	hyphen, hyphenU := 0, -1 // the ASCII hyphen's index in the input and in u
	if joined {
		hyphen = segs[joinSeg-1].to - 1
		for _, g := range segs[:joinSeg] {
			hyphenU += g.to - g.from
		}
	}
	reverted := false
	if joined && len(rfc1738.Check(string(u[:n])).Errors) > len(rfc1738.Check(string(u[:hyphenU+1])).Errors) {
		// The next line makes the URL worse: it is prose, not the rest.
		n, e, joined, reverted = hyphenU+1, hyphen+1, false, true
	}
	s.notes = s.notes[:0]
	s.m = Match{URL: string(u[:n]), Form: form}
	s.m.Start = s.posAt(a)
	s.m.End = s.posAt(e)
	if cut {
		s.notes = append(s.notes, Note{Offset: s.offset(j),
			Message: "the URL runs on past " + strconv.Itoa(s.maxLen) + " bytes; it was cut there"})
		s.skipping = true
	} else if joined {
		written, without := s.m.URL[:hyphenU+1], s.m.URL[:hyphenU]+s.m.URL[hyphenU+1:]
		s.notes = append(s.notes,
			Note{Offset: s.offset(hyphen),
				Message:     "the URL goes on after '-' at a line break (RFC 1738 Appendix); as written on its line it reads " + written,
				Alternative: written},
			Note{Offset: s.offset(hyphen),
				Message:     "the hyphen at the line break may be the typesetter's, not the URL's (RFC 1738 Appendix); without it the URL reads " + without,
				Alternative: without})
	} else if e == runEnd && e < len(b) && class[b[e]]&cNational != 0 && b[e] != '\\' && b[e] != '|' {
		s.nationalNote(u[:n], a, e)
	} else if reverted || e == runEnd && b[e-1] == '-' {
		s.hyphenNote(u[:n], a, e)
	}
	if h := ipv6At(u[i+1-a : n]); h != -1 {
		s.notes = append(s.notes, Note{Offset: s.offset(inputIndex(segs, i+1-a+h)),
			Message: "the host is an IPv6 literal, which RFC 1738 does not know (§3.1: a host is a name or four decimal numbers)"})
	}
	s.finish()
	s.pos, s.floor = e, e
	return true
}

// intlHost returns where the letters, digits and marks of a non-ASCII
// run at b[j] end (IDNA2008, RFC 5891 §5: the code points of a U-label,
// UTS #46 maps the rest), when b[j] is in the host of a "//" URL whose ':'
// is at b[i]; else j. Elsewhere an 8-bit octet still ends a URL.
func intlHost(b []byte, i, j, limit int) int {
	if b[j] < 0x80 || i+3 > j || b[i+1] != '/' || b[i+2] != '/' || bytes.IndexAny(b[i+3:j], "/?#@") >= 0 {
		return j
	}
	k := j
	for k < limit && b[k] >= 0x80 {
		r, n := utf8.DecodeRune(b[k:limit])
		if r == utf8.RuneError || !unicode.In(r, unicode.L, unicode.M, unicode.N) {
			break
		}
		k += n
	}
	return k
}

// ipv6At returns the index of the '[' that starts the host of the
// schemepart p ("//user@[2001:db8::1]:22/x"), or -1.
func ipv6At(p []byte) int {
	if !bytes.HasPrefix(p, slashes) {
		return -1
	}
	end := len(p)
	if k := bytes.IndexByte(p[2:], '/'); k >= 0 {
		end = 2 + k
	}
	h := 2
	if k := bytes.LastIndexByte(p[2:end], '@'); k >= 0 {
		h = 2 + k + 1
	}
	if h >= end || p[h] != '[' {
		return -1
	}
	// RFC 3986 §3.2.2: hex digits, ':' and '.' (an IPv4 tail), with a ':'.
	k := h + 1
	for k < end && (hexVal(p[k]) != noHex || p[k] == ':' || p[k] == '.') {
		k++
	}
	if k == end || p[k] != ']' || bytes.IndexByte(p[h:k], ':') == -1 {
		return -1
	}
	return h
}

var slashes = []byte("//")

// inputIndex returns the index in the input of byte k of the URL joined
// from segs.
func inputIndex(segs []seg, k int) int {
	last := len(segs) - 1
	for _, g := range segs[:last] {
		if k < g.to-g.from {
			return g.from + k
		}
		k -= g.to - g.from
	}
	return segs[last].from + k
}

// seg is a piece b[from:to] of a bare URL in the input: a URL broken
// across lines is joined from several.
type seg struct{ from, to int }

// wordStart reports whether a scheme may begin after c: not after the
// '%' of a format directive or an escape, the '$' of a variable, the '&'
// of an entity or a '\' escape. ('@' may come before: pip's
// "name@git+https://…".)
func wordStart(c byte) bool {
	switch c {
	case '%', '$', '&', '\\':
		return false
	}
	return true
}

// pair numbers the bracket pairs ( ), [ ] and { }.
func pair(c byte) int {
	switch c {
	case '(', ')':
		return 0
	case '[', ']':
		return 1
	}
	return 2
}

// unclosed counts the brackets of each pair that are opened in b and not
// closed there. It reads 8 octets at a time and steps only through the
// brackets among them: (c &^ 1) is '(' for '(' and ')' alone; (c | 0x20)
// &^ 6 is 'y' for '[', ']', '{', '}', 'y', 'Y', '_' and DEL, of which the
// brackets are those whose bits 1 and 2 differ.
func unclosed(b []byte) (open [3]int) {
	k := 0
	for ; k+8 <= len(b); k += 8 {
		w := binary.LittleEndian.Uint64(b[k : k+8])
		m := zeroOctets(w&^lo8^(lo8*'(')) | zeroOctets((w|lo8*0x20)&^(lo8*6)^(lo8*'y'))&(w<<6^w<<5)
		for ; m != 0; m &= m - 1 {
			open = bracketStep(open, b[k+bits.TrailingZeros64(m)/8])
		}
	}
	for _, c := range b[k:] {
		open = bracketStep(open, c)
	}
	return open
}

// openBefore reports whether a bracket of the pair that close closes is
// left open in b: unclosed(b)[pair(close)] > 0. It reads b backwards and
// stops at the first opening bracket no closing one after it closes, which
// in "[text](http://…)" is the octet before the URL.
func openBefore(b []byte, close byte) bool {
	open := byte('(')
	if close != ')' {
		open = close - 2 // '[' is ']' - 2, '{' is '}' - 2
	}
	closed := 0
	for k := len(b) - 1; k >= 0; k-- {
		switch b[k] {
		case open:
			if closed == 0 {
				return true
			}
			closed--
		case close:
			closed++
		}
	}
	return false
}

// zeroOctets marks with its high bit each octet of w that is zero.
func zeroOctets(w uint64) uint64 {
	return ^((w&^hi8 + lo7) | w) & hi8
}

// bracketStep counts c into the brackets open so far: an opening one is
// open, a closing one closes the last of its pair still open.
func bracketStep(open [3]int, c byte) [3]int {
	switch c {
	case '(', '[', '{':
		open[pair(c)]++
	case ')', ']', '}':
		if p := pair(c); open[p] > 0 {
			open[p]--
		}
	}
	return open
}

// typesetterBreak reports where a bare URL goes on when b[j] starts a
// hyphen a typesetter put at a line break — U+2010 HYPHEN (groff) or
// U+00AD SOFT HYPHEN — with the URL before it and its rest after the
// line break and indentation: neither character can be in a URL (§2.2),
// so the hyphen is the typesetter's, never the URL's. It returns 0 when
// there is no such break.
func typesetterBreak(b []byte, from, j, limit int, run uint8) int {
	n := 0
	if bytes.HasPrefix(b[j:limit], hyphen2010) {
		n = len(hyphen2010)
	} else if bytes.HasPrefix(b[j:limit], softHyphen) {
		n = len(softHyphen)
	}
	if n == 0 || j == from {
		return 0
	}
	k := lineBreak(b, j+n, limit)
	if k == -1 || class[b[k]]&run == 0 {
		return 0
	}
	return k
}

// U+2010 HYPHEN and U+00AD SOFT HYPHEN in UTF-8.
var hyphen2010, softHyphen = []byte("\u2010"), []byte("\u00ad")

// hyphenBreak reports where a bare URL goes on when b[j] is the
// whitespace of a line break right after an ASCII hyphen in the middle
// of a word of the URL's path (the scheme's ':' is b[i]): "http://a.org/
// long-⏎name.html". It returns 0 otherwise. Whether the joined reading is
// taken is decided once the rest is known (see atColon).
func hyphenBreak(b []byte, i, j, limit int) int {
	// b[j-2] is in the URL when it is a letter or digit: a piece of the
	// URL that starts with '-' starts after a line break's whitespace or
	// after the ':' of "URL:" (a bare scheme starts with a letter).
	if b[j-1] != '-' || class[b[j-2]]&cAlphadigit == 0 || class[b[j]]&cSpace == 0 {
		return 0
	}
	// In the path: after "//host/". b[j-1] is the '-', so b[i+1] and
	// b[i+2] are before it when they are "//".
	if b[i+1] != '/' || b[i+2] != '/' || bytes.IndexByte(b[i+3:j], '/') < 0 {
		return 0
	}
	k := lineBreak(b, j, limit)
	if k == -1 || class[b[k]]&cAlphadigit == 0 {
		return 0
	}
	return k
}

// lineBreak returns the index after a run of whitespace at b[j:] that
// holds exactly one line break, or -1 when the run holds none or a blank
// line, or reaches limit.
func lineBreak(b []byte, j, limit int) int {
	breaks := 0
	for ; j < limit && class[b[j]]&cSpace != 0; j++ {
		if b[j] == '\n' {
			breaks++
		}
	}
	if breaks != 1 || j == limit {
		return -1
	}
	return j
}

// entityEnds reports whether b starts with an HTML character reference
// for a character that ends a URL in text: a quotation mark, an angle
// bracket, a no-break space, a dash or an ellipsis ("&rdquo;", "&gt;",
// "&#8221;", "&#x22;"). "&amp;" and the like are left to the URL.
func entityEnds(b []byte) bool {
	name, ok := entityName(b)
	if !ok {
		return false
	}
	if name[0] == '#' {
		v := 0
		digits := name[1:]
		base := 10
		if len(digits) > 0 && digits[0]|0x20 == 'x' {
			base, digits = 16, digits[1:]
		}
		if len(digits) == 0 || len(digits) > 7 {
			return false
		}
		for _, c := range digits {
			d := int(hexVal(c))
			if d >= base {
				return false
			}
			v = v*base + d
		}
		// Every character past ASCII ends the URL (the table marks
		// none of 0x80 to 0xff, and holds no more).
		return v >= len(class) || v == '\'' || class[v]&cBare == 0
	}
	switch string(name) {
	case "quot", "apos", "lt", "gt", "nbsp", "ldquo", "rdquo", "lsquo", "rsquo", "laquo", "raquo",
		"lsaquo", "rsaquo", "sbquo", "bdquo", "hellip", "ndash", "mdash":
		return true
	}
	return false
}

// entityName returns the name of the HTML character reference "&name;"
// at the start of b ("#8221" for "&#8221;").
func entityName(b []byte) ([]byte, bool) {
	if len(b) < 3 || b[0] != '&' {
		return nil, false
	}
	for k := 1; k < len(b) && k <= 10; k++ {
		c := b[k]
		if c == ';' {
			return b[1:k], k > 1
		}
		if class[c]&cAlphadigit == 0 && (c != '#' || k != 1) {
			return nil, false
		}
	}
	return nil, false
}

// noHex is what hexVal returns for an octet that is no hex digit.
const noHex = 255

func hexVal(c byte) byte {
	if '0' <= c && c <= '9' {
		return c - '0'
	}
	if 'a' <= c|0x20 && c|0x20 <= 'f' {
		return c | 0x20 - 'a' + 10
	}
	return noHex
}

// noHost reports whether the schemepart p of a bare URL that stops at
// '[' is "//" or "//user@", with the host still to come.
func noHost(p []byte) bool {
	if len(p) < 2 || p[0] != '/' || p[1] != '/' {
		return false
	}
	return len(p) == 2 || p[len(p)-1] == '@' && bytes.IndexByte(p[2:], '/') < 0
}

// trimTrailing leaves out of the bare URL u[from:j] what ends a sentence
// or markup: the punctuation '.', ',', ';', ':', '!', '?', '\”, a ')',
// ']' or '}' that closes nothing in the URL, an HTML character reference
// ("&copy;"), and the emphasis character the URL was opened with
// (Markdown's * and _), when not zero. It returns the new end.
func trimTrailing(u []byte, from, j int, emphasis byte) int {
	// Count the brackets once, at the first closing one met (most URLs
	// end with none); trimming one changes its count by one.
	var open, closed [3]int
	counted := false
	for j > from {
		c := u[j-1]
		if c == ';' {
			if k := entityBefore(u[from:j]); k > 0 {
				j -= k
				continue
			}
		}
		if class[c]&cTrailing != 0 || (c == emphasis && c != 0) {
			j--
			continue
		}
		if c == ')' || c == ']' || c == '}' {
			if !counted {
				// Nothing trimmed so far is a bracket: the count of
				// u[from:j] is the URL's.
				open, closed = bracketCount(u[from:j])
				counted = true
			}
			if p := pair(c); closed[p] > open[p] {
				closed[p]--
				j--
				continue
			}
		}
		break
	}
	return j
}

// bracketCount counts the opening and the closing brackets of each pair
// in b.
func bracketCount(b []byte) (open, closed [3]int) {
	for _, c := range b {
		switch c {
		case '(', '[', '{':
			open[pair(c)]++
		case ')', ']', '}':
			closed[pair(c)]++
		}
	}
	return open, closed
}

// entityBefore returns the length of the HTML character reference that
// ends b, or 0.
func entityBefore(b []byte) int {
	for k := len(b) - 2; k >= 0 && len(b)-k <= 11; k-- {
		if b[k] == '&' {
			if _, ok := entityName(b[k:]); ok {
				return len(b) - k
			}
			return 0
		}
	}
	return 0
}

// nationalNote notes a bare URL u that stopped at an unsafe national
// character b[e] (§2.2), such as the '~' of http://host/~user under
// SetStrict or a '`' always: the text may mean the longer URL, written
// carelessly. A backslash and a '|' are left alone: in text they escape
// (JSON, C, TeX) or delimit (Markdown tables, shell pipes) far more often
// than they belong to a URL.
func (s *Scanner) nationalNote(u []byte, a, e int) {
	b := s.buf[:s.end]
	j := e
	for j < len(b) && j-a < s.maxLen && class[b[j]]&(cURL|cNational) != 0 {
		j++
	}
	j = trimTrailing(b, e, j, 0)
	// Only a longer URL is worth a note: "x/~user", not "x/`" alone.
	longer := false
	for _, c := range b[e:j] {
		longer = longer || class[c]&cURL != 0
	}
	if !longer {
		return
	}
	alt := string(u) + string(b[e:j])
	s.notes = append(s.notes, Note{Offset: s.offset(e),
		Message:     "the URL stops at " + strconv.QuoteRune(rune(b[e])) + ", which RFC 1738 §2.2 says must be encoded; the text may mean " + alt,
		Alternative: alt})
}

// hyphenNote notes a bare URL u, ending at b[e] with '-' at a line break,
// that was not joined with the next line: the Appendix warns it may go
// on there.
func (s *Scanner) hyphenNote(u []byte, a, e int) {
	b := s.buf[:s.end]
	j := lineBreak(b, e, min(len(b), a+s.maxLen))
	if j == -1 {
		return
	}
	k := j
	for k < len(b) && k-a < s.maxLen && class[b[k]]&cURL != 0 {
		k++
	}
	k = trimTrailing(b, j, k, 0)
	if k == j {
		return
	}
	alt := string(u) + string(b[j:k])
	s.notes = append(s.notes, Note{Offset: s.offset(e - 1),
		Message:     "the URL ends with '-' at a line break; RFC 1738 Appendix: it may go on on the next line, as " + alt,
		Alternative: alt})
}

// finish checks the match against the grammar and copies its notes: a
// recogniser first (Valid is exactly Parse without an error), the
// diagnostics only for an invalid URL.
func (s *Scanner) finish() {
	if rfc1738.Valid(s.m.URL) {
		s.m.Valid = true
	} else {
		s.m.Errors = rfc1738.Check(s.m.URL).Errors
		if u, deps, err := rfc1738.Read(s.m.URL); err == nil {
			s.m.Repaired = u.String()
			for _, d := range deps {
				if d.Rule == "hostname" {
					s.notes = append(s.notes, Note{Offset: s.m.Start.Offset + int64(d.Offset),
						Message: "the host is an international name, which RFC 1738 does not know (§3.1); " + d.Refusal + " (IDNA2008, UTS #46)"})
				}
			}
		}
	}
	s.m.Notes = append([]Note(nil), s.notes...) // nil when there is none
}

// view takes the unread bytes of a *bytes.Reader or *strings.Reader as
// the input itself, scanned where they lie, as ResetBytes does: a
// caller's in-memory input is not copied into a buffer. Their WriteTo
// hands what is left to one Write (a Write more is appended, so the view
// is whole whatever WriteTo does). Nothing writes to the view.
func (s *Scanner) view() bool {
	w := &s.viewW // in the Scanner, so that nothing is allocated
	switch r := s.r.(type) {
	case *bytes.Reader:
		r.WriteTo(w)
	case *strings.Reader:
		r.WriteTo(w)
	default:
		return false
	}
	s.buf, s.end, s.eof = w.b, len(w.b), true
	w.b = nil
	return true
}

// viewWriter keeps what is written to it: the first Write's bytes
// themselves, unlike an ordinary io.Writer, as view needs.
type viewWriter struct{ b []byte }

func (w *viewWriter) Write(p []byte) (int, error) {
	if w.b == nil {
		w.b = p
	} else {
		w.b = append(w.b[:len(w.b):len(w.b)], p...)
	}
	return len(p), nil
}

// WriteString takes the string's bytes without copying them; view only
// reads them.
func (w *viewWriter) WriteString(p string) (int, error) {
	return w.Write(unsafe.Slice(unsafe.StringData(p), len(p)))
}
