package linkcheck

import "bytes"

// tagAt reads the tag whose name starts at buf[name] (after "<" or "</")
// to its '>', as the tokenizer does (§13.2.5.8 "tag name state" to
// §13.2.5.40): the attributes of a start tag (save) go to attrs, in
// order, empty names and repeated ones included. ok is false when the
// tag goes on past buf.
func (s *htmlScanner) tagAt(name int, save bool) (end int, ok bool) {
	b := s.buf
	n := len(b)
	k := name + 1
	for k < n && !tagNameEnd[b[k]] {
		k++
	}
	if k == n {
		return 0, false
	}
	s.nameEnd = k
	attrs := s.attrs[:0]
	for {
		for k < n && tagSpace[b[k]] {
			k++
		}
		if k == n {
			return 0, false
		}
		if b[k] == '>' {
			if save {
				s.attrs = attrs
			}
			return k + 1, true
		}
		// §13.2.5.32 "before attribute name": '=' first is part of the
		// name; '/' ends an empty one.
		ks := k
		if b[k] != '/' {
			for k++; k < n && !keyEnd[b[k]]; k++ {
			}
		}
		if k == n {
			return 0, false
		}
		ke := k
		a := attrSpan{ks, ke, ke, ke, -1}
		for k < n && tagSpace[b[k]] {
			k++
		}
		if k == n {
			return 0, false
		}
		switch b[k] {
		case '/':
			k++
		case '=':
			for k++; k < n && tagSpace[b[k]]; k++ {
			}
			if k == n {
				return 0, false
			}
			a.rs = k
			switch q := b[k]; q {
			case '>':
			case '"', '\'': // §13.2.5.38–.39
				j := bytes.IndexByte(b[k+1:], q)
				if j < 0 {
					return 0, false
				}
				a.vs, a.ve, a.rs = k+1, k+1+j, k+1
				k += j + 2
			default: // §13.2.5.40 "attribute value (unquoted)"
				a.vs = k
				for k++; k < n && !unquotedEnd[b[k]]; k++ {
				}
				if k == n {
					return 0, false
				}
				a.ve = k
				if b[k] != '>' {
					k++
				}
			}
		}
		if save {
			attrs = append(attrs, a)
		}
	}
}

// rawTagOf returns the element named name if the tokenizer reads its
// text as raw text or RCDATA, up to its end tag (§13.1.2.1), else "".
func rawTagOf(name []byte) string {
	var t string
	switch name[0] | 0x20 {
	case 'i':
		t = "iframe"
	case 'n':
		switch len(name) {
		case 7:
			t = "noembed"
		case 8:
			t = "noframes"
			if name[2]|0x20 == 's' {
				t = "noscript"
			}
		}
	case 'p':
		t = "plaintext"
	case 's':
		t = "style"
		if len(name) == 6 {
			t = "script"
		}
	case 't':
		t = "title"
		if len(name) == 8 {
			t = "textarea"
		}
	case 'x':
		t = "xmp"
	}
	if !foldEq(name, t) {
		return ""
	}
	return t
}

// foldEq reports whether b is lower, its ASCII capitals read as small
// letters (the tokenizer lowers tag and attribute names so).
func foldEq(b []byte, lower string) bool {
	if len(b) != len(lower) {
		return false
	}
	for i, c := range b {
		if 'A' <= c && c <= 'Z' {
			c += 'a' - 'A'
		}
		if c != lower[i] {
			return false
		}
	}
	return true
}

// rawText reads the text of the raw text element rawTag, which starts at
// tok, up to its end tag (not included) or the end of the document.
func (s *htmlScanner) rawText(tok int) (end, far int, ok bool) {
	b := s.buf
	switch s.rawTag {
	case "plaintext": // to the end (§13.2.5.5)
		return len(b), len(b), s.eof
	case "script":
		return s.script(tok)
	}
	for i := tok; ; {
		k := bytes.IndexByte(b[i:], '<')
		if k < 0 {
			return len(b), len(b), s.eof
		}
		i += k + 1
		if i == len(b) {
			return len(b), len(b), s.eof
		}
		if b[i] != '/' {
			continue
		}
		at, next, done := s.rawEndTag(i + 1)
		if at == -2 {
			return len(b), len(b), s.eof
		}
		if done {
			return at, next, true
		}
		i = next
	}
}

