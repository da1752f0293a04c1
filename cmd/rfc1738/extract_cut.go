package main

import (
	"bytes"

	"github.com/rfc1738/rfc1738/extract"
)

// Where a text in memory may be cut so that a scan of each piece, started
// afresh, finds what a scan of the whole finds, line and column alike
// (extract's scanner, as pipeline/cut.go reads it): at a line start p
// (data[p-1] is '\n')
//
//   - that no bare URL runs over: it stops at the line break unless a
//     hyphen stands right before the whitespace around it — an ASCII '-'
//     (Appendix: the URL may go on after the break) or the last octet of
//     U+2010 or U+00AD (the typesetter's, dropped) — and that whitespace
//     holds one line break, not a blank line;
//   - that no wrapper <URL:…> or <…> is open across: the last '<' within
//     a wrapper's reach before p is closed by a '>', or followed by a
//     blank line, before p (a wrapper ends at its '>', and is none when a
//     '<' or a blank line comes first);
//   - with no bracket within the scanner's look-back before p: it counts
//     the brackets left open before a bare URL ("(see http://a.org/x)").
//
// A match never starts in one piece and ends in the next, and a piece
// starts at column 1 on the line its offset's newlines say.
const (
	cutLookback = 512                             // more than the scanner's look-back (256)
	cutReach    = extract.DefaultMaxLength + 1024 // more than a wrapper's reach
)

// extractCuts returns the places where data is cut into pieces of about
// piece bytes: safe places (cutSafe), increasing, neither 0 nor len(data).
// A place is looked for from each piece's end on, over at most half a
// piece; where none is found there, the piece runs on to the next.
func extractCuts(data []byte, piece int) []int {
	var cuts []int
	last := 0
	for at := piece; at+piece/2 < len(data); {
		p := cutNear(data, max(at, last+1), min(at+piece/2, len(data)))
		if p == -1 {
			at += piece
			continue
		}
		cuts = append(cuts, p)
		last, at = p, p+piece
	}
	return cuts
}

// cutNear returns the first safe place at or after from and before to,
// or -1.
func cutNear(data []byte, from, to int) int {
	for p := from; p < to; {
		k := bytes.IndexByte(data[p-1:to], '\n')
		if k == -1 {
			return -1
		}
		p += k // data[p-1] is '\n'
		if p >= len(data) {
			return -1
		}
		next, ok := cutSafe(data, p)
		if ok {
			return p
		}
		p = max(next, p+1)
	}
	return -1
}

// cutSafe reports whether data may be cut at the line start p, and if
// not, the first place after p worth trying.
func cutSafe(data []byte, p int) (int, bool) {
	// Brackets in the look-back: try again past the last of them.
	lo := max(0, p-cutLookback)
	if k := lastBracket(data[lo:p]); k >= 0 {
		return lo + k + cutLookback + 1, false
	}
	// The whitespace around the line break, and the octet before it.
	a, breaks := p, 0
	for a > 0 && isSpace(data[a-1]) {
		a--
		if data[a] == '\n' {
			breaks++
		}
	}
	for k := p; k < len(data) && isSpace(data[k]); k++ {
		if data[k] == '\n' {
			breaks++
		}
	}
	if breaks < 2 && a > 0 && (data[a-1] == '-' || data[a-1] >= 0x80) {
		return p + 1, false
	}
	// The last '<' within reach: closed, or cut off by a blank line.
	lo = max(0, p-cutReach)
	if k := bytes.LastIndexByte(data[lo:p], '<'); k >= 0 {
		rest := data[lo+k+1 : p]
		if bytes.IndexByte(rest, '>') == -1 && !blankLine(rest) {
			return p + 1, false
		}
	}
	return 0, true
}

// lastBracket returns the index of the last of "()[]{}" in b, or -1.
func lastBracket(b []byte) int {
	for k := len(b) - 1; k >= 0; k-- {
		switch b[k] {
		case '(', ')', '[', ']', '{', '}':
			return k
		}
	}
	return -1
}

// isSpace is the scanner's whitespace (the Appendix's, in a wrapper).
func isSpace(c byte) bool {
	switch c {
	case ' ', '\t', '\r', '\n', '\f', '\v':
		return true
	}
	return false
}

// blankLine reports whether b holds two line breaks with only whitespace
// between them.
func blankLine(b []byte) bool {
	for k := bytes.IndexByte(b, '\n'); k != -1; {
		j := k + 1
		for j < len(b) && isSpace(b[j]) && b[j] != '\n' {
			j++
		}
		if j < len(b) && b[j] == '\n' {
			return true
		}
		n := bytes.IndexByte(b[j:], '\n')
		if n == -1 {
			return false
		}
		k = j + n
	}
	return false
}
