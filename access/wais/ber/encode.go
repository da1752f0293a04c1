package ber

import "errors"

// Append appends the BER encoding of e to dst. Lengths are definite and
// minimal (X.690 §8.1.3.5, as DER would write them) unless e.Indefinite is
// set on a constructed element, which is then written with the indefinite
// form and closed with end-of-contents (§8.1.3.6). Tag numbers of 31 and
// up use the high-tag-number form (§8.1.2.4).
func Append(dst []byte, e Element) []byte {
	dst = appendIdentifier(dst, e)
	if e.Constructed && e.Indefinite {
		dst = append(dst, 0x80)
		for _, c := range e.Children {
			dst = Append(dst, c)
		}
		return append(dst, 0, 0)
	}
	dst = appendLength(dst, contentsSize(e))
	if !e.Constructed {
		return append(dst, e.Value...)
	}
	for _, c := range e.Children {
		dst = Append(dst, c)
	}
	return dst
}

// Marshal returns the BER encoding of e. It reports an error only for an
// element too large to be described by a 31-bit length.
func Marshal(e Element) ([]byte, error) {
	n := size(e)
	if n < 0 || n > 1<<31-1 {
		return nil, errors.New("ber: element too large to encode")
	}
	return Append(make([]byte, 0, n), e), nil
}

func appendIdentifier(dst []byte, e Element) []byte {
	id := byte(e.Class&3) << 6
	if e.Constructed {
		id |= 0x20
	}
	if e.Tag < 31 {
		return append(dst, id|byte(e.Tag))
	}
	return appendBase128(append(dst, id|0x1f), uint64(e.Tag))
}

func appendLength(dst []byte, n int) []byte {
	if n < 0x80 {
		return append(dst, byte(n))
	}
	k := 0
	for x := n; x != 0; x >>= 8 {
		k++
	}
	dst = append(dst, 0x80|byte(k))
	for i := k - 1; i >= 0; i-- {
		dst = append(dst, byte(n>>(8*uint(i))))
	}
	return dst
}

func identifierSize(e Element) int {
	if e.Tag < 31 {
		return 1
	}
	n := 2
	for x := e.Tag >> 7; x != 0; x >>= 7 {
		n++
	}
	return n
}

func lengthSize(n int) int {
	if n < 0x80 {
		return 1
	}
	k := 1
	for x := n; x != 0; x >>= 8 {
		k++
	}
	return k
}

func contentsSize(e Element) int {
	if !e.Constructed {
		return len(e.Value)
	}
	n := 0
	for _, c := range e.Children {
		n += size(c)
	}
	return n
}

// size is the number of octets Append writes for e.
func size(e Element) int {
	if e.Constructed && e.Indefinite {
		return identifierSize(e) + 1 + contentsSize(e) + 2
	}
	n := contentsSize(e)
	return identifierSize(e) + lengthSize(n) + n
}