// rawEndTag reads at i, after "</", the name of rawTag and a space, '/'
// or '>' (§13.2.5.11 "RCDATA end tag name state"): done when it is there,
// at its "<" and far past it; else the index to read on from (-2 for the
// end of buf).
func (s *htmlScanner) rawEndTag(i int) (at, next int, done bool) {
	b, t := s.buf, s.rawTag
	for j := 0; j < len(t); j++ {
		if i+j == len(b) {
			return -2, 0, false
		}
		if c := b[i+j]; c != t[j] && c != t[j]-('a'-'A') {
			return -1, i + j, false
		}
	}
	k := i + len(t)
	if k == len(b) {
		return -2, 0, false
	}
	switch b[k] {
	case ' ', '\n', '\r', '\t', '\f', '/', '>':
		return i - 2, k + 1, true
	}
	return -1, k, false
}

// script states (§13.2.5.4, .15–.31).
const (
	scData = iota
	scEscaped
	scEscapedDash
	scEscapedDashDash
	scDouble
	scDoubleDash
	scDoubleDashDash
)

// script reads the text of a <script> to its end tag, through the
// "escaped" and "double escaped" states of "<!--" and "<script" in it,
// as the tokenizer does.
func (s *htmlScanner) script(tok int) (end, far int, ok bool) {
	b := s.buf
	n := len(b)
	more := func() (int, int, bool) { return n, n, s.eof }
	state := scData
	for i := tok; ; {
		if state == scData {
			k := bytes.IndexByte(b[i:], '<')
			if k < 0 {
				return more()
			}
			i += k
		}
		if i == n {
			return more()
		}
		c := b[i]
		i++
		switch {
		case c == '-' && state >= scDouble:
			state = min(state+1, scDoubleDashDash)
		case c == '-' && state >= scEscaped:
			state = min(state+1, scEscapedDashDash)
		case c == '>' && (state == scEscapedDashDash || state == scDoubleDashDash):
			state = scData
		case c == '<' && state >= scDouble:
			state = scDouble
			if i == n {
				return more()
			}
			if b[i] == '/' {
				at, next, done := s.rawEndTag(i + 1)
				if at == -2 {
					return more()
				}
				if done {
					state, i = scEscaped, next
				} else {
					i = next
				}
			}
		case c == '<':
			var at int
			var done bool
			at, i, state, done = s.scriptLessThan(i, state)
			if at == -2 {
				return more()
			}
			if done {
				return at, i, true
			}
		case state >= scDouble:
			state = scDouble
		case state >= scEscaped:
			state = scEscaped
		}
	}
}

// scriptLessThan reads on after a '<' in script data (state scData) or
// escaped script data, at i.
func (s *htmlScanner) scriptLessThan(i, state int) (at, next, nstate int, done bool) {
	b := s.buf
	if i == len(b) {
		return -2, 0, 0, false
	}
	switch c := b[i]; {
	case c == '/':
		at, next, done = s.rawEndTag(i + 1)
		if state != scData {
			state = scEscaped
		}
		return at, next, state, done
	case c == '!' && state == scData: // "<!--" escapes
		if i+1 == len(b) {
			return -2, 0, 0, false
		}
		if b[i+1] != '-' {
			return -1, i + 1, scData, false
		}
		if i+2 == len(b) {
			return -2, 0, 0, false
		}
		if b[i+2] != '-' {
			return -1, i + 2, scData, false
		}
		return -1, i + 3, scEscapedDashDash, false
	case isLetter(c) && state != scData: // "<script" escapes twice
		const t = "script"
		for j := 0; j < len(t); j++ {
			if i+j == len(b) {
				return -2, 0, 0, false
			}
			if c := b[i+j]; c != t[j] && c != t[j]-('a'-'A') {
				return -1, i + j, scEscaped, false
			}
		}
		k := i + len(t)
		if k == len(b) {
			return -2, 0, 0, false
		}
		switch b[k] {
		case ' ', '\n', '\r', '\t', '\f', '/', '>':
			return -1, k + 1, scDouble, false
		}
		return -1, k, scEscaped, false
	}
	return -1, i, scData, false // the tokenizer's reading: not scEscaped
}
