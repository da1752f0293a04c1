package extract

import (
	"bytes"
	"strconv"
	"unicode"
	"unicode/utf8"

	"github.com/rfc1738/rfc1738"
)

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

// noHost reports whether the schemepart p of a bare URL that stops at
// '[' is "//" or "//user@", with the host still to come.
func noHost(p []byte) bool {
	if len(p) < 2 || p[0] != '/' || p[1] != '/' {
		return false
	}
	return len(p) == 2 || p[len(p)-1] == '@' && bytes.IndexByte(p[2:], '/') < 0
}
