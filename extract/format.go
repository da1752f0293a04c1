package extract

import (
	"strconv"
	"strings"

	"github.com/rfc1738/rfc1738"
)

// FormatError says why Format cannot write a URL: the URL, the byte
// offset of what is wrong and a sentence for people.
type FormatError struct {
	URL     string
	Offset  int
	Message string
}

func (e *FormatError) Error() string {
	return "extract: format " + strconv.Quote(e.URL) + ": offset " + strconv.Itoa(e.Offset) + ": " + e.Message
}

// DefaultWidth is the line width Format is used with by default.
const DefaultWidth = 72

// Format returns url written into text the way the Appendix of RFC 1738
// recommends, so that extract finds it again whole: in the wrapper
// <URL:…>, broken into lines of at most width columns, each line after
// the first starting with indent (spaces and tabs; a tab advances to the
// next multiple of 8). A fragment stays inside the brackets.
//
// Lines are broken only where the Appendix allows: never right after a
// '-' ("No whitespace should be introduced after a hyphen"), nor inside
// the scheme and its "//" or inside a %XX escape (§2.2). A break after
// '/', '.', '?', ';' or '&' is preferred when it leaves the line at least
// half full. A line is longer than width only when the URL holds a run
// with no allowed break that does not fit.
//
// The URL must be what <URL:…> can carry: a scheme, ':' and more (§2.1),
// or a valid URL whose schemepart is empty or "//" (§5's genericurl
// allows "https://"), in printable ASCII without whitespace, '<' or '>'
// (encode anything else first, §2.2). Format does not require a valid RFC 1738 URL; the error,
// a *FormatError, names the first octet it cannot write.
func Format(url string, width int, indent string) (string, error) {
	fail := func(off int, msg string) (string, error) {
		return "", &FormatError{URL: url, Offset: off, Message: msg}
	}
	for k := 0; k < len(url); k++ {
		if c := url[k]; c <= ' ' || c >= 0x7f || c == '<' || c == '>' {
			return fail(k, "cannot stand inside <URL:…> unencoded; encode it first (§2.2, Appendix)")
		}
	}
	colon := schemeEnd([]byte(url), true)
	if colon == -1 || !schemepartOK([]byte(url), colon, false) && !rfc1738.Valid(url) {
		return fail(0, "a URL in text is a scheme, ':' and a schemepart (§2.1, Appendix)")
	}
	lead := columns(indent)
	for k := 0; k < len(indent); k++ {
		if indent[k] != ' ' && indent[k] != '\t' {
			return fail(0, "the indent must be spaces and tabs: whitespace is all the Appendix allows inside the wrapper")
		}
	}
	if width < len("<URL:x>") || 2*lead > width {
		return fail(0, "the width must be at least 7 columns and twice the indent")
	}

	first := colon + 1
	if strings.HasPrefix(url[first:], "//") {
		first += 2
	}
	var b strings.Builder
	b.Grow(len(url) + 8 + len(url)/max(width-lead, 1)*(1+len(indent)))
	b.WriteString("<URL:")
	col, rest := len("<URL:"), 0
	for {
		room := width - col
		if len(url)-rest+1 <= room {
			break
		}
		p := breakAt(url, first, rest, room)
		if p == -1 {
			break
		}
		b.WriteString(url[rest:p])
		b.WriteByte('\n')
		b.WriteString(indent)
		col, rest = lead, p
	}
	b.WriteString(url[rest:])
	b.WriteByte('>')
	if b.Len() > DefaultMaxLength {
		return fail(0, "the URL, broken into lines, is longer than extract takes by default")
	}
	return b.String(), nil
}

// breakAt returns where to break the line that holds url[rest:] in room
// columns: the last allowed break that fits, or a preferred one that
// leaves the line at least half full; when none fits, the first allowed
// break after the line (an unbreakable run overflows); -1 when there is
// no allowed break left at all. Format calls it only when url[rest:] and
// the '>' do not fit, so that rest+room <= len(url).
func breakAt(url string, first, rest, room int) int {
	for p := rest + room; p > rest; p-- {
		if !breakAllowed(url, first, p) {
			continue
		}
		for q := p; q-rest >= room/2; q-- {
			if breakAllowed(url, first, q) && strings.IndexByte("/.?;&", url[q-1]) >= 0 {
				return q
			}
		}
		return p
	}
	// None fits: the first after rest is after the line.
	for p := rest + 1; p < len(url); p++ {
		if breakAllowed(url, first, p) {
			return p
		}
	}
	return -1
}

// breakAllowed reports whether a line may break between url[p-1] and
// url[p]: after the scheme and its "//" (url[:first]), never right after
// a '-' (Appendix) and never inside a %XX escape (§2.2). first is past
// a scheme's ':', so that p-2 >= first-1 >= 1.
func breakAllowed(url string, first, p int) bool {
	if p <= first || p >= len(url) || url[p-1] == '-' {
		return false
	}
	return url[p-1] != '%' && url[p-2] != '%'
}

// columns returns the width of an indent of spaces and tabs.
func columns(indent string) int {
	col := 0
	for k := 0; k < len(indent); k++ {
		if indent[k] == '\t' {
			col += 8 - col%8
		} else {
			col++
		}
	}
	return col
}
