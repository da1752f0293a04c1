// Package extract finds URLs in free text the way the Appendix of RFC 1738
// recommends: in the wrapper <URL:…>, in plain angle brackets, after the
// prefix URL:, and bare in prose. Format is the writer's side: it puts a
// URL into text the Appendix's way, so that extract gives it back.
//
// Inside a wrapper, whitespace that breaks a line (with the indentation
// around it) is ignored, so a URL broken across lines comes out whole;
// whitespace within a line makes the wrapper text, not a URL. A hyphen a
// typesetter put before a line break (U+2010 HYPHEN, U+00AD SOFT HYPHEN:
// neither can be in a URL) is dropped, in a wrapper and in a bare URL
// alike; an ASCII hyphen before a line break is kept, and the match
// carries a note with the reading without it.
//
// A bare URL ends at whitespace, '<', '>', '"', '\', '`', a second '#',
// a non-ASCII or control octet, an HTML character reference for a quote
// or bracket ("&rdquo;", "&gt;"), and a ')', ']' or '}' that closes a
// bracket opened before the URL ("(see http://a.org/x)/y"); trailing
// sentence punctuation and unbalanced closing brackets are left out of
// it. It runs on over the other octets §2.2 calls unsafe ('~', '{', '[',
// …), as real text writes http://host/~user and IPv6 literals, and is
// then reported invalid (SetStrict restores the stop at the first unsafe
// octet). A bare URL whose path breaks after an ASCII hyphen in the
// middle of a word is joined with the next line when that makes a URL no
// worse, with both other readings noted.
//
// Each match says whether the URL is valid RFC 1738, with the errors the
// core package rfc1738 reports, and the repaired strict form of an
// invalid one when its unsafe octets can be encoded. The Scanner streams
// over an io.Reader with a bounded buffer, so input of any size is
// scanned in constant memory; input already in memory (ResetBytes, a
// bytes.Reader or strings.Reader) is scanned where it lies, without a
// copy. All is the convenience over a string.
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
//     name without news:. A scheme begins a word: not after '%', '$', '@',
//     '&' or '\' (the "%s://%s" of a format string is no URL).
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
	// Repaired is the URL rfc1738.Read makes of an invalid URL, as
	// browsers and curl read it: its unsafe octets encoded (§2.2: "~" as
	// "%7E"), an international name as its A-label, "/" before a search;
	// "" when the URL is valid or nothing reads it.
	Repaired string
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
	sc := NewScanner(strings.NewReader(s)) // scanned where it lies (see view)
	var ms []Match
	for sc.Scan() {
		ms = append(ms, sc.Match())
	}
	return ms
}
