package rfc1738

// The one-pass readers of the commonest forms: span runs over a set of
// octets, hostnameEnd over a §5 hostname, eight or 64 octets a step, and
// validFile reads a file URL for Valid. The rule-by-rule reading of
// parse.go, host.go and schemepart.go explains whatever they refuse.

import (
	"math/bits"
	"strings"

	"github.com/rfc1738/rfc1738/internal/cpuid"
)

// validFile is Valid's fast path for a file URL whose scheme ends at
// colon: true when the URL has a host name or none, and a path with no ";"
// (§5 fileurl = "file://" [ host | "localhost" ] "/" fpath), then maybe a
// fragment. It reports false for anything else (a hostnumber, a ";", a
// violation), which Parse then reads rule by rule.
func validFile(s string, colon int) bool {
	if !strings.HasPrefix(s[colon+1:], "//") {
		return false
	}
	h := hostnameEnd(s, colon+3, len(s))
	if h == -1 || h >= len(s) || s[h] != '/' { // hostnameEnd: -1 or an index
		return false
	}
	e := span(s, h+1, len(s), fpathOctets)
	return e == len(s) || s[e] == '#' && span(s, e+1, len(s), xcharOctets) == len(s)
}

// span returns the index of the first byte of s[i:j] that is neither an
// octet of set nor part of a well-formed escape, or j. With vector,
// spanBlocks reads 64 octets a step. Without, eight octets are looked up
// at a time, with one test for the eight: most bytes of a URL are plain,
// and a branch per byte costs more than the look-ups.
//
// The last few octets are read as the last 8 before j (the ones before i
// among them, when all 8 are in set, change nothing): one test, not a
// branch per octet. Only when that fails are they taken one by one.
func span(s string, i, j int, set *octets) int {
	if vectorFor(s) {
		// spanBlocks finds the first octet not in set; it ends the span
		// unless it begins a well-formed escape, after which the search
		// goes on.
		for {
			k := spanBlocks(s, i, j, set.nibbles())
			if k+2 < j && s[k] == '%' && isHex(s[k+1]) && isHex(s[k+2]) {
				i = k + 3
				continue
			}
			return k
		}
	}
	// (The tests of tail and len(t) < 8 only decide when the one test is
	// tried; at j == 8 or len(t) == 8 trying it or not gives the same.)
	t := s[i:j]
	tail := j >= 8 // the last 8 octets before j have not been tried at once
	for len(t) > 0 {
		for len(t) >= 8 && set[t[0]]&set[t[1]]&set[t[2]]&set[t[3]]&set[t[4]]&set[t[5]]&set[t[6]]&set[t[7]] != 0 {
			t = t[8:]
		}
		if len(t) == 0 {
			break
		}
		if tail && len(t) < 8 {
			if all8(s[j-8:], set) {
				return j
			}
			tail = false
		}
		if c := t[0]; set[c] != 0 {
			t = t[1:]
		} else if c == '%' && len(t) > 2 && isHex(t[1]) && isHex(t[2]) {
			t = t[3:]
		} else {
			return j - len(t)
		}
	}
	return j
}

// vectorFor reports whether the kernels read s: vector is true, and s has
// the 32 octets they read at once.
func vectorFor(s string) bool {
	return vector && len(s) >= 32
}

// all8 reports whether the first 8 octets of s are all in set.
func all8(s string, set *octets) bool {
	_ = s[7]
	return set[s[0]]&set[s[1]]&set[s[2]]&set[s[3]]&set[s[4]]&set[s[5]]&set[s[6]]&set[s[7]] != 0
}

