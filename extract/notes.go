package extract

import "strconv"

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

// noteBare notes what is uncertain about the bare URL u just matched
// (r): that it was cut at the maximum length, the readings at an ASCII
// hyphen at a line break, the longer URL past an unsafe octet, an IPv6
// literal for a host.
func (s *Scanner) noteBare(u []byte, r *bareRun) {
	b := s.buf[:s.end]
	a, e := r.a, r.e
	if r.cut {
		s.notes = append(s.notes, Note{Offset: s.offset(r.j),
			Message: "the URL runs on past " + strconv.Itoa(s.maxLen) + " bytes; it was cut there"})
	} else if r.joined {
		written, without := s.m.URL[:r.hyphenU+1], s.m.URL[:r.hyphenU]+s.m.URL[r.hyphenU+1:]
		s.notes = append(s.notes,
			Note{Offset: s.offset(r.hyphen),
				Message:     "the URL goes on after '-' at a line break (RFC 1738 Appendix); as written on its line it reads " + written,
				Alternative: written},
			Note{Offset: s.offset(r.hyphen),
				Message:     "the hyphen at the line break may be the typesetter's, not the URL's (RFC 1738 Appendix); without it the URL reads " + without,
				Alternative: without})
	} else if e == r.j && e < len(b) && class[b[e]]&cNational != 0 && b[e] != '\\' && b[e] != '|' {
		s.nationalNote(u, a, e)
	} else if r.reverted || e == r.j && b[e-1] == '-' {
		s.hyphenNote(u, a, e)
	}
	p := r.colon + 1 - a // the schemepart's index in u
	if h := ipv6At(u[p:]); h != -1 {
		s.notes = append(s.notes, Note{Offset: s.offset(inputIndex(s.segs, p+h)),
			Message: "the host is an IPv6 literal, which RFC 1738 does not know (§3.1: a host is a name or four decimal numbers)"})
	}
}
