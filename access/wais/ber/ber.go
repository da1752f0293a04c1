// Package ber encodes and decodes the Basic Encoding Rules of ITU-T X.690,
// the transfer syntax of Z39.50 (ANSI/NISO Z39.50-1995 §4.1, "the encoding
// rules are BER") and therefore of WAIS (RFC 1625 §2).
//
// encoding/asn1 implements DER only: it refuses indefinite lengths,
// constructed strings and non-minimal lengths, all of which BER allows and
// Z39.50 targets send. This package decodes the full BER form into a tree of
// Elements and encodes Elements back.
//
// The decoder is written for bytes that come from a peer nobody vouches for:
// every length is checked against the bytes that actually arrived before it
// is used, nesting depth and element count are bounded, nothing is allocated
// on the say-so of a length field, and no input makes it panic. Values of
// decoded Elements share the input's memory.
package ber

import (
	"errors"
	"fmt"
	"strconv"
	"strings"
)

// Class is the class of a tag (X.690 §8.1.2.2, bits 8 and 7 of the
// identifier octet).
type Class uint8

// The four tag classes.
const (
	Universal   Class = 0
	Application Class = 1
	Context     Class = 2
	Private     Class = 3
)

func (c Class) String() string {
	switch c {
	case Universal:
		return "UNIVERSAL"
	case Application:
		return "APPLICATION"
	case Context:
		return "CONTEXT"
	}
	return "PRIVATE"
}

// Universal tag numbers used by Z39.50 (X.680 §8.6).
const (
	TagEOC             = 0
	TagBoolean         = 1
	TagInteger         = 2
	TagBitString       = 3
	TagOctetString     = 4
	TagNull            = 5
	TagOID             = 6
	TagObjectDesc      = 7
	TagExternal        = 8
	TagEnumerated      = 10
	TagSequence        = 16
	TagSet             = 17
	TagVisibleString   = 26
	TagGeneralString   = 27
	maxTagNumber       = 1<<28 - 1 // four base-128 octets
	DefaultMaxDepth    = 64
	defaultMaxElements = 1 << 20
)

// Element is one decoded BER data value: its tag, and either the contents
// octets of a primitive encoding (Value) or the elements nested in a
// constructed one (Children). An Element is also what the encoder takes;
// ANY and EXTERNAL values travel as Elements, uninterpreted.
type Element struct {
	Class       Class
	Constructed bool
	Tag         uint32    // tag number (X.690 §8.1.2)
	Value       []byte    // contents octets of a primitive encoding
	Children    []Element // nested elements of a constructed encoding
	// Indefinite records that the element was (or is to be) encoded with
	// the indefinite length form and end-of-contents octets (X.690 §8.1.3.6).
	Indefinite bool
}

// Is reports whether e has the given class and tag number.
func (e *Element) Is(class Class, tag uint32) bool { return e.Class == class && e.Tag == tag }

// Child returns the first child of e with the given class and tag number.
func (e *Element) Child(class Class, tag uint32) (*Element, bool) {
	for i := range e.Children {
		if e.Children[i].Is(class, tag) {
			return &e.Children[i], true
		}
	}
	return nil, false
}

// TagString names e's tag the way ASN.1 writes it: "[UNIVERSAL 16]",
// "[20]" (context-specific), "[APPLICATION 3]".
func (e *Element) TagString() string {
	if e.Class == Context {
		return "[" + strconv.FormatUint(uint64(e.Tag), 10) + "]"
	}
	return "[" + e.Class.String() + " " + strconv.FormatUint(uint64(e.Tag), 10) + "]"
}

// SyntaxError reports input that is not valid BER, with the byte offset
// (from the start of the decoded buffer) where the problem was found.
type SyntaxError struct {
	Offset int
	Msg    string
}

func (e *SyntaxError) Error() string {
	return "ber: " + e.Msg + " at offset " + strconv.Itoa(e.Offset)
}

// ErrTruncated is wrapped by errors about input that ends before an
// element does; a streaming reader sees it as "need more bytes".
var ErrTruncated = errors.New("truncated")

// TruncatedError reports an element whose header or contents run past the
// end of the input.
type TruncatedError struct {
	Offset int // where the element (or its header field) starts
	Need   int // bytes the element claims, counted from Offset; 0 if unknown
	Have   int // bytes available from Offset
}

func (e *TruncatedError) Error() string {
	if e.Need > 0 {
		return fmt.Sprintf("ber: element at offset %d claims %d bytes, only %d arrived", e.Offset, e.Need, e.Have)
	}
	return fmt.Sprintf("ber: input ends inside the header at offset %d", e.Offset)
}

