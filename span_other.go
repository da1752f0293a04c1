//go:build !amd64 || purego

package rfc1738

// span_amd64.s's kernels, octet by octet through the same nibble tables.
// vector is false here, so the parser never calls them; the tests do, so
// that what the kernels are to do is checked on every architecture.

func spanBlocks(s string, i, j int, t *[32]byte) int {
	for ; i < j; i++ {
		if !inNibbles(t, s[i]) {
			return i
		}
	}
	return j
}

func blocks64(s string, a, b, k int, host, xchar *[32]byte) (stop, dot, dash, xstop uint64) {
	mark := func(c byte, bit uint64) {
		if !inNibbles(host, c) {
			stop |= bit
		}
		if !inNibbles(xchar, c) {
			xstop |= bit
		}
		if c == '.' {
			dot |= bit
		}
		if c == '-' {
			dash |= bit
		}
	}
	for t := range 32 {
		mark(s[a+t], 1<<t)
		mark(s[b+t], 1<<(k+t))
	}
	return stop, dot, dash, xstop
}

// inNibbles is VPSHUFB's test: whether c is in the set whose nibble tables
// t holds.
func inNibbles(t *[32]byte, c byte) bool {
	return c < 0x80 && t[c&15]&t[16+c>>4] != 0
}
