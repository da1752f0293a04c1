package gopher

import (
	"strings"
)

// Request is one Gopher or Gopher+ request, as a gopher URL describes it
// (RFC 1738 §3.4.1): the item type and the decoded selector, search and
// Gopher+ strings. It is a small comparable value.
type Request struct {
	// Type is the <gophertype> of the URL; it decides how the reply is read.
	// The zero value means "1" (§3.4.1: an empty gopher-path is a menu).
	Type      byte
	Selector  string
	Search    string
	HasSearch bool // a %09<search> part was present, even if empty (§3.4.2)
	Plus      string
	HasPlus   bool // a second %09 and a Gopher+ string were present (§3.4.3)
}

// formPrefix starts a §3.4.9 filled-form Gopher+ string: "+" TAB "1" CRLF
// "+-1" CRLF, the Gopher+ "request with a data block" whose block is
// dot-terminated.
const formPrefix = "+\t1\r\n+-1\r\n"

// Line returns the exact request line without its final CRLF:
// the selector; TAB and the search if a search (or a Gopher+ string) is
// present (§3.4.2, §3.4.3: "the %09<search> string must be supplied"); TAB
// and the Gopher+ string if present (§3.4.3).
//
// A Gopher+ string laid out as a §3.4.9 filled form ("+" TAB "1" CRLF "+-1"
// CRLF, value lines, "." CRLF) is sent exactly as written, so Line then
// spans several lines; with an empty search the search field is left out,
// giving the bytes §3.4.9 shows (<selector><tab>+<tab>1<cr><lf>…), which is
// also the Gopher+ layout of a request with a data block. Any other TAB, CR
// or LF in the Gopher+ string, and any TAB, CR, LF or NUL in the selector or
// search, is refused with a *RequestError (§3.4.1, §6).
func (r Request) Line() (string, error) {
	if i := strings.IndexAny(r.Selector, "\t\r\n\x00"); i >= 0 {
		return "", &RequestError{Field: "selector", Value: r.Selector, Offset: i, Reason: badByte(r.Selector[i])}
	}
	if i := strings.IndexAny(r.Search, "\t\r\n\x00"); i >= 0 {
		return "", &RequestError{Field: "search", Value: r.Search, Offset: i, Reason: badByte(r.Search[i])}
	}
	if r.HasPlus {
		if i := strings.IndexByte(r.Plus, 0); i >= 0 {
			return "", &RequestError{Field: "plus", Value: r.Plus, Offset: i, Reason: badByte(0)}
		}
		if IsForm(r.Plus) {
			// §3.4.9: <selector><tab>+<tab>1<cr><lf>+-1<cr><lf>…<cr><lf>.<cr><lf>
			head := r.Selector
			if r.Search != "" {
				head += "\t" + r.Search
			}
			return head + "\t" + strings.TrimSuffix(r.Plus, "\r\n"), nil
		}
		if i := strings.IndexAny(r.Plus, "\t\r\n"); i >= 0 {
			return "", &RequestError{Field: "plus", Value: r.Plus, Offset: i,
				Reason: badByte(r.Plus[i]) + " outside a §3.4.9 form layout"}
		}
		return r.Selector + "\t" + r.Search + "\t" + r.Plus, nil
	}
	if r.HasSearch {
		return r.Selector + "\t" + r.Search, nil
	}
	return r.Selector, nil
}

// ItemType returns the request's item type, "1" when Type is zero.
func (r Request) ItemType() byte {
	if r.Type == 0 {
		return '1'
	}
	return r.Type
}

// IsForm reports whether plus is a §3.4.9 filled-form Gopher+ string:
// "+" TAB "1" CRLF "+-1" CRLF, zero or more value lines each ending in CRLF
// (no TAB, CR, LF or NUL inside, and none a lone "."), then "." CRLF.
func IsForm(plus string) bool {
	rest, ok := strings.CutPrefix(plus, formPrefix)
	if !ok {
		return false
	}
	for {
		line, after, found := strings.Cut(rest, "\r\n")
		if !found || strings.ContainsAny(line, "\t\r\n\x00") {
			return false
		}
		if line == "." {
			return after == ""
		}
		rest = after
	}
}

// FormString builds the §3.4.9 filled-form Gopher+ string for the given
// answer lines, in order: "+\t1\r\n+-1\r\n" v1 "\r\n" v2 "\r\n" … ".\r\n".
// A value containing CR, LF, TAB or NUL is refused with a *RequestError; a
// value starting with "." gets one more "." (dot-stuffing of the "+-1" data
// block) so that it cannot end the block early.
func FormString(values ...string) (string, error) {
	var b strings.Builder
	b.WriteString(formPrefix)
	for _, v := range values {
		if i := strings.IndexAny(v, "\t\r\n\x00"); i >= 0 {
			return "", &RequestError{Field: "form value", Value: v, Offset: i, Reason: badByte(v[i])}
		}
		if strings.HasPrefix(v, ".") {
			b.WriteByte('.')
		}
		b.WriteString(v)
		b.WriteString("\r\n")
	}
	b.WriteString(".\r\n")
	return b.String(), nil
}

func badByte(c byte) string {
	switch c {
	case '\t':
		return "TAB is a field separator"
	case '\r':
		return "CR would end the request line"
	case '\n':
		return "LF would end the request line"
	case 0:
		return "NUL is not allowed"
	}
	return "bad byte"
}
