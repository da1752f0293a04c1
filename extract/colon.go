package extract

import (
	"bytes"
	"unicode"
	"unicode/utf8"

	"github.com/rfc1738/rfc1738"
)

// atColon tries a bare URL whose scheme ends at the ':' buf[i], or the
// prefix URL: there.
func (s *Scanner) atColon(i int) bool {
	a := s.schemeStart(i)
	if a == -1 {
		return false
	}
	// Brackets are counted back to lo: never into the last match, and
	// no further than lookback bytes, which every refill keeps (see
	// fill), so the reading does not depend on where the buffer was cut.
	lo := max(s.floor, i-lookback, 0)
	form, a, i, ok := s.formAt(a, i)
	if !ok {
		return false
	}
	b := s.buf[:s.end]
	var emphasis byte // Markdown: *http://a.org/* and _http://a.org/_
	if a > s.floor && (b[a-1] == '*' || b[a-1] == '_') {
		emphasis = b[a-1]
	}
	r := bareRun{a: a, colon: i}
	s.runOver(&r, lo)
	u := s.runText()
	n := trimTrailing(u, i+1-a, len(u), emphasis)
	if s.refused(u, n, &r, form) {
		return false
	}
	s.endAt(&r, u, n)
	s.found(u[:r.n], form, a, r.e)
	s.run = r
	// A URL cut at the maximum length: the scan skips the rest of its
	// run (noteBare notes the cut).
	s.skipping = r.cut
	s.pos, s.floor = r.e, r.e
	return true
}

// schemeStart returns the index of the first octet of a scheme that ends
// at the ':' buf[i], or -1 when none may end there.
func (s *Scanner) schemeStart(i int) int {
	b := s.buf[:s.end]
	a := i
	for a > s.floor && i-a <= maxScheme && class[b[a-1]]&cScheme != 0 {
		a--
	}
	if i-a > maxScheme {
		return -1
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
		return -1
	}
	// A scheme begins a word: in "%s://%s:%hu/%s" or "$proto://host" the
	// letters before "://" belong to a format directive or a variable.
	if a > s.floor && !wordStart(b[a-1]) {
		return -1
	}
	return a
}

// formAt returns the form of a URL whose scheme buf[a:i] ends at the
// ':' buf[i], and where its scheme and ':' are: after the prefix URL:,
// or those given for a bare URL. It reports false for a colon of prose.
func (s *Scanner) formAt(a, i int) (Form, int, int, bool) {
	b := s.buf[:s.end]
	if i-a == 3 && equalFold(b[a:i], "url") {
		// Appendix: the prefix "URL:" marks a URL; then scheme ':' and
		// at least one octet, any scheme §5 allows (one may begin with a
		// digit, '+', '-' or '.').
		a = i + 1
		i = a
		// §5: a scheme of at most maxScheme octets, then ':'.
		end := min(len(b), a+maxScheme+1)
		for i < end && class[b[i]]&cScheme != 0 {
			i++
		}
		if i == a || i == end || b[i] != ':' {
			return URLPrefix, a, i, false
		}
		return URLPrefix, a, i, true
	}
	if i+1 < len(b) && b[i+1] != '/' && !isMailtoOrNews(b[a:i]) {
		return Bare, a, i, false // the common case in prose: "Note:", "e.g.:"
	}
	return Bare, a, i, true
}

// bareRun is a bare URL (or one after the prefix URL:) as it is read
// from the input.
type bareRun struct {
	a, colon int  // the scheme's first octet and its ':' in the input
	j        int  // where the run over the URL's octets stopped
	joinSeg  int  // the segment after an ASCII hyphen at a line break, or -1
	cut      bool // the run stopped at the maximum length, not at its end

	n, e            int  // the URL's length after trimming, and its end in the input
	joined          bool // the URL goes on after the ASCII hyphen
	reverted        bool // it would, but the next line makes it worse
	hyphen, hyphenU int  // that hyphen's index in the input and in the URL
}

// runOver runs over the octets of the bare URL that starts at buf[r.a]
// into the segments s.segs, and sets r.j, r.joinSeg and r.cut.
func (s *Scanner) runOver(r *bareRun, lo int) {
	b := s.buf[:s.end]
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
	limit := min(len(b), r.a+s.maxLen)
	st := runState{lo: lo, a: r.a}
	segs := s.segs[:0]
	from, j := r.a, r.a // the scheme's octets and its ':' are all in the run
	r.joinSeg = -1
	for j < limit {
		j = plainRun(b, j, limit, run)
		if j == limit {
			break
		}
		if class[b[j]]&run != 0 {
			if st.ends(b, j, limit) {
				break
			}
			j++
			continue
		}
		if k := typesetterBreak(b, from, j, limit, run); k > 0 {
			segs = append(segs, seg{from, j})
			from, j = k, k
			continue
		}
		if k := hyphenBreak(b, r.colon, j, limit); k > 0 && r.joinSeg == -1 {
			segs = append(segs, seg{from, j})
			r.joinSeg = len(segs)
			from, j = k, k
			continue
		}
		if k := intlHost(b, r.colon, j, limit); k > j && len(segs) == 0 {
			j = k // an international name: the match says it is not RFC 1738
			continue
		}
		break
	}
	s.segs = append(segs, seg{from, j}) // kept even when this is no URL, so the next call does not allocate
	r.j = j
	r.cut = j == limit && j < len(b) && class[b[j]]&run != 0
}

