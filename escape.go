package rfc1738

import "strings"

// Component names a part of a URL for escaping. Each has the set of octets
// §5 lets it hold unencoded; every other octet is written as %XX (§2.2).
type Component uint8

// The components of §5, named after their productions.
const (
	// UserComponent is §5 user and password: uchar | ";" | "?" | "&" | "=".
	UserComponent Component = iota
	// FSegment is an ftp or file path segment (§3.2.2, §5 fsegment) and a
	// prospero psegment: uchar | "?" | ":" | "@" | "&" | "=". "/" and ";"
	// are reserved and encoded.
	FSegment
	// HSegment is an http path segment (§3.3, §5 hsegment):
	// uchar | ";" | ":" | "@" | "&" | "=".
	HSegment
	// Search is an http or wais search (§5 search): like HSegment.
	Search
	// GopherPart is a gopher selector, search or Gopher+ string (§3.4.1:
	// "no characters are reserved"): xchar. A TAB becomes %09, which a
	// reader takes as a delimiter, so a selector cannot hold one.
	GopherPart
	// Address is a mailto address (§3.5: "no reserved characters"): xchar.
	Address
	// ArticlePart is the part of a news message-id before "@" (§5 article):
	// uchar | ";" | "/" | "?" | ":" | "&" | "=".
	ArticlePart
	// UChar is a wais database, wtype or wpath (§5): uchar only.
	UChar
	// FieldPart is a prospero field name or value (§5 fieldname,
	// fieldvalue): uchar | "?" | ":" | "@" | "&".
	FieldPart
	// FragmentPart is a fragment after "#" (Appendix): xchar.
	FragmentPart
)

var componentSets = [...]charset{
	UserComponent: setUser,
	FSegment:      setFsegment,
	HSegment:      setHsegment,
	Search:        setHsegment,
	GopherPart:    setXchar,
	Address:       setXchar,
	ArticlePart:   setArticle,
	UChar:         setUchar,
	FieldPart:     setField,
	FragmentPart:  setXchar,
}

// Escape returns s with every octet that c does not allow unencoded
// written as %XX with upper-case hex (§2.2). Text that is not ASCII is
// escaped octet by octet, so UTF-8 "東京" becomes %E6%9D%B1%E4%BA%AC.
// When nothing needs escaping, s itself is returned without allocating.
func Escape(s string, c Component) string {
	set := componentSets[c]
	n := 0
	for i := 0; i < len(s); i++ {
		if charsets[s[i]]&set == 0 {
			n++
		}
	}
	if n == 0 {
		return s
	}
	b := make([]byte, 0, len(s)+2*n)
	return string(appendEscape(b, s, set))
}

// AppendEscape appends the escaped form of s for component c to dst.
func AppendEscape(dst []byte, s string, c Component) []byte {
	return appendEscape(dst, s, componentSets[c])
}

func appendEscape(dst []byte, s string, set charset) []byte {
	start := 0
	for i := 0; i < len(s); i++ {
		c := s[i]
		if charsets[c]&set != 0 {
			continue
		}
		dst = append(dst, s[start:i]...)
		dst = append(dst, '%', upperhex[c>>4], upperhex[c&15])
		start = i + 1
	}
	return append(dst, s[start:]...)
}

// Unescape decodes every %XX escape in s (§2.2). It reports an *Error
// naming the offset of a "%" that does not begin an escape. When s has no
// escape, s itself is returned without allocating.
func Unescape(s string) (string, error) {
	for i := 0; i < len(s); i++ {
		if s[i] == '%' && (i+2 >= len(s) || !isHex(s[i+1]) || !isHex(s[i+2])) {
			return "", errorOf(s, Diagnostic{Offset: i, Rule: "escape",
				Message: "'%' must begin an escape of two hex digits, %XX (§2.2)"})
		}
	}
	return unescape(s), nil
}

// AppendUnescape appends the decoded form of s, which must hold only
// well-formed escapes (as every part of a parsed URL does), to dst.
func AppendUnescape(dst []byte, s string) []byte {
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c == '%' && i+2 < len(s) {
			c = unhex(s[i+1])<<4 | unhex(s[i+2])
			i += 2
		}
		dst = append(dst, c)
	}
	return dst
}

// IndexEscape returns the index in s of the first escape (%XX) that
// decodes to one of the octets in set, or -1. The §6 guards use it to find
// an encoded line delimiter (%0D, %0A, %00) before a part is sent decoded.
func IndexEscape(s, set string) int {
	for i := 0; i+2 < len(s); i++ {
		if s[i] != '%' || !isHex(s[i+1]) || !isHex(s[i+2]) {
			continue
		}
		if strings.IndexByte(set, unhex(s[i+1])<<4|unhex(s[i+2])) >= 0 {
			return i
		}
		i += 2
	}
	return -1
}

// unescape decodes s, whose escapes are known to be well formed.
func unescape(s string) string {
	if strings.IndexByte(s, '%') < 0 {
		return s
	}
	return string(AppendUnescape(make([]byte, 0, len(s)), s))
}
