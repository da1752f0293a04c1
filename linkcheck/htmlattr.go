package linkcheck

import "bytes"

// tagScratch is what reading the attributes of one start tag needs,
// kept from tag to tag so that a tag costs no allocation.
type tagScratch struct {
	tok, end int
	saved    []int32 // per attribute, its index among the tokenizer's, or -1
	nSaved   int
	nNamed   int
	haveSave bool
	state    int8 // of the values' places: 0 not known, 1 usable, -1 not
	refresh  int8 // 0 not known, 1 a refresh, -1 not
	raw, val []byte
}

// Elements and attributes a tree reads.
const (
	elOther = iota
	elA
	elBase
	elImg
	elMeta
	elObject
	elSource
	elStyle
)

const (
	atNone = iota
	atID
	atName
	atHref // href, xlink:href
	atSrc  // src, action, formaction, poster, background
	atData
	atSrcset
	atStyle
	atContent
	atHTTPEquiv
)

// elementOf returns the element named name (its ASCII capitals as small
// letters, as the tokenizer lowers them).
func elementOf(name []byte) int {
	var e string
	switch len(name) {
	case 1:
		e = "a"
	case 3:
		e = "img"
	case 4:
		e = "base"
		if name[0]|0x20 == 'm' {
			e = "meta"
		}
	case 5:
		e = "style"
	case 6:
		e = "object"
		if name[0]|0x20 == 's' {
			e = "source"
		}
	default:
		return elOther
	}
	if !foldEq(name, e) {
		return elOther
	}
	switch e {
	case "a":
		return elA
	case "img":
		return elImg
	case "base":
		return elBase
	case "meta":
		return elMeta
	case "style":
		return elStyle
	case "object":
		return elObject
	}
	return elSource
}

// attrOf returns the attribute named key.
func attrOf(key []byte) int {
	if len(key) < 2 {
		return atNone
	}
	var name string
	at := atSrc
	switch key[0] | 0x20 {
	case 'i':
		name, at = "id", atID
	case 'n':
		name, at = "name", atName
	case 'h':
		name, at = "href", atHref
		if len(key) == 10 {
			name, at = "http-equiv", atHTTPEquiv
		}
	case 'x':
		name, at = "xlink:href", atHref
	case 's':
		switch len(key) {
		case 3:
			name = "src"
		case 5:
			name, at = "style", atStyle
		case 6:
			name, at = "srcset", atSrcset
		}
	case 'a':
		name = "action"
	case 'f':
		name = "formaction"
	case 'p':
		name = "poster"
	case 'b':
		name = "background"
	case 'd':
		name, at = "data", atData
	case 'c':
		name, at = "content", atContent
	}
	if !foldEq(key, name) {
		return atNone
	}
	return at
}

// startTag reads the start tag buf[tok:end], its attributes in attrs.
func (s *htmlScanner) startTag(tok, end int) {
	b := s.buf
	name := b[tok+1 : s.nameEnd]
	s.rawTag = rawTagOf(name)
	el := elementOf(name)
	t := &s.tag
	t.tok, t.end, t.haveSave, t.state, t.refresh, t.nNamed = tok, end, false, 0, 0, 0
	if el == elStyle {
		s.style = !s.selfClosing(end)
	}
	for ai, a := range s.attrs {
		if at := attrOf(b[a.ks:a.ke]); at != atNone && s.savedIndex(ai) >= 0 {
			s.attr(el, at, ai)
		}
	}
}

// selfClosing reports whether the tokenizer reads the start tag ending
// at end as self-closing (§13.2.5.40 "self-closing start tag state"):
// a '/' before its '>' that is not the end of its last attribute value.
func (s *htmlScanner) selfClosing(end int) bool {
	if s.buf[end-2] != '/' {
		return false
	}
	for ai := len(s.attrs) - 1; ai >= 0; ai-- {
		if s.savedIndex(ai) >= 0 {
			return end-2 != s.attrs[ai].ve-1
		}
	}
	return true
}

// savedIndex returns the index of attribute ai among the attributes the
// tokenizer keeps, or -1: it drops one without a name, and one whose
// name came before (§13.2.5.33: "if there is already an attribute on
// the token with the exact same name ... removed").
func (s *htmlScanner) savedIndex(ai int) int {
	t := &s.tag
	if !t.haveSave {
		t.haveSave = true
		t.saved, t.nSaved = t.saved[:0], 0
		var seen map[string]bool // for a tag of many attributes
		if len(s.attrs) > 32 {
			seen = map[string]bool{}
		}
		for i, a := range s.attrs {
			key := s.buf[a.ks:a.ke]
			dup := len(key) == 0
			if seen != nil && !dup {
				lk := string(lower(bytes.Clone(key)))
				dup, seen[lk] = seen[lk], true
			}
			for j := 0; seen == nil && !dup && j < i; j++ {
				dup = t.saved[j] >= 0 && asciiFoldEq(s.buf[s.attrs[j].ks:s.attrs[j].ke], key)
			}
			if dup {
				t.saved = append(t.saved, -1)
				continue
			}
			t.saved = append(t.saved, int32(t.nSaved))
			t.nSaved++
		}
	}
	return int(t.saved[ai])
}

// lower makes the ASCII capitals of b small letters.
func lower(b []byte) []byte {
	for i, c := range b {
		if 'A' <= c && c <= 'Z' {
			b[i] = c + 'a' - 'A'
		}
	}
	return b
}

// asciiFoldEq reports whether a and b are equal with their ASCII capitals
// read as small letters.
func asciiFoldEq(a, b []byte) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		x, y := a[i], b[i]
		if 'A' <= x && x <= 'Z' {
			x += 'a' - 'A'
		}
		if 'A' <= y && y <= 'Z' {
			y += 'a' - 'A'
		}
		if x != y {
			return false
		}
	}
	return true
}

