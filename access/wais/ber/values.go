package ber

import (
	"fmt"
	"math/bits"
)

// This file turns the contents of decoded Elements into Go values and Go
// values into Elements. Getters check the tag's form (primitive or
// constructed) but not its number: Z39.50 tags nearly every field
// [n] IMPLICIT, so the caller knows which type to expect.

func (e *Element) wantPrimitive(what string) error {
	if e.Constructed {
		return fmt.Errorf("ber: %s %s is constructed, want primitive", what, e.TagString())
	}
	return nil
}

// Int decodes an INTEGER (or ENUMERATED) of up to 64 bits (X.690 §8.3).
func (e *Element) Int() (int64, error) {
	if err := e.wantPrimitive("INTEGER"); err != nil {
		return 0, err
	}
	v := e.Value
	switch {
	case len(v) == 0:
		return 0, fmt.Errorf("ber: INTEGER %s has no contents octets", e.TagString())
	case len(v) > 8:
		return 0, fmt.Errorf("ber: INTEGER %s has %d octets, more than 64 bits", e.TagString(), len(v))
	case len(v) > 1 && (v[0] == 0 && v[1]&0x80 == 0 || v[0] == 0xff && v[1]&0x80 != 0):
		// §8.3.2: the first nine bits shall not be all zeros or all ones.
		return 0, fmt.Errorf("ber: INTEGER %s is not minimally encoded", e.TagString())
	}
	var n int64
	if v[0]&0x80 != 0 {
		n = -1
	}
	for _, b := range v {
		n = n<<8 | int64(b)
	}
	return n, nil
}

// Bool decodes a BOOLEAN (X.690 §8.2: one octet, any non-zero is TRUE).
func (e *Element) Bool() (bool, error) {
	if err := e.wantPrimitive("BOOLEAN"); err != nil {
		return false, err
	}
	if len(e.Value) != 1 {
		return false, fmt.Errorf("ber: BOOLEAN %s has %d contents octets, want 1", e.TagString(), len(e.Value))
	}
	return e.Value[0] != 0, nil
}

// Null checks a NULL (X.690 §8.8: no contents octets).
func (e *Element) Null() error {
	if err := e.wantPrimitive("NULL"); err != nil {
		return err
	}
	if len(e.Value) != 0 {
		return fmt.Errorf("ber: NULL %s has %d contents octets", e.TagString(), len(e.Value))
	}
	return nil
}

// Bytes decodes an OCTET STRING or a restricted character string
// (VisibleString, GeneralString, …), primitive or constructed (X.690
// §8.7.3: the segments of a constructed string are themselves OCTET
// STRINGs, which may again be constructed). A primitive string shares the
// input's memory; a constructed one is joined into a new slice no longer
// than the input.
func (e *Element) Bytes() ([]byte, error) {
	if !e.Constructed {
		return e.Value, nil
	}
	var out []byte
	var walk func(*Element) error
	walk = func(s *Element) error {
		for i := range s.Children {
			c := &s.Children[i]
			if c.Class != Universal || c.Tag != TagOctetString {
				return fmt.Errorf("ber: segment %s of a constructed string is not an OCTET STRING", c.TagString())
			}
			if c.Constructed {
				if err := walk(c); err != nil {
					return err
				}
				continue
			}
			out = append(out, c.Value...)
		}
		return nil
	}
	if err := walk(e); err != nil {
		return nil, err
	}
	return out, nil
}

// Text decodes a character string as Go text (the bytes, unchanged).
func (e *Element) Text() (string, error) {
	b, err := e.Bytes()
	return string(b), err
}

// OID decodes an OBJECT IDENTIFIER (X.690 §8.19).
func (e *Element) OID() (OID, error) {
	if err := e.wantPrimitive("OBJECT IDENTIFIER"); err != nil {
		return nil, err
	}
	v := e.Value
	if len(v) == 0 {
		return nil, fmt.Errorf("ber: OBJECT IDENTIFIER %s is empty", e.TagString())
	}
	o := make(OID, 0, len(v)+1) // at most one arc per octet, plus the split first one
	var arc uint64
	first := true
	for i, b := range v {
		if arc == 0 && b == 0x80 {
			// §8.19.2: subidentifiers are minimal, no leading 0x80.
			return nil, fmt.Errorf("ber: OBJECT IDENTIFIER %s has a padded subidentifier at octet %d", e.TagString(), i)
		}
		arc = arc<<7 | uint64(b&0x7f)
		if arc > 1<<32-1+80 {
			return nil, fmt.Errorf("ber: OBJECT IDENTIFIER %s has an arc beyond 32 bits", e.TagString())
		}
		if b&0x80 != 0 {
			continue
		}
		if first {
			// §8.19.4: the first subidentifier is 40*X + Y.
			switch {
			case arc < 40:
				o = append(o, 0, uint32(arc))
			case arc < 80:
				o = append(o, 1, uint32(arc-40))
			default:
				o = append(o, 2, uint32(arc-80))
			}
			first = false
		} else {
			if arc > 1<<32-1 {
				return nil, fmt.Errorf("ber: OBJECT IDENTIFIER %s has an arc beyond 32 bits", e.TagString())
			}
			o = append(o, uint32(arc))
		}
		arc = 0
	}
	if v[len(v)-1]&0x80 != 0 {
		return nil, fmt.Errorf("ber: OBJECT IDENTIFIER %s ends inside a subidentifier", e.TagString())
	}
	return o, nil
}

