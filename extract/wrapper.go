package extract

import "github.com/rfc1738/rfc1738"

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
	first, last := -1, 0 // last is set with first
	limit := min(len(b), j+s.maxLen)
	hyphens := s.hyphens[:0]
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
	s.found(u, form, first, last+1)
	s.hyphens = hyphens
	s.pos, s.floor = k+1, k+1
	return true
}

// noteHyphens notes the ASCII hyphens at line breaks inside the wrapper
// just matched: the reading without each.
func (s *Scanner) noteHyphens() {
	for _, h := range s.hyphens {
		alt := s.m.URL[:h.u] + s.m.URL[h.u+1:]
		s.notes = append(s.notes, Note{
			Offset:      s.offset(h.in),
			Message:     "a line break follows '-': the hyphen may be the typesetter's, not the URL's (RFC 1738 Appendix); without it the URL reads " + alt,
			Alternative: alt,
		})
	}
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