// Unwrap lets errors.Is(err, ErrTruncated) match.
func (e *TruncatedError) Unwrap() error { return ErrTruncated }

// Limits bounds what Decode accepts. The zero value means the defaults.
type Limits struct {
	MaxDepth    int // nesting depth of constructed elements; default 64
	MaxElements int // total elements in one tree; default 1<<20
}

func (l Limits) depth() int {
	if l.MaxDepth <= 0 {
		return DefaultMaxDepth
	}
	return l.MaxDepth
}

func (l Limits) elements() int {
	if l.MaxElements <= 0 {
		return defaultMaxElements
	}
	return l.MaxElements
}

// Decode decodes the one element at the start of b and returns it with the
// bytes that follow it. It uses the default Limits.
func Decode(b []byte) (Element, []byte, error) { return Limits{}.Decode(b) }

// Decode decodes the one element at the start of b within the limits l.
func (l Limits) Decode(b []byte) (Element, []byte, error) {
	d := decoder{buf: b, maxDepth: l.depth(), budget: l.elements()}
	e, n, err := d.element(0, 0)
	if err != nil {
		return Element{}, b, err
	}
	return e, b[n:], nil
}

// DecodeAll decodes b, which must hold exactly one element.
func DecodeAll(b []byte) (Element, error) {
	e, rest, err := Decode(b)
	if err != nil {
		return e, err
	}
	if len(rest) != 0 {
		return Element{}, &SyntaxError{len(b) - len(rest), fmt.Sprintf("%d bytes after the element", len(rest))}
	}
	return e, nil
}

type decoder struct {
	buf      []byte
	maxDepth int
	budget   int
}

// header is an identifier and a length (X.690 §8.1.2, §8.1.3).
type header struct {
	class       Class
	constructed bool
	tag         uint32
	length      int // -1: indefinite
	size        int // header octets
}

// parseHeader reads the identifier and length octets at b[0:]. off is b's
// offset in the whole input, for error messages. It is shared with the
// streaming Reader.
func parseHeader(b []byte, off int) (header, error) {
	var h header
	if len(b) < 1 {
		return h, &TruncatedError{Offset: off, Have: len(b)}
	}
	id := b[0]
	h.class = Class(id >> 6)
	h.constructed = id&0x20 != 0
	i := 1
	if id&0x1f != 0x1f {
		h.tag = uint32(id & 0x1f)
	} else {
		// X.690 §8.1.2.4: high tag number form, base 128, bit 8 set on all
		// but the last octet; the first octet's bits 7-1 are not all zero.
		var t uint32
		for n := 0; ; n++ {
			if i >= len(b) {
				return h, &TruncatedError{Offset: off, Have: len(b)}
			}
			c := b[i]
			i++
			if n == 0 && c == 0x80 {
				return h, &SyntaxError{off + i - 1, "tag number with a leading zero octet"}
			}
			if t > maxTagNumber>>7 {
				return h, &SyntaxError{off + i - 1, "tag number too large"}
			}
			t = t<<7 | uint32(c&0x7f)
			if c&0x80 == 0 {
				break
			}
		}
		if t < 31 {
			// §8.1.2.4: the long form is for tag numbers 31 and up.
			return h, &SyntaxError{off, fmt.Sprintf("tag number %d in the high-tag-number form", t)}
		}
		h.tag = t
	}
	if i >= len(b) {
		return h, &TruncatedError{Offset: off, Have: len(b)}
	}
	c := b[i]
	i++
	switch {
	case c < 0x80:
		// §8.1.3.4: short form.
		h.length = int(c)
	case c == 0x80:
		// §8.1.3.6: indefinite form, constructed encodings only.
		if !h.constructed {
			return h, &SyntaxError{off, "indefinite length on a primitive element"}
		}
		h.length = -1
	case c == 0xff:
		// §8.1.3.5 c: reserved.
		return h, &SyntaxError{off + i - 1, "reserved length octet 0xff"}
	default:
		// §8.1.3.5: long form; BER allows leading zero octets.
		n := int(c & 0x7f)
		if i+n > len(b) {
			return h, &TruncatedError{Offset: off, Have: len(b)}
		}
		var l uint64
		for _, d := range b[i : i+n] {
			if l > 1<<31>>8 {
				return h, &SyntaxError{off + i, "length does not fit in 31 bits"}
			}
			l = l<<8 | uint64(d)
		}
		if l > 1<<31-1 {
			return h, &SyntaxError{off + i, "length does not fit in 31 bits"}
		}
		i += n
		h.length = int(l)
	}
	h.size = i
	return h, nil
}