// attr reads attribute ai, named at, of element el.
func (s *htmlScanner) attr(el, at, ai int) {
	switch at {
	case atID:
		s.addID(s.decode(ai))
	case atName:
		if el == elA {
			s.addID(s.decode(ai))
		}
	case atHref:
		if el == elBase {
			if !s.d.haveBase {
				s.d.base, s.d.haveBase = string(bytes.TrimSpace(s.decode(ai))), true
			}
			return
		}
		s.value(ai)
	case atSrc:
		s.value(ai)
	case atData:
		if el == elObject {
			s.value(ai)
		}
	case atSrcset:
		if el == elImg || el == elSource {
			srcsetURLs(string(s.decode(ai)), func(ref string, i int) { s.found(ref, ai, i) })
		}
	case atStyle:
		cssURLs(s.decode(ai), func(ref string, i int) { s.found(ref, ai, i) })
	case atContent:
		if el == elMeta && s.refresh() {
			if ref, i, ok := refreshURL(string(s.decode(ai))); ok {
				s.found(ref, ai, i)
			}
		}
	}
}

func (s *htmlScanner) addID(v []byte) {
	if _, ok := s.d.ids[string(v)]; !ok && len(v) > 0 {
		s.d.ids[string(v)] = struct{}{}
	}
}

// value reads attribute ai as one URL, white space around it dropped.
func (s *htmlScanner) value(ai int) {
	v := s.decode(ai)
	lead := 0
	for lead < len(v) && isSpace(v[lead]) {
		lead++
	}
	s.found(string(bytes.TrimSpace(v)), ai, lead)
}

// refresh reports whether the current tag has http-equiv="refresh"
// (HTML §4.2.5.3).
func (s *htmlScanner) refresh() bool {
	t := &s.tag
	if t.refresh == 0 {
		t.refresh = -1
		for ai, a := range s.attrs {
			if attrOf(s.buf[a.ks:a.ke]) == atHTTPEquiv && s.savedIndex(ai) >= 0 &&
				bytes.EqualFold(bytes.TrimSpace(s.decode(ai)), []byte("refresh")) {
				t.refresh = 1
			}
		}
	}
	return t.refresh > 0
}

// decode returns the value of attribute ai as the tokenizer gives it:
// NUL as U+FFFD, CR LF and CR as LF (§13.2.3.5), character references
// decoded. It is good until the next call.
func (s *htmlScanner) decode(ai int) []byte {
	a := s.attrs[ai]
	v := s.buf[a.vs:a.ve]
	i := 0
	for i < len(v) && !valueSpecial[v[i]] {
		i++
	}
	if i == len(v) {
		return v
	}
	t := &s.tag
	t.raw = append(t.raw[:0], v[:i]...)
	for ; i < len(v); i++ {
		switch c := v[i]; c {
		case 0:
			t.raw = append(t.raw, "\uFFFD"...)
		case '\r':
			t.raw = append(t.raw, '\n')
			if i+1 < len(v) && v[i+1] == '\n' {
				i++
			}
		default:
			t.raw = append(t.raw, c)
		}
	}
	t.val = unescapeAttr(t.val[:0], t.raw)
	return t.val
}

// valueSpecial are the bytes that make decode change a value.
var valueSpecial = [256]bool{0: true, '\r': true, '&': true}

// found adds the link ref, at index within of the value of attribute ai
// (or at the tag when the tag's values cannot be placed).
func (s *htmlScanner) found(ref string, ai, within int) {
	t := &s.tag
	if t.state == 0 {
		// Values are placed only when no name is repeated (when what
		// the tokenizer keeps is every attribute with a name).
		t.state = 1
		for _, a := range s.attrs {
			if a.ke > a.ks {
				t.nNamed++
			}
		}
		if t.nNamed != t.nSaved {
			t.state = -1
		}
	}
	i := 0
	if rs := s.attrs[ai].rs; t.state > 0 && rs >= 0 {
		i = rs - t.tok + within
	}
	s.d.links = append(s.d.links, s.place(ref, t.tok, t.end, i))
}

// css reads buf[tok:end] as CSS.
func (s *htmlScanner) css(tok, end int) {
	cssURLs(s.buf[tok:end], func(ref string, i int) {
		s.d.links = append(s.d.links, s.place(ref, tok, end, i))
	})
}

// place returns the link ref at index i of the token buf[tok:end].
func (s *htmlScanner) place(ref string, tok, end, i int) docLink {
	at := tok + min(max(i, 0), end-tok)
	s.countLines(tok)
	from, line, start := tok, s.line, s.lineStart
	if s.last.tok == tok && s.last.i <= at {
		from, line, start = s.last.i, s.last.line, s.last.lineStart
	}
	seg := s.buf[from:at]
	if n := bytes.Count(seg, nl); n > 0 {
		line += n
		start = s.base + int64(from+bytes.LastIndexByte(seg, '\n')+1)
	}
	s.last = place{tok: tok, i: at, line: line, lineStart: start}
	off := s.base + int64(at)
	return docLink{ref: ref, offset: off, line: line, col: int(off-start) + 1}
}

// countLines counts the lines of buf up to i.
func (s *htmlScanner) countLines(i int) {
	if i <= s.lineAt {
		return
	}
	seg := s.buf[s.lineAt:i]
	if n := bytes.Count(seg, nl); n > 0 {
		s.line += n
		s.lineStart = s.base + int64(s.lineAt+bytes.LastIndexByte(seg, '\n')+1)
	}
	s.lineAt = i
}
