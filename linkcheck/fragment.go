package linkcheck

import (
	"strconv"
	"strings"
	"unicode"
)

// anchors is the set of places a fragment can name in a document: the id
// attributes and <a name> of HTML (HTML §7.4.6 "the indicated part of
// the document"), and the heading anchors of Markdown.
type anchors map[string]struct{}

func (a anchors) add(id string) {
	if id != "" {
		a[id] = struct{}{}
	}
}

// has reports whether the fragment frag (decoded, RFC 3986 §3.5) names a
// place in the document. The empty fragment and "top" name its start
// (HTML's "scroll to the fragment": "top" when no element has that id).
func (a anchors) has(frag string) bool {
	if frag == "" || strings.EqualFold(frag, "top") {
		return true
	}
	_, ok := a[frag]
	return ok
}

// slugger makes the anchors of Markdown headings as GitHub does
// (github-slugger): the heading's text in lower case, every character
// but letters, digits, marks, '-', '_' and spaces dropped, each space
// made '-'; a repeated slug gets "-1", "-2", ... in order.
type slugger map[string]int

func (s slugger) slug(text string) string {
	var b strings.Builder
	for _, r := range strings.ToLower(strings.TrimSpace(text)) {
		switch {
		case r == ' ':
			b.WriteByte('-')
		case r == '-' || r == '_' || unicode.IsLetter(r) || unicode.IsDigit(r) || unicode.IsMark(r) || unicode.In(r, unicode.Nl, unicode.No):
			b.WriteRune(r)
		}
	}
	orig := b.String()
	slug := orig
	for _, taken := s[slug]; taken; _, taken = s[slug] {
		s[orig]++
		slug = orig + "-" + strconv.Itoa(s[orig])
	}
	s[slug] = 0
	return slug
}
