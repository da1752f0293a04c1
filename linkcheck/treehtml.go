package linkcheck

import (
	"bytes"
	"strings"
)

// MaxToken bounds one token (a tag, or a run of text) of an HTML document
// of a tree; a document with a larger one is read up to it, and the rest
// is reported as not read.
const MaxToken = 16 << 20

// A docLink is a reference found in a document of a tree: its text as
// written (entities decoded) and where it starts.
type docLink struct {
	ref       string
	offset    int64
	line, col int
}

// A docScan is what reading a document found: its links in document
// order, its first <base href>, and the anchors its fragments can name.
type docScan struct {
	links    []docLink
	base     string
	haveBase bool
	ids      anchors
}

// position counts lines and byte columns, from 1, over a stream read in
// pieces.
type position struct {
	off       int64 // of the next piece
	line      int
	lineStart int64 // offset of the current line's first byte
}

var nl = []byte{'\n'}

func leadingSpace(s string) int { return len(s) - len(strings.TrimLeft(s, " \t\r\n\f")) }

func isSpace(c byte) bool { return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' }

// srcsetURLs calls f with each image URL of a srcset attribute and its
// index in v (HTML §4.8.4.2.2 "parse a srcset attribute": a URL ends at
// white space; commas at its end are not part of it).
func srcsetURLs(v string, f func(ref string, i int)) {
	i := 0
	for i < len(v) {
		for i < len(v) && (isSpace(v[i]) || v[i] == ',') {
			i++
		}
		if i >= len(v) {
			return
		}
		s := i
		for i < len(v) && !isSpace(v[i]) {
			i++
		}
		u := v[s:i]
		trimmed := strings.TrimRight(u, ",")
		if trimmed != "" {
			f(trimmed, s)
		}
		if len(trimmed) < len(u) {
			continue // no descriptors
		}
		for depth := 0; i < len(v); i++ {
			switch v[i] {
			case '(':
				depth++
			case ')':
				depth--
			case ',':
				if depth <= 0 {
					goto next
				}
			}
		}
	next:
	}
}

// refreshURL returns the URL of a <meta http-equiv=refresh> content
// (HTML §4.2.5.3 "refresh": a number, then ";" or ",", then optionally
// "url=", the URL quoted or not) and its index.
func refreshURL(v string) (string, int, bool) {
	i := 0
	for i < len(v) && (isSpace(v[i]) || v[i] >= '0' && v[i] <= '9' || v[i] == '.') {
		i++
	}
	if i >= len(v) || v[i] != ';' && v[i] != ',' {
		return "", 0, false
	}
	i++
	for i < len(v) && isSpace(v[i]) {
		i++
	}
	if len(v)-i >= 3 && strings.EqualFold(v[i:i+3], "url") {
		j := i + 3
		for j < len(v) && isSpace(v[j]) {
			j++
		}
		if j < len(v) && v[j] == '=' {
			i = j + 1
			for i < len(v) && isSpace(v[i]) {
				i++
			}
		}
	}
	end := len(v)
	if i < len(v) && (v[i] == '"' || v[i] == '\'') {
		q := v[i]
		i++
		if j := strings.IndexByte(v[i:], q); j >= 0 {
			end = i + j
		}
	}
	u := strings.TrimSpace(v[i:end])
	return u, i, u != ""
}

// cssURLs calls f with each url() and @import string of the CSS s
// (CSS Syntax §4.3.6 "consume a url token", CSS Cascade §2 "@import"),
// and its index in s; comments and other strings are passed over.
func cssURLs(s []byte, f func(ref string, i int)) {
	str := func(i int) (int, int) { // s[i] is a quote: the string's body and the index past it
		q := s[i]
		j := i + 1
		for j < len(s) && s[j] != q && s[j] != '\n' {
			if s[j] == '\\' {
				j++
			}
			j++
		}
		return min(j, len(s)), min(j+1, len(s))
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c == '/' && i+1 < len(s) && s[i+1] == '*':
			j := bytes.Index(s[i+2:], []byte("*/"))
			if j < 0 {
				return
			}
			i += j + 3
		case c == '"' || c == '\'':
			_, next := str(i)
			i = next - 1
		case c == '@' && len(s)-i >= 7 && bytes.EqualFold(s[i:i+7], []byte("@import")):
			j := i + 7
			for j < len(s) && isSpace(s[j]) {
				j++
			}
			if j < len(s) && (s[j] == '"' || s[j] == '\'') {
				end, next := str(j)
				if u := string(s[j+1 : end]); u != "" {
					f(u, j+1)
				}
				i = next - 1
			} else {
				i = j - 1
			}
		case (c == 'u' || c == 'U') && len(s)-i >= 4 && bytes.EqualFold(s[i:i+4], []byte("url(")) &&
			(i == 0 || !isIdent(s[i-1])):
			j := i + 4
			for j < len(s) && isSpace(s[j]) {
				j++
			}
			if j < len(s) && (s[j] == '"' || s[j] == '\'') {
				end, next := str(j)
				if u := string(s[j+1 : end]); u != "" {
					f(u, j+1)
				}
				i = next - 1
				continue
			}
			k := j
			for k < len(s) && s[k] != ')' && !isSpace(s[k]) {
				k++
			}
			if k > j {
				f(string(s[j:k]), j)
			}
			i = k - 1
		}
	}
}

func isIdent(c byte) bool {
	return c == '-' || c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c >= 0x80
}