// hostnameEnd reads a §5 hostname from s[i:end], maybe empty, in one pass,
// and returns where it ends: at end or at a byte that cannot be part of a
// host name. It returns -1 when what it read is not a hostname (a label
// that starts or ends with '-', an empty label, a hostnumber), which host
// then explains.
//
//	hostname    = *[ domainlabel "." ] toplabel
//	domainlabel = alphadigit | alphadigit *[ alphadigit | "-" ] alphadigit
//	toplabel    = alpha | alpha *[ alphadigit | "-" ] alphadigit
//
// It reads 8 octets at a time (hosts average 17): one word classifies
// them all, letters, digits, '-' and '.', and the label rules are tests
// of the '.' and '-' masks shifted by one octet: no '.' or '-' after a
// '.' (nor first), no '.' after a '-'.
func hostnameEnd(s string, i, end int) int {
	if i == end || s[i] == '/' {
		return i // no host at all, as in file:///x: no word to read
	}
	if vectorFor(s) {
		j, _ := hostnameEndVector(s, i, end)
		return j
	}
	if end < 8 { // (at end == 8 both readings give the same)
		// Fewer than 8 octets in all: read behind 8 zeros, so that every
		// word below is 8 octets of the input.
		var b [16]byte
		copy(b[8:], s[:end])
		j := hostnameEnd(string(b[:8+end]), 8+i, 8+end)
		if j == -1 {
			return -1
		}
		return j - 8
	}
	var dotBefore, dashBefore uint64 = 1, 0 // the octet before: a '.' before the first
	lastStart := i                          // where the last label starts
	for k := i; ; k += 8 {
		// s[k:k+8], zero at and after end: near the end, the last 8
		// octets, shifted (by 64 bits or more, to 0, when k ≥ end).
		w := le64(s[min(k, end-8):]) >> (8 * max(k+8-end, 0))
		x := w &^ hi8 // octets ≥ 0x80 are no host octets: their high bit is dropped, then tested below
		// '-' (0x2d) and '.' (0x2e), told apart by their lowest bit; '0'
		// to '9' (0x30-0x39); letters in either case.
		punct := between(x, '-', '.')
		host := between(x|lo8*0x20, 'a', 'z') | between(x, '0', '9') | punct
		stop := (^host | w) & hi8 // the high bit of each octet that ends the host
		n := 8                    // the host's octets in w
		if stop != 0 {
			n = bits.TrailingZeros64(stop) / 8
			punct &= uint64(1)<<(8*n) - 1
		}
		dash := punct & (w << 7)
		dot := punct &^ dash
		if (dot<<8|dotBefore<<7)&punct != 0 || (dash<<8|dashBefore<<7)&dot != 0 {
			return -1 // an empty label, a label that starts or ends with '-'
		}
		if dot != 0 {
			lastStart = k + (63-bits.LeadingZeros64(dot))/8 + 1
		}
		if n < 8 {
			return hostnameLast(s, i, k+n, lastStart)
		}
		dotBefore, dashBefore = dot>>63, dash>>63
	}
}

// hostnameLast is hostnameEnd's last test, of the host s[i:j] whose last
// label starts at lastStart, the labels before it checked.
func hostnameLast(s string, i, j, lastStart int) int {
	// (If chains, not a switch: Go's coverage counts a case's condition
	// only through its body.)
	if j == i {
		return i // no host at all
	}
	if s[j-1] == '.' || s[j-1] == '-' {
		return -1 // an empty last label, or one that ends with '-'
	}
	if classes[s[lastStart]]&classAlpha == 0 {
		// §3.1: a last label that starts with a digit makes a hostnumber.
		return -1
	}
	return j
}

// hostnameEndVector is hostnameEnd 64 octets a step, with the same tests
// on masks64's masks, bit t for octet t of the step: the host's octets
// end at the first stop; no '.' or '-' after a '.' (nor first), no '.'
// after a '-'. It needs len(s) ≥ 32. It also returns masks64's xchar
// stops of its first step, s[i:i+64], for xcharEnd.
func hostnameEndVector(s string, i, end int) (int, uint64) {
	var dotBefore, dashBefore uint64 = 1, 0 // the octet before: a '.' before the first
	lastStart := i                          // where the last label starts
	stop, dot, dash, xstop := masks64(s, i)
	for k := i; ; k += 64 {
		stop |= ^uint64(0) << (end - k) // the octets from end on (none when end-k ≥ 64)
		n := bits.TrailingZeros64(stop) // the host's octets in the step
		host := uint64(1)<<n - 1        // (all 64 when n is 64)
		dot &= host
		dash &= host
		if (dot<<1|dotBefore)&(dot|dash) != 0 || (dash<<1|dashBefore)&dot != 0 {
			return -1, xstop // an empty label, a label that starts or ends with '-'
		}
		if dot != 0 {
			lastStart = k + 64 - bits.LeadingZeros64(dot)
		}
		if n < 64 {
			return hostnameLast(s, i, k+n, lastStart), xstop
		}
		dotBefore, dashBefore = dot>>63, dash>>63
		stop, dot, dash, _ = masks64(s, k+64)
	}
}

