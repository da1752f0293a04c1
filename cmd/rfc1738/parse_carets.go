package main

import (
	"fmt"
	"io"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/charmbracelet/x/ansi"
	"github.com/rfc1738/rfc1738"
	"github.com/rfc1738/rfc1738/access"
	"github.com/rfc1738/rfc1738/internal/safetext"
)

// writeCaret shows one diagnostic under a window of the input, a caret
// under its offset.
func writeCaret(w io.Writer, in, severity string, d rfc1738.Diagnostic) {
	shown, col := window(in, d.Offset)
	fmt.Fprintf(w, "  %s\n  %s^\n  %s at offset %d: %s: %s\n", shown, strings.Repeat(" ", col), severity, d.Offset, d.Rule, d.Message)
}

// maxShownDiagnostics is how many diagnostics of one kind a report shows;
// the rest are counted. With a bounded window per diagnostic, the output
// for any input stays a small multiple of the input. It is the number
// rfc1738.Check keeps, so what Check counts without keeping is never
// needed here.
const maxShownDiagnostics = rfc1738.MaxDiagnostics

// writeCarets writes the first maxShownDiagnostics of ds with writeCaret,
// then "and N more", counting the more that Check found but did not keep.
func writeCarets(w io.Writer, in, severity string, ds []rfc1738.Diagnostic, more int) {
	for i, d := range ds {
		if i == maxShownDiagnostics {
			more += len(ds) - i
			break
		}
		writeCaret(w, in, severity, d)
	}
	if more > 0 {
		fmt.Fprintf(w, "  and %d more %s(s)\n", more, severity)
	}
}

// The window of the input a caret line shows: this many bytes before the
// offset and after it.
const windowBefore, windowAfter = 32, 40

// window renders, as display does, the part of s around off that a caret
// line shows, with "…" where it was cut, and returns the column of off.
func window(s string, off int) (string, int) {
	start, end := max(0, min(off, len(s))-windowBefore), min(len(s), max(off, 0)+windowAfter)
	// The window does not cut a character in two.
	for start > 0 && !utf8.RuneStart(s[start]) && start > off-windowBefore-3 {
		start--
	}
	for end < len(s) && !utf8.RuneStart(s[end]) && end < off+windowAfter+3 {
		end++
	}
	shown, col := display(s[start:end], off-start)
	if start > 0 {
		shown, col = "…"+shown, col+1 // one column on a terminal
	}
	if end < len(s) {
		shown += "…"
	}
	return shown, col
}

// display renders s on one line and returns the column at which the byte
// at offset off appears (the column of the character that holds it). A
// letter, digit, punctuation mark or symbol beyond US-ASCII is shown as it
// is, as the user wrote it ("bücher"), and counts the columns a terminal
// gives it (two for a wide character); every other byte that is not
// graphic ASCII, invalid UTF-8 included, is shown as a Go escape (\t,
// \x00, \xe6), so that no control, mark or bidirectional override reaches
// the terminal.
func display(s string, off int) (string, int) {
	var b strings.Builder
	col, cols := -1, 0
	for i := 0; i < len(s); {
		r, size := utf8.DecodeRuneInString(s[i:])
		if size > 1 && unicode.In(r, unicode.L, unicode.N, unicode.P, unicode.S) {
			if off >= i && off < i+size {
				col = cols
			}
			b.WriteString(s[i : i+size])
			cols += max(ansi.StringWidth(s[i:i+size]), 1)
			i += size
			continue
		}
		for k, c := range []byte(s[i : i+size]) {
			if i+k == off {
				col = cols
			}
			n := b.Len()
			switch {
			case c == '\t':
				b.WriteString(`\t`)
			case c == '\r':
				b.WriteString(`\r`)
			case c == '\n':
				b.WriteString(`\n`)
			case c < ' ' || c >= 0x7f:
				fmt.Fprintf(&b, `\x%02x`, c)
			default:
				b.WriteByte(c)
			}
			cols += b.Len() - n
		}
		i += size
	}
	if col < 0 {
		col = cols
	}
	return b.String(), col
}

// writeReading names the real cause of an invalid URL that browsers and
// curl read all the same (an IPv6 literal, an international name, a
// search with no path), and the URL they use, which get acts on.
func writeReading(w io.Writer, in string) {
	read, deps, err := rfc1738.Read(in)
	if err != nil {
		return
	}
	for _, d := range deps {
		if d.Refusal != "" {
			fmt.Fprintf(w, "  cause: %s\n", safetext.Escape(d.Refusal))
		}
	}
	fmt.Fprintf(w, "  browsers and curl read it as %s (get and linkcheck act on that)\n", shownURL(read.String()))
}

// shownURL shows a URL in a message: password redacted, escaped, and a
// window of it when long (output bounded by the input).
func shownURL(s string) string {
	r := access.Redact(s)
	if len(r) > 256 {
		shown, _ := window(r, 0)
		return shown
	}
	return safetext.Escape(r)
}
