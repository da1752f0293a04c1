// Package safetext makes text from a network peer safe to print: control
// characters and bidirectional overrides become Go escapes, so a hostile
// reply cannot move the cursor, clear the screen, forge log lines or
// reorder what a line shows.
package safetext

import (
	"fmt"
	"strconv"
	"strings"
	"unicode/utf8"
)

// Escape returns s with every control character (C0, DEL, C1) and every
// bidirectional embedding, override or isolate (U+202A–202E, U+2066–2069)
// written as a Go escape (\r, \x1b, \u009b, \u202e) and every byte of
// invalid UTF-8 as \xNN; other text is unchanged. It returns s itself when nothing needs escaping.
func Escape(s string) string { return escape(s, false) }

// Line is Escape for a protocol line shown as it is sent or received (a
// trace, a plan): it keeps TAB, which separates the fields of a gopher
// line and moves no further than the next tab stop, and escapes every
// other control character.
func Line(s string) string { return escape(s, true) }

func escape(s string, keepTab bool) string {
	i := 0
	for i < len(s) {
		r, size := utf8.DecodeRuneInString(s[i:])
		if unsafe(r, size) && !(keepTab && r == '\t') {
			break
		}
		i += size
	}
	if i == len(s) {
		return s
	}
	var b strings.Builder
	b.WriteString(s[:i])
	for i < len(s) {
		r, size := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == utf8.RuneError && size == 1:
			fmt.Fprintf(&b, `\x%02x`, s[i])
		case unsafe(r, size) && !(keepTab && r == '\t'):
			q := strconv.QuoteRune(r)
			b.WriteString(q[1 : len(q)-1])
		default:
			b.WriteString(s[i : i+size])
		}
		i += size
	}
	return b.String()
}

func unsafe(r rune, size int) bool {
	return r < 0x20 || r == 0x7f || (r >= 0x80 && r < 0xa0) || (r == utf8.RuneError && size == 1) || bidi(r)
}

// bidi reports whether r is one of Unicode's explicit directional
// formatting characters (UAX #9 §2: embeddings and overrides U+202A–202E,
// isolates U+2066–2069). A peer's name that holds one reorders the rest
// of the terminal line it is printed on ("Trojan Source", CVE-2021-42574):
// a file called "txt.\u202eexe" reads as "exe.txt".
func bidi(r rune) bool {
	return r >= 0x202a && r <= 0x202e || r >= 0x2066 && r <= 0x2069
}