// BitString decodes a primitive BIT STRING (X.690 §8.6.2: an octet that
// counts the unused bits of the last octet, then the bits).
func (e *Element) BitString() (BitString, error) {
	if err := e.wantPrimitive("BIT STRING"); err != nil {
		return BitString{}, err
	}
	v := e.Value
	if len(v) == 0 {
		return BitString{}, fmt.Errorf("ber: BIT STRING %s has no contents octets", e.TagString())
	}
	unused := int(v[0])
	if unused > 7 || len(v) == 1 && unused != 0 {
		return BitString{}, fmt.Errorf("ber: BIT STRING %s has %d unused bits", e.TagString(), unused)
	}
	return BitString{Bytes: v[1:], Length: (len(v)-1)*8 - unused}, nil
}

// Constructors. Each returns an Element ready for Append; the class and
// tag are the caller's (IMPLICIT tagging replaces them, which is what
// Z39.50 does for nearly every field).

// NewInt returns an INTEGER element tagged class/tag.
func NewInt(class Class, tag uint32, n int64) Element {
	return Element{Class: class, Tag: tag, Value: AppendIntContents(nil, n)}
}

// AppendIntContents appends the minimal two's-complement contents octets
// of n (X.690 §8.3.2).
func AppendIntContents(dst []byte, n int64) []byte {
	size := 1
	if n >= 0 {
		size = (bits.Len64(uint64(n)) + 8) / 8
	} else {
		size = (bits.Len64(uint64(^n)) + 8) / 8
	}
	for i := size - 1; i >= 0; i-- {
		dst = append(dst, byte(n>>(8*uint(i))))
	}
	return dst
}

// NewBool returns a BOOLEAN element; TRUE is encoded 0xFF as DER does.
func NewBool(class Class, tag uint32, v bool) Element {
	b := byte(0)
	if v {
		b = 0xff
	}
	return Element{Class: class, Tag: tag, Value: []byte{b}}
}

// NewNull returns a NULL element.
func NewNull(class Class, tag uint32) Element {
	return Element{Class: class, Tag: tag, Value: []byte{}}
}

// NewBytes returns a primitive OCTET STRING (or character string) element.
func NewBytes(class Class, tag uint32, v []byte) Element {
	return Element{Class: class, Tag: tag, Value: v}
}

// NewString is NewBytes for text.
func NewString(class Class, tag uint32, s string) Element {
	return Element{Class: class, Tag: tag, Value: []byte(s)}
}

// NewOID returns an OBJECT IDENTIFIER element. It reports an error for an
// OID with fewer than two arcs or first arcs out of range (§8.19.4).
func NewOID(class Class, tag uint32, o OID) (Element, error) {
	if len(o) < 2 || o[0] > 2 || (o[0] < 2 && o[1] > 39) || uint64(o[0])*40+uint64(o[1]) > 1<<32-1 {
		return Element{}, fmt.Errorf("ber: cannot encode OID %v", o)
	}
	v := appendBase128(nil, uint64(o[0])*40+uint64(o[1]))
	for _, a := range o[2:] {
		v = appendBase128(v, uint64(a))
	}
	return Element{Class: class, Tag: tag, Value: v}, nil
}

// NewBitStringElement returns a primitive BIT STRING element.
func NewBitStringElement(class Class, tag uint32, b BitString) Element {
	n := (b.Length + 7) / 8
	v := make([]byte, 1, 1+n)
	v[0] = byte(n*8 - b.Length)
	v = append(v, b.Bytes[:n]...)
	if n > 0 {
		v[n] &^= byte(1<<v[0]) - 1 // unused bits are zero (§8.6.2.3 for DER; harmless in BER)
	}
	return Element{Class: class, Tag: tag, Value: v}
}

// NewConstructed returns a constructed element holding children, e.g. a
// SEQUENCE (Universal 16) or an EXPLICIT tag around one element.
func NewConstructed(class Class, tag uint32, children ...Element) Element {
	return Element{Class: class, Tag: tag, Constructed: true, Children: children}
}

func appendBase128(dst []byte, v uint64) []byte {
	n := 1
	for x := v >> 7; x != 0; x >>= 7 {
		n++
	}
	for i := n - 1; i >= 0; i-- {
		b := byte(v>>(7*uint(i))) & 0x7f
		if i > 0 {
			b |= 0x80
		}
		dst = append(dst, b)
	}
	return dst
}
