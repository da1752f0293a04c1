package extract

import "bytes"

// typesetterBreak reports where a bare URL goes on when b[j] starts a
// hyphen a typesetter put at a line break — U+2010 HYPHEN (groff) or
// U+00AD SOFT HYPHEN — with the URL before it and its rest after the
// line break and indentation: neither character can be in a URL (§2.2),
// so the hyphen is the typesetter's, never the URL's. It returns 0 when
// there is no such break.
func typesetterBreak(b []byte, from, j, limit int, run uint8) int {
	n := 0
	if bytes.HasPrefix(b[j:limit], hyphen2010) {
		n = len(hyphen2010)
	} else if bytes.HasPrefix(b[j:limit], softHyphen) {
		n = len(softHyphen)
	}
	if n == 0 || j == from {
		return 0
	}
	k := lineBreak(b, j+n, limit)
	if k == -1 || class[b[k]]&run == 0 {
		return 0
	}
	return k
}

// U+2010 HYPHEN and U+00AD SOFT HYPHEN in UTF-8.
var hyphen2010, softHyphen = []byte("\u2010"), []byte("\u00ad")

// hyphenBreak reports where a bare URL goes on when b[j] is the
// whitespace of a line break right after an ASCII hyphen in the middle
// of a word of the URL's path (the scheme's ':' is b[i]): "http://a.org/
// long-⏎name.html". It returns 0 otherwise. Whether the joined reading is
// taken is decided once the rest is known (see atColon).
func hyphenBreak(b []byte, i, j, limit int) int {
	// b[j-2] is in the URL when it is a letter or digit: a piece of the
	// URL that starts with '-' starts after a line break's whitespace or
	// after the ':' of "URL:" (a bare scheme starts with a letter).
	if b[j-1] != '-' || class[b[j-2]]&cAlphadigit == 0 || class[b[j]]&cSpace == 0 {
		return 0
	}
	// In the path: after "//host/". b[j-1] is the '-', so b[i+1] and
	// b[i+2] are before it when they are "//".
	if b[i+1] != '/' || b[i+2] != '/' || bytes.IndexByte(b[i+3:j], '/') < 0 {
		return 0
	}
	k := lineBreak(b, j, limit)
	if k == -1 || class[b[k]]&cAlphadigit == 0 {
		return 0
	}
	return k
}

// lineBreak returns the index after a run of whitespace at b[j:] that
// holds exactly one line break, or -1 when the run holds none or a blank
// line, or reaches limit.
func lineBreak(b []byte, j, limit int) int {
	breaks := 0
	for ; j < limit && class[b[j]]&cSpace != 0; j++ {
		if b[j] == '\n' {
			breaks++
		}
	}
	if breaks != 1 || j == limit {
		return -1
	}
	return j
}

// entityEnds reports whether b starts with an HTML character reference
// for a character that ends a URL in text: a quotation mark, an angle
// bracket, a no-break space, a dash or an ellipsis ("&rdquo;", "&gt;",
// "&#8221;", "&#x22;"). "&amp;" and the like are left to the URL.
func entityEnds(b []byte) bool {
	name, ok := entityName(b)
	if !ok {
		return false
	}
	if name[0] == '#' {
		v := 0
		digits := name[1:]
		base := 10
		if len(digits) > 0 && digits[0]|0x20 == 'x' {
			base, digits = 16, digits[1:]
		}
		if len(digits) == 0 || len(digits) > 7 {
			return false
		}
		for _, c := range digits {
			d := int(hexVal(c))
			if d >= base {
				return false
			}
			v = v*base + d
		}
		// Every character past ASCII ends the URL (the table marks
		// none of 0x80 to 0xff, and holds no more).
		return v >= len(class) || v == '\'' || class[v]&cBare == 0
	}
	switch string(name) {
	case "quot", "apos", "lt", "gt", "nbsp", "ldquo", "rdquo", "lsquo", "rsquo", "laquo", "raquo",
		"lsaquo", "rsaquo", "sbquo", "bdquo", "hellip", "ndash", "mdash":
		return true
	}
	return false
}

// entityName returns the name of the HTML character reference "&name;"
// at the start of b ("#8221" for "&#8221;").
func entityName(b []byte) ([]byte, bool) {
	if len(b) < 3 || b[0] != '&' {
		return nil, false
	}
	for k := 1; k < len(b) && k <= 10; k++ {
		c := b[k]
		if c == ';' {
			return b[1:k], k > 1
		}
		if class[c]&cAlphadigit == 0 && (c != '#' || k != 1) {
			return nil, false
		}
	}
	return nil, false
}

// noHex is what hexVal returns for an octet that is no hex digit.
const noHex = 255

func hexVal(c byte) byte {
	if '0' <= c && c <= '9' {
		return c - '0'
	}
	if 'a' <= c|0x20 && c|0x20 <= 'f' {
		return c | 0x20 - 'a' + 10
	}
	return noHex
}

// entityBefore returns the length of the HTML character reference that
// ends b, or 0.
func entityBefore(b []byte) int {
	for k := len(b) - 2; k >= 0 && len(b)-k <= 11; k-- {
		if b[k] == '&' {
			if _, ok := entityName(b[k:]); ok {
				return len(b) - k
			}
			return 0
		}
	}
	return 0
}
