package extract

import (
	"bytes"
	"io"
	"strconv"

	"github.com/rfc1738/rfc1738"
)

// DefaultMaxLength is the longest URL the Scanner takes by default, in
// bytes of input (whitespace inside a wrapper included).
const DefaultMaxLength = 8 << 10

// maxScheme is the longest scheme name looked back for before a ':'.
const maxScheme = 32

// lookback is how many bytes before the scan position are kept when the
// buffer is refilled: enough to find a scheme name cut by the refill.
const lookback = maxScheme + 2

// Scanner finds the URLs of a stream, one per call to Scan, like
// bufio.Scanner. Its memory is bounded: it buffers a fixed window of the
// input (about four times the maximum URL length, at least 256 KiB), so
// it scans input of any size.
//
//	sc := extract.NewScanner(r)
//	for sc.Scan() {
//		m := sc.Match()
//		...
//	}
//	if err := sc.Err(); err != nil { ... }
type Scanner struct {
	r      io.Reader
	buf    []byte
	end    int   // buf[:end] holds input
	pos    int   // next byte to scan
	floor  int   // no scheme is looked for before this: the end of the last match
	base   int64 // input offset of buf[0]
	eof    bool
	err    error
	maxLen int
	window int // bytes wanted after an event before it is handled

	colon, lt int // where the next ':' and '<' are (see find)
	skipping  bool

	// Line tracking: line is the line number at buf[lineAt], and lastNL
	// the input offset of the last '\n' before it (-1 when none).
	lineAt int
	line   int
	lastNL int64

	scratch []byte
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
	s.buf = make([]byte, max(size, s.window+lookback+1))
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
	*s = Scanner{r: r, buf: s.buf, scratch: s.scratch[:0], notes: s.notes[:0],
		maxLen: s.maxLen, window: s.window, line: 1, lastNL: -1}
}

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
			for s.pos < s.end && class[s.buf[s.pos]]&cURL != 0 {
				s.pos++
			}
			if s.pos == s.end && !s.eof {
				s.fill(s.pos)
				continue
			}
			s.skipping = false
			s.floor = s.pos
		}
		c := s.find(':', &s.colon)
		l := s.find('<', &s.lt)
		i := c
		if l >= 0 && (c < 0 || l < c) {
			i = l
		}
		if i < 0 {
			if s.eof {
				s.pos = s.end
				return false
			}
			s.pos = s.end
			s.fill(max(s.floor, s.end-lookback))
			continue
		}
		if !s.eof && s.end-i < s.window {
			s.fill(min(i, max(s.floor, i-lookback)))
			continue
		}
		var ok bool
		if i == l {
			ok = s.bracket(i)
		} else {
			ok = s.atColon(i)
		}
		if ok {
			return true
		}
		s.pos = i + 1
	}
}

// find returns the index of the next c at or after pos in buf[:end], or
// -1. *cache remembers the answer: an index of c, or end when there was
// none before end, so each byte is searched once.
func (s *Scanner) find(c byte, cache *int) int {
	i := max(*cache, s.pos)
	if i < s.end {
		if s.buf[i] == c {
			*cache = i
			return i
		}
		if k := bytes.IndexByte(s.buf[i+1:s.end], c); k >= 0 {
			*cache = i + 1 + k
			return i + 1 + k
		}
	}
	*cache = s.end
	return -1
}