// masks64 returns blocks64's masks of s[i:i+64], bit t for s[i+t], the
// octets past the end of s counted as stops (in neither set). It needs
// len(s) ≥ 32 and i ≤ len(s): near the end of s it reads the last 64
// octets, or, when s is shorter, its first and last 32, and shifts.
func masks64(s string, i int) (stop, dot, dash, xstop uint64) {
	n := len(s)
	a := min(i, max(n-64, 0)) // where the 64 octets read start: i, or as late as s allows
	b := min(a+32, n-32)
	stop, dot, dash, xstop = blocks64(s, a, b, b-a, hostOctets.nibbles(), xcharOctets.nibbles())
	past := ^uint64(0) << n // the octets from the end of s on: only when s is shorter than 64 and a is 0
	sh := i - a
	fill := ^(^uint64(0) >> sh) // the octets shifted in: past the end of s
	return (stop|past)>>sh | fill, dot >> sh, dash >> sh, (xstop|past)>>sh | fill
}

// xcharEnd is span(s, i, len(s), xcharOctets), the end of an urlpath
// (§5 *xchar) that starts at i, given xstop, the xchar stops of
// s[h:h+64] (h ≤ i) that hostnameEndVector returned, which generic calls
// when vectorFor(s).
func xcharEnd(s string, i, h int, xstop uint64) int {
	if !vectorFor(s) {
		return span(s, i, len(s), xcharOctets)
	}
	// The stops from i on; those past h+64 are not known (0), nor any
	// when i is past h+64 (a shift by 64 or more leaves 0).
	if x := xstop >> (i - h); x != 0 {
		k := i + bits.TrailingZeros64(x)
		if k < len(s) && s[k] == '%' {
			return span(s, k, len(s), xcharOctets) // an escape goes on; a bad one span reports
		}
		return k
	}
	// No stop known: a path that runs past h+64 (rare: a URL of more
	// than 70 octets or so) is read from i again.
	return span(s, i, len(s), xcharOctets)
}

// Eight octets in a word, the first lowest; lo8*c repeats c in each.
const (
	lo8 = 0x0101010101010101
	hi8 = 0x8080808080808080
)

// le64 returns the first 8 octets of s as a word, the first lowest (one
// load: the compiler joins the eight).
func le64(s string) uint64 {
	_ = s[7]
	return uint64(s[0]) | uint64(s[1])<<8 | uint64(s[2])<<16 | uint64(s[3])<<24 |
		uint64(s[4])<<32 | uint64(s[5])<<40 | uint64(s[6])<<48 | uint64(s[7])<<56
}

// between marks with its high bit each octet of x, all below 0x80, that
// is in [lo, hi].
func between(x uint64, lo, hi byte) uint64 {
	return (x + lo8*uint64(0x80-lo)) &^ (x + lo8*uint64(0x7f-hi)) & hi8
}

// validHostname reports, in one pass, whether s is a §5 hostname. It is
// the fast path of host; host explains any failure, hostnumbers included.
func validHostname(s string) bool {
	prev := byte('.') // the byte before s[k]; a label may not start after '.' with '-'
	lastStart := 0
	for k := 0; k < len(s); k++ {
		c := s[k]
		if c == '.' {
			if prev == '.' || prev == '-' {
				return false
			}
			lastStart = k + 1
		} else if classes[c]&classAlphadigit == 0 && (c != '-' || prev == '.') {
			return false
		}
		prev = c
	}
	return prev != '.' && prev != '-' && classes[s[lastStart]]&classAlpha != 0
}

func digitsAndDots(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] != '.' && classes[s[i]]&classDigit == 0 {
			return false
		}
	}
	return true
}

// vector is whether span, hostnameEnd and generic read 64 octets a step
// with the AVX2 kernels of span_amd64.s (spanBlocks, blocks64), when s has
// at least 32 octets (the kernels read 32 at once, the last 32 of s near
// its end). It is false off amd64 and with the purego build tag; the tests
// turn it off to compare the two readings. (A span of a few octets gains
// nothing from it, and loses nothing measurable: the datasets' figures are
// the same whether the kernels start at spans of 1 octet or of 16.)
var vector = cpuid.AVX2