// plainRun returns the index of the first octet at or after b[j] that is
// no plain octet of the run (runPlain), or limit.
func plainRun(b []byte, j, limit int, run uint8) int {
	for j < limit && runPlain[b[j]]&run != 0 {
		j++
	}
	return j
}

// runState is what the run over a bare URL has passed: a '#', and the
// brackets opened in the URL; and whether a bracket is left open before
// it, in buf[lo:a].
type runState struct {
	lo, a int
	hash  bool
	inner [3]int
	// Whether a bracket is left open before the URL is asked at its first
	// closing bracket of each pair that closes none of its own (most URLs
	// hold none), once a pair.
	outerKnown, outerOpen [3]bool
}

// ends reports whether the octet b[j], one a URL may hold, ends it all
// the same: a second '#', a closing bracket of one opened before the URL
// or an HTML character reference that ends a URL in text.
func (st *runState) ends(b []byte, j, limit int) bool {
	switch c := b[j]; c {
	case '#':
		if st.hash {
			return true
		}
		st.hash = true
	case '(', '[', '{':
		st.inner[pair(c)]++
	case ')', ']', '}':
		// A closing bracket whose opening one stands before the URL
		// ends it: "(see http://a.org/x)/y", "[t](http://a.org/)".
		p := pair(c)
		if st.inner[p] > 0 {
			st.inner[p]--
			return false
		}
		if !st.outerKnown[p] {
			st.outerOpen[p], st.outerKnown[p] = openBefore(b[st.lo:st.a], c), true
		}
		return st.outerOpen[p]
	case '&':
		return entityEnds(b[j:limit])
	}
	return false
}

// runText returns the octets of the run's segments, joined.
func (s *Scanner) runText() []byte {
	u := s.scratch[:0]
	for _, g := range s.segs {
		u = append(u, s.buf[g.from:g.to]...)
	}
	s.scratch = u
	return u
}

// refused reports whether the run u, trimmed to u[:n], is no URL: too
// little after its scheme, or a template.
func (s *Scanner) refused(u []byte, n int, r *bareRun, form Form) bool {
	b := s.buf[:s.end]
	colon := r.colon - r.a
	if !schemepartOK(u[:n], colon, form == Bare) {
		return true
	}
	if s.strict && n == len(u) && r.j < len(b) && b[r.j] == '[' && noHost(u[colon+1:n]) {
		return true // an IPv6 literal (not RFC 1738, §3.1): no torn "ssh://user@"
	}
	// schemepartOK has refused "//" alone: after "//" there is an octet.
	p := u[colon+1 : n]
	return bytes.HasPrefix(p, slashes) && class[p[2]]&cNational != 0 && ipv6At(p) != 2 // a template, not a URL: "file://{path}", "ssh://[user@]host"
}

// endAt sets where the URL u[:n] ends in the input, dropping the
// segments the trimming emptied, and reads an ASCII hyphen at a line
// break: the URL goes on after it unless the next line makes it worse.
func (s *Scanner) endAt(r *bareRun, u []byte, n int) {
	e, segs := trimSegs(s.segs, r.a, n)
	s.segs = segs
	// The segment after the hyphen starts with a letter or digit, which
	// trimming keeps: a joined URL stays joined.
	r.joined = r.joinSeg != -1
	r.hyphenU = -1
	if r.joined {
		r.hyphen = segs[r.joinSeg-1].to - 1
		for _, g := range segs[:r.joinSeg] {
			r.hyphenU += g.to - g.from
		}
	}
	if r.joined && len(rfc1738.Check(string(u[:n])).Errors) > len(rfc1738.Check(string(u[:r.hyphenU+1])).Errors) {
		// The next line makes the URL worse: it is prose, not the rest.
		n, e, r.joined, r.reverted = r.hyphenU+1, r.hyphen+1, false, true
	}
	r.n, r.e = n, e
}

// trimSegs maps the length n of a URL joined from segs, whose first
// starts at a, back to the input: it returns the index after the URL's
// last octet, and segs without the segments past it.
func trimSegs(segs []seg, a, n int) (int, []seg) {
	e, rest := a, n
	for k, g := range segs {
		if rest <= g.to-g.from {
			e = g.from + rest
			segs = segs[:k+1]
			break
		}
		rest -= g.to - g.from
	}
	return e, segs
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
