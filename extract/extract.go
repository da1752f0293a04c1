// Package extract finds URLs in free text the way the Appendix of RFC 1738
// recommends: in the wrapper <URL:…>, in plain angle brackets, after the
// prefix URL:, and bare in prose.
//
// Inside a wrapper, whitespace (spaces, tabs, line breaks, indentation) is
// ignored, so a URL broken across lines comes out whole; a hyphen followed
// by a line break is kept, and the match carries a note with the reading
// without it. A bare URL ends at whitespace, '<', '>', '"' or any octet a
// URL cannot hold unencoded (§2.2), and trailing sentence punctuation is
// left out of it.
//
// Each match says whether the URL is valid RFC 1738, with the errors the
// core package rfc1738 reports. The Scanner streams over an io.Reader with
// a bounded buffer, so input of any size is scanned in constant memory;
// All is the convenience over a string.
//
// What counts as a URL:
//
//   - <URL:…> (Form URLBracket): "URL:" in any case right after '<'; the
//     content, whitespace removed, must be scheme ":" and at least one more
//     octet (not "//" alone). The author said it is a URL, so any scheme is
//     taken, and a content that breaks the grammar is reported invalid.
//   - <…> (Form Bracket): the content must start right after '<' with a
//     scheme and ':' written without whitespace, and read like a bare URL:
//     mailto: or news: and an address or group, or scheme "://" and more.
//     So <uri@bunyip.com>, <host>, <xsl:template> and <http::request> are
//     not URLs (the text inside is still searched for bare URLs).
//   - URL:… (Form URLPrefix): "URL:" not inside brackets, then a scheme, ':'
//     and at least one more octet, extended like a bare URL.
//   - bare (Form Bare): the ten schemes of RFC 1738 by their own
//     productions (mailto: and news: without "//", the eight others with
//     "://"), any other scheme only in its scheme:// form; never "http:" or
//     "http://" alone, never an e-mail address without mailto: nor a group
//     name without news:.
//
// A wrapper ends at '>'. It is not a wrapper (and is searched for bare URLs
// instead) when a '<' or a blank line comes first, or when its content runs
// past the maximum URL length.
package extract

import (
	"strconv"
	"strings"

	"github.com/rfc1738/rfc1738"
)

// Form names how a URL stood in the text (RFC 1738 Appendix).
type Form uint8

// The forms of a URL in text.
const (
	Bare       Form = iota // in prose, with no wrapper
	URLBracket             // <URL:…>, the wrapper the Appendix recommends
	Bracket                // <…>
	URLPrefix              // URL:… without brackets
)

var formNames = [...]string{"bare", "url-bracket", "bracket", "url-prefix"}

// String returns the form's name: "bare", "url-bracket", "bracket" or
// "url-prefix".
func (f Form) String() string {
	if int(f) < len(formNames) {
		return formNames[f]
	}
	return "Form(" + strconv.Itoa(int(f)) + ")"
}

// MarshalText returns the form's name, for JSON.
func (f Form) MarshalText() ([]byte, error) { return []byte(f.String()), nil }

// Pos is a position in the input.
type Pos struct {
	Offset int64 // byte offset from the start of the input
	Line   int   // line number, from 1; a line ends at "\n"
	Column int   // byte column in the line, from 1
}

// Match is one URL found in the text.
type Match struct {
	// URL is the URL as found, with the whitespace of a wrapper removed
	// and with its "#fragment" when one was written.
	URL  string
	Form Form
	// Start is the position of the URL's first byte, inside any wrapper;
	// End is the position just after its last byte (before the '>').
	Start, End Pos
	// Valid reports whether URL matches its scheme's production (§5);
	// Errors are the core's diagnostics, with offsets into URL.
	Valid  bool
	Errors []rfc1738.Diagnostic
	// Notes tell of ambiguity, such as a hyphen at a line break.
	Notes []Note
}

// Fragment returns what follows the first '#' of the URL, and whether
// there is a '#' (Appendix: a fragment written inside the wrapper belongs
// to the match).
func (m Match) Fragment() (string, bool) {
	if i := strings.IndexByte(m.URL, '#'); i >= 0 {
		return m.URL[i+1:], true
	}
	return "", false
}

// Note is a remark on an ambiguous match.
type Note struct {
	Offset      int64  // byte offset in the input of what the note is about
	Message     string // a sentence for people
	Alternative string // the other reading of the URL, if any
}

// All returns every URL in s, in order.
func All(s string) []Match {
	size := min(defaultBufSize(DefaultMaxLength), len(s)+1)
	sc := newScanner(strings.NewReader(s), DefaultMaxLength, size)
	var ms []Match
	for sc.Scan() {
		ms = append(ms, sc.Match())
	}
	return ms
}
