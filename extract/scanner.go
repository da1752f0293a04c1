package extract

import (
	"bytes"
	"encoding/binary"
	"io"
	"strings"
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
//
// Match makes the whole match (position, validity, diagnostics, notes)
// when it is asked for; Bytes gives the URL alone, with nothing made or
// allocated, for a caller that wants only the URLs.
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
	started bool

	// The last match. Scan finds its URL and where it stands; Match makes
	// the rest (its string, positions, validity and notes) the first time
	// it is asked, so that a caller who wants only the URL's octets
	// (Bytes) pays for none of it.
	m       Match
	pending bool       // m is still to be made whole
	url     []byte     // the URL, copied into scratch by both readings
	at, to  int        // where it starts and ends in buf
	run     bareRun    // a bare URL's run, for its notes (Form Bare or URLPrefix)
	hyphens []hyphenAt // a wrapper's ASCII hyphens at line breaks
	lines   bool       // Match was called: count lines close behind the scan
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
		hyphens: s.hyphens[:0], maxLen: s.maxLen, window: s.window, strict: s.strict, line: 1, lastNL: -1}
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

// Match returns the match found by the last call to Scan; the zero
// Match when it found none. It is made whole the first time it is asked
// for: its position, its validity and diagnostics, its notes.
func (s *Scanner) Match() Match {
	if s.pending {
		s.make()
	}
	return s.m
}

// Bytes returns the URL of the match found by the last call to Scan, as
// Match().URL holds it, without making the rest of the match or a
// string: nothing is allocated. The octets are the Scanner's and valid
// until the next call to Scan, like bufio.Scanner.Bytes.
func (s *Scanner) Bytes() []byte { return s.url }

// found records a match whose URL is url, from buf[at] to buf[to] (just
// after its last octet), in the form form; Match makes the rest.
func (s *Scanner) found(url []byte, form Form, at, to int) {
	s.m = Match{Form: form}
	s.pending = true
	s.url, s.at, s.to = url, at, to
}

// make makes the match whole: its URL as a string, its positions, its
// notes and its validity (finish).
func (s *Scanner) make() {
	s.pending = false
	s.lines = true
	s.m.URL = string(s.url)
	s.m.Start = s.posAt(s.at)
	s.m.End = s.posAt(s.to)
	s.notes = s.notes[:0]
	if s.m.Form == Bare || s.m.Form == URLPrefix {
		s.noteBare(s.url, &s.run)
	} else {
		s.noteHyphens()
	}
	s.finish()
}

// Err returns the first error from the reader, other than io.EOF. The
// matches before it were reported.
func (s *Scanner) Err() error { return s.err }

// Scan advances to the next URL, which Match then returns. It returns
// false at the end of the input or after a read error (see Err).
func (s *Scanner) Scan() bool {
	s.started = true
	s.m, s.pending, s.url = Match{}, false, nil
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
			// The lines up to lookback before i, when positions are
			// wanted: no match found from here on starts before that
			// (its scheme, or its '<', stands at most maxScheme+2 octets
			// before its ':').
			if s.lines {
				s.posAt(max(s.lineAt, i-lookback))
			}
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
		if s.lines && i-s.lineAt >= 16<<10 {
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
