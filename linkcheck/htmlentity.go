package linkcheck

import (
	"strings"
	"sync"
	"unicode/utf8"

	"golang.org/x/net/html"
)

// unescapeAttr appends to dst the attribute value v with its character
// references decoded as the tokenizer decodes them in an attribute value
// (HTML §13.2.5.72–.80 "character reference state"): &name; and the
// legacy names without ';', &#decimal; and &#xhex; with or without ';';
// a name without ';' followed by '=' or by more letters or digits is
// left as written (§13.2.5.73, "historical reasons").
func unescapeAttr(dst, v []byte) []byte {
	for i := 0; i < len(v); {
		if v[i] != '&' {
			dst = append(dst, v[i])
			i++
			continue
		}
		var n int
		if i+1 < len(v) && v[i+1] == '#' {
			var r rune
			r, n = numericRef(v[i:])
			if n > 0 {
				dst = utf8.AppendRune(dst, r)
			}
		} else {
			var val string
			val, n = namedRef(v[i:])
			dst = append(dst, val...)
		}
		if n == 0 {
			dst = append(dst, '&')
			n = 1
		}
		i += n
	}
	return dst
}

// numericRef decodes the numeric reference at the start of s, "&#",
// and returns its length, 0 when there is none (§13.2.5.75–.80).
func numericRef(s []byte) (rune, int) {
	i := 2
	hex := i < len(s) && s[i]|0x20 == 'x'
	if hex {
		i++
	}
	start := i
	x := rune(0)
	for ; i < len(s); i++ {
		c := s[i]
		var d rune
		switch {
		case '0' <= c && c <= '9':
			d = rune(c - '0')
		case hex && 'a' <= c|0x20 && c|0x20 <= 'f':
			d = rune(c|0x20-'a') + 10
		default:
			goto done
		}
		if x <= utf8.MaxRune { // once past it, it stays past it
			if hex {
				x = 16*x + d
			} else {
				x = 10*x + d
			}
		}
	}
done:
	if i == start {
		return 0, 0
	}
	if i < len(s) && s[i] == ';' {
		i++
	}
	switch {
	case 0x80 <= x && x <= 0x9F: // §13.2.5.80: as windows-1252 reads them
		x = windows1252[x-0x80]
	case x == 0 || 0xD800 <= x && x <= 0xDFFF || x > utf8.MaxRune:
		x = utf8.RuneError
	}
	return x, i
}

// windows1252 is what the references 0x80 to 0x9F stand for (§13.2.5.80,
// the table of "numeric character reference end state").
var windows1252 = [32]rune{
	'\u20AC', '\u0081', '\u201A', '\u0192', '\u201E', '\u2026', '\u2020', '\u2021',
	'\u02C6', '\u2030', '\u0160', '\u2039', '\u0152', '\u008D', '\u017D', '\u008F',
	'\u0090', '\u2018', '\u2019', '\u201C', '\u201D', '\u2022', '\u2013', '\u2014',
	'\u02DC', '\u2122', '\u0161', '\u203A', '\u0153', '\u009D', '\u017E', '\u0178',
}

// longestRef is the length of the longest named reference,
// "CounterClockwiseContourIntegral;".
const longestRef = 32

// namedRef decodes the named reference at the start of s, "&", and
// returns its length, 0 when there is none.
func namedRef(s []byte) (string, int) {
	i := 1
	for i < len(s) && (isLetter(s[i]) || '0' <= s[i] && s[i] <= '9') {
		i++
	}
	if i < len(s) && s[i] == ';' {
		i++
	} else if i < len(s) && s[i] == '=' {
		return "", 0
	}
	name := s[1:i]
	if len(name) == 0 || len(name) > longestRef {
		return "", 0
	}
	refs.RLock()
	val, ok := refs.m[string(name)]
	refs.RUnlock()
	if !ok {
		val = lookupRef(string(name))
		refs.Lock()
		if len(refs.m) < 4096 {
			refs.m[string(name)] = val
		}
		refs.Unlock()
	}
	if val == "" {
		return "", 0
	}
	return val, i
}

// refs holds the named references met so far ("" for a name that is
// none), from the table of HTML's 2,231 that x/net/html carries.
var refs = struct {
	sync.RWMutex
	m map[string]string
}{m: map[string]string{"amp;": "&", "lt;": "<", "gt;": ">", "quot;": `"`, "nbsp;": "\u00a0"}}

// lookupRef returns what the named reference &name stands for in an
// attribute value, or "", as x/net/html's tokenizer reads it.
func lookupRef(name string) string {
	z := html.NewTokenizer(strings.NewReader(`<a v="&` + name + `">`))
	z.Next()
	_, v, _ := z.TagAttr()
	if string(v) == "&"+name {
		return ""
	}
	return string(v)
}