// element decodes the element at d.buf[off:]. It returns the element and
// its total encoded size.
func (d *decoder) element(off, depth int) (Element, int, error) {
	if d.budget--; d.budget < 0 {
		return Element{}, 0, &SyntaxError{off, "too many elements"}
	}
	h, err := parseHeader(d.buf[off:], off)
	if err != nil {
		return Element{}, 0, err
	}
	e := Element{Class: h.class, Constructed: h.constructed, Tag: h.tag}
	start := off + h.size
	if h.length >= 0 && h.length > len(d.buf)-start {
		return Element{}, 0, &TruncatedError{Offset: off, Need: h.size + h.length, Have: len(d.buf) - off}
	}
	if !h.constructed {
		e.Value = d.buf[start : start+h.length : start+h.length]
		if h.class == Universal && h.tag == TagEOC {
			return Element{}, 0, &SyntaxError{off, "end-of-contents outside an indefinite-length element"}
		}
		return e, h.size + h.length, nil
	}
	if depth >= d.maxDepth {
		return Element{}, 0, &SyntaxError{off, fmt.Sprintf("nesting deeper than %d", d.maxDepth)}
	}
	if h.length >= 0 {
		end := start + h.length
		p := start
		for p < end {
			sub := decoder{buf: d.buf[:end], maxDepth: d.maxDepth, budget: d.budget}
			c, n, err := sub.element(p, depth+1)
			d.budget = sub.budget
			if err != nil {
				var te *TruncatedError
				if errors.As(err, &te) {
					// The child overruns its parent: that is a syntax
					// error, not a short read.
					return Element{}, 0, &SyntaxError{p, "element overruns the constructed element that holds it"}
				}
				return Element{}, 0, err
			}
			e.Children = append(e.Children, c)
			p += n
		}
		return e, h.size + h.length, nil
	}
	// §8.1.3.6: contents end with the end-of-contents octets 00 00.
	e.Indefinite = true
	p := start
	for {
		if len(d.buf)-p < 2 {
			return Element{}, 0, &TruncatedError{Offset: off, Have: len(d.buf) - off}
		}
		if d.buf[p] == 0 && d.buf[p+1] == 0 {
			p += 2
			break
		}
		c, n, err := d.element(p, depth+1)
		if err != nil {
			return Element{}, 0, err
		}
		e.Children = append(e.Children, c)
		p += n
	}
	return e, p - off, nil
}

// OID is an object identifier (X.690 §8.19), e.g. Bib-1's
// 1.2.840.10003.3.1.
type OID []uint32

// ParseOID parses dotted decimal, "1.2.840.10003.5.101".
func ParseOID(s string) (OID, error) {
	var o OID
	for part := range strings.SplitSeq(s, ".") {
		n, err := strconv.ParseUint(part, 10, 32)
		if err != nil {
			return nil, fmt.Errorf("ber: bad OID %q: %w", s, err)
		}
		o = append(o, uint32(n))
	}
	if len(o) < 2 || o[0] > 2 || (o[0] < 2 && o[1] > 39) {
		return nil, fmt.Errorf("ber: bad OID %q: first arcs out of range", s)
	}
	return o, nil
}

// MustOID is ParseOID for constants; it panics on a malformed literal.
func MustOID(s string) OID {
	o, err := ParseOID(s)
	if err != nil {
		panic(err)
	}
	return o
}

// String returns the dotted decimal form.
func (o OID) String() string {
	var b []byte
	for i, a := range o {
		if i > 0 {
			b = append(b, '.')
		}
		b = strconv.AppendUint(b, uint64(a), 10)
	}
	return string(b)
}

// Equal reports whether o and p are the same OID.
func (o OID) Equal(p OID) bool {
	if len(o) != len(p) {
		return false
	}
	for i := range o {
		if o[i] != p[i] {
			return false
		}
	}
	return true
}

// BitString is a decoded BIT STRING (X.690 §8.6): Bytes holds the bits
// from the most significant bit of the first octet; Length counts them.
type BitString struct {
	Bytes  []byte
	Length int
}

// At reports whether bit i is set; bits past Length are zero.
func (b BitString) At(i int) bool {
	if i < 0 || i >= b.Length {
		return false
	}
	return b.Bytes[i/8]&(0x80>>(i%8)) != 0
}

// NewBitString returns a BIT STRING whose set bits are those listed, of
// the given length in bits (Z39.50 ProtocolVersion and Options are such
// named-bit lists).
func NewBitString(length int, set ...int) BitString {
	b := BitString{Bytes: make([]byte, (length+7)/8), Length: length}
	for _, i := range set {
		if i >= 0 && i < length {
			b.Bytes[i/8] |= 0x80 >> (i % 8)
		}
	}
	return b
}