// fill drops the input before buf[keep], then reads more. A read error
// ends the input; Err reports it.
func (s *Scanner) fill(keep int) {
	if keep > 0 {
		s.posAt(max(keep, s.lineAt)) // count the lines about to be dropped
		n := copy(s.buf, s.buf[keep:s.end])
		s.end = n
		s.pos -= keep
		s.floor = max(s.floor-keep, 0)
		s.lineAt -= keep
		s.colon -= keep
		s.lt -= keep
		s.base += int64(keep)
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

// posAt returns the position of buf[idx]; idx never goes back between calls.
func (s *Scanner) posAt(idx int) Pos {
	if idx > s.lineAt {
		seg := s.buf[s.lineAt:idx]
		if n := bytes.Count(seg, nl); n > 0 {
			s.line += n
			s.lastNL = s.base + int64(s.lineAt+bytes.LastIndexByte(seg, '\n'))
		}
		s.lineAt = idx
	}
	off := s.base + int64(idx)
	return Pos{Offset: off, Line: s.line, Column: int(off - s.lastNL)}
}

var nl = []byte{'\n'}

// offset returns the input offset of buf[idx].
func (s *Scanner) offset(idx int) int64 { return s.base + int64(idx) }

// bracket tries the wrappers <URL:…> and <…> at the '<' buf[i].
func (s *Scanner) bracket(i int) bool {
	b := s.buf[:s.end]
	j := i + 1
	form := Bracket
	if j+4 <= len(b) && b[j+3] == ':' && b[j]|0x20 == 'u' && b[j+1]|0x20 == 'r' && b[j+2]|0x20 == 'l' {
		form = URLBracket
		j += 4
	} else {
		// <…>: a scheme and ':' right after '<', then what a bare URL
		// needs (mailto:x, news:x, scheme://x), tested below once the
		// whitespace is out.
		if j >= len(b) || class[b[j]]&cAlpha == 0 {
			return false
		}
		k := j
		for k < len(b) && k-j <= maxScheme && class[b[k]]&cScheme != 0 {
			k++
		}
		if k == len(b) || b[k] != ':' || k-j > maxScheme {
			return false
		}
	}
	// Appendix: whitespace inside the wrapper is ignored; a hyphen
	// followed by a line break is kept, and the reading without it noted.
	u := s.scratch[:0]
	s.notes = s.notes[:0]
	first, last := -1, -1
	limit := min(len(b), j+s.maxLen)
	var hyphens []int // indexes in u of hyphens before a line break
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
			if first < 0 {
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
		k--
		if breaks > 1 {
			return false
		}
		if breaks == 1 && len(u) > 0 && u[len(u)-1] == '-' {
			hyphens = append(hyphens, len(u)-1)
		}
	}
	s.scratch = u
	if k >= limit || first < 0 {
		return false
	}
	colon := schemeEnd(u)
	if colon < 0 || !schemepartOK(u, colon, form == Bracket) {
		return false
	}
	s.m = Match{URL: string(u), Form: form}
	s.m.Start = s.posAt(first)
	s.m.End = s.posAt(last + 1)
	for _, h := range hyphens {
		alt := s.m.URL[:h] + s.m.URL[h+1:]
		s.notes = append(s.notes, Note{
			Offset:      s.hyphenOffset(j, h),
			Message:     "a line break follows '-': the hyphen may be the typesetter's, not the URL's (RFC 1738 Appendix); without it the URL reads " + alt,
			Alternative: alt,
		})
	}
	s.finish()
	s.pos, s.floor = k+1, k+1
	return true
}

// hyphenOffset returns the input offset of the h-th non-space byte from j.
func (s *Scanner) hyphenOffset(j, h int) int64 {
	for k := j; k < s.end; k++ {
		if class[s.buf[k]]&cSpace != 0 {
			continue
		}
		if h == 0 {
			return s.offset(k)
		}
		h--
	}
	return s.offset(j)
}

// schemeEnd returns the index of the ':' that ends a scheme (a letter,
// then §5 scheme characters) at the start of u, or -1.
func schemeEnd(u []byte) int {
	if len(u) == 0 || class[u[0]]&cAlpha == 0 {
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
			a = k + 1
			break
		}
	}
	for a < i && class[b[a]]&cAlpha == 0 {
		a++
	}
	if a == i {
		return false
	}
	form := Bare
	if i-a == 3 && equalFold(b[a:i], "url") {
		// Appendix: the prefix "URL:" marks a URL; then scheme ':' and
		// at least one octet, any scheme.
		form = URLPrefix
		a = i + 1
		i = a
		for i < len(b) && i-a <= maxScheme && class[b[i]]&cScheme != 0 {
			i++
		}
		if i == a || i == len(b) || b[i] != ':' || i-a > maxScheme || class[b[a]]&cAlpha == 0 {
			return false
		}
	} else if i+1 < len(b) && b[i+1] != '/' && !isMailtoOrNews(b[a:i]) {
		return false // the common case in prose: "Note:", "e.g.:"
	}
	// A bare URL runs over the octets a URL may hold unencoded (§2.2,
	// §5 xchar, '%' of an escape, one '#' of a fragment).
	limit := min(len(b), a+s.maxLen)
	j := i + 1
	hash := false
	for j < limit {
		c := b[j]
		if class[c]&cURL == 0 || (c == '#' && hash) {
			break
		}
		hash = hash || c == '#'
		j++
	}
	runEnd := j
	cut := j == limit && j < len(b) && class[b[j]]&cURL != 0
	e := trimTrailing(b, i+1, j)
	if !schemepartOK(b[a:e], i-a, form == Bare) {
		return false
	}
	s.notes = s.notes[:0]
	s.m = Match{URL: string(b[a:e]), Form: form}
	s.m.Start = s.posAt(a)
	s.m.End = s.posAt(e)
	switch {
	case cut:
		s.notes = append(s.notes, Note{Offset: s.offset(j),
			Message: "the URL runs on past " + strconv.Itoa(s.maxLen) + " bytes; it was cut there"})
		s.skipping = true
	case e == runEnd && e < len(b) && class[b[e]]&cNational != 0 && b[e] != '\\':
		s.nationalNote(a, e)
	case e == runEnd && b[e-1] == '-':
		s.hyphenNote(a, e)
	}
	s.finish()
	s.pos, s.floor = e, e
	return true
}

// trimTrailing leaves sentence punctuation out of the bare URL b[from:j]:
// '.', ',', ';', ':', '!', '?', '\” and a ')' that closes no '('. It
// returns the new end.
func trimTrailing(b []byte, from, j int) int {
	// Count the parentheses once; trimming a ')' changes the count by one.
	open, closed := 0, 0
	for _, c := range b[from:j] {
		switch c {
		case '(':
			open++
		case ')':
			closed++
		}
	}
	for j > from {
		c := b[j-1]
		if class[c]&cTrailing != 0 {
			j--
			continue
		}
		if c == ')' && closed > open {
			closed--
			j--
			continue
		}
		break
	}
	return j
}

// nationalNote notes a bare URL that stopped at an unsafe national
// character (§2.2), such as the '~' of http://host/~user: the text may
// mean the longer URL, written carelessly. A backslash is left alone: in
// text it escapes (JSON, C, TeX) far more often than it belongs to a URL.
func (s *Scanner) nationalNote(a, e int) {
	b := s.buf[:s.end]
	j := e
	for j < len(b) && j-a < s.maxLen && class[b[j]]&(cURL|cNational) != 0 {
		j++
	}
	j = trimTrailing(b, e, j)
	// Only a longer URL is worth a note: "x/~user", not "x/`" alone.
	longer := false
	for _, c := range b[e:j] {
		longer = longer || class[c]&cURL != 0
	}
	if !longer {
		return
	}
	alt := string(b[a:j])
	s.notes = append(s.notes, Note{Offset: s.offset(e),
		Message:     "the URL stops at " + strconv.QuoteRune(rune(b[e])) + ", which RFC 1738 §2.2 says must be encoded; the text may mean " + alt,
		Alternative: alt})
}

// hyphenNote notes a bare URL that ends with '-' at a line break: the
// Appendix warns it may go on on the next line.
func (s *Scanner) hyphenNote(a, e int) {
	b := s.buf[:s.end]
	j := e
	breaks := 0
	for j < len(b) && j-a < s.maxLen && class[b[j]]&cSpace != 0 {
		if b[j] == '\n' {
			breaks++
		}
		j++
	}
	if breaks != 1 {
		return
	}
	k := j
	for k < len(b) && k-a < s.maxLen && class[b[k]]&cURL != 0 {
		k++
	}
	k = trimTrailing(b, j, k)
	if k == j {
		return
	}
	alt := string(b[a:e]) + string(b[j:k])
	s.notes = append(s.notes, Note{Offset: s.offset(e - 1),
		Message:     "the URL ends with '-' at a line break; RFC 1738 Appendix: it may go on on the next line, as " + alt,
		Alternative: alt})
}

// finish checks the match against the grammar and copies its notes.
func (s *Scanner) finish() {
	if _, err := rfc1738.Parse(s.m.URL); err == nil {
		s.m.Valid = true
	} else {
		s.m.Errors = rfc1738.Check(s.m.URL).Errors
	}
	if len(s.notes) > 0 {
		s.m.Notes = append([]Note(nil), s.notes...)
	}
}
