package ber

import (
	"bytes"
	"encoding/hex"
	"errors"
	"io"
	"reflect"
	"runtime"
	"strings"
	"testing"
)

func unhex(t testing.TB, s string) []byte {
	t.Helper()
	b, err := hex.DecodeString(strings.ReplaceAll(s, " ", ""))
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func mustOIDElem(o OID) Element {
	e, err := NewOID(Universal, TagOID, o)
	if err != nil {
		panic(err)
	}
	return e
}

// encodeTests are hand-checked encodings: each element must encode to the
// bytes shown, and the bytes must decode back to the element.
var encodeTests = []struct {
	name string
	e    Element
	hex  string
}{
	// X.690 §8.3: INTEGER, minimal two's complement.
	{"int 0", NewInt(Universal, TagInteger, 0), "02 01 00"},
	{"int 127", NewInt(Universal, TagInteger, 127), "02 01 7f"},
	{"int 128", NewInt(Universal, TagInteger, 128), "02 02 00 80"},
	{"int 256", NewInt(Universal, TagInteger, 256), "02 02 01 00"},
	{"int -1", NewInt(Universal, TagInteger, -1), "02 01 ff"},
	{"int -128", NewInt(Universal, TagInteger, -128), "02 01 80"},
	{"int -129", NewInt(Universal, TagInteger, -129), "02 02 ff 7f"},
	{"int 1<<20 as Z39.50 preferredMessageSize [5]", NewInt(Context, 5, 1<<20), "85 03 10 00 00"},
	// §8.2: BOOLEAN; §8.8: NULL.
	{"true", NewBool(Universal, TagBoolean, true), "01 01 ff"},
	{"false [16] replaceIndicator", NewBool(Context, 16, false), "90 01 00"},
	{"null", NewNull(Universal, TagNull), "05 00"},
	// §8.19: Bib-1 attribute set and the SUTRS / USMARC record syntaxes.
	{"oid bib-1", mustOIDElem(MustOID("1.2.840.10003.3.1")), "06 07 2a 86 48 ce 13 03 01"},
	{"oid sutrs", mustOIDElem(MustOID("1.2.840.10003.5.101")), "06 07 2a 86 48 ce 13 05 65"},
	{"oid usmarc", mustOIDElem(MustOID("1.2.840.10003.5.10")), "06 07 2a 86 48 ce 13 05 0a"},
	{"oid 2.999", mustOIDElem(MustOID("2.999")), "06 02 88 37"},
	// §8.6: BIT STRING; Z39.50 ProtocolVersion {version-1,2,3}.
	{"bits v1-v3", NewBitStringElement(Context, 3, NewBitString(3, 0, 1, 2)), "83 02 05 e0"},
	{"bits empty", NewBitStringElement(Universal, TagBitString, BitString{}), "03 01 00"},
	// §8.1.2.4: tag numbers 31 and up take the high-tag-number form.
	{"tag 31", NewString(Context, 31, "x"), "9f 1f 01 78"},
	{"tag 110 implementationId", NewString(Context, 110, "81"), "9f 6e 02 38 31"},
	{"tag 211 closeReason", NewInt(Context, 211, 0), "9f 81 53 01 00"},
	{"constructed tag 201", NewConstructed(Context, 201), "bf 81 49 00"},
	{"tag 16384", NewNull(Private, 16384), "df 81 80 00 00"},
	// §8.1.3.5: long definite lengths.
	{"len 127", NewBytes(Universal, TagOctetString, bytes.Repeat([]byte{'a'}, 127)), "04 7f" + strings.Repeat("61", 127)},
	{"len 200", NewBytes(Universal, TagOctetString, bytes.Repeat([]byte{'a'}, 200)), "04 81 c8" + strings.Repeat("61", 200)},
	{"len 300", NewBytes(Universal, TagOctetString, bytes.Repeat([]byte{'a'}, 300)), "04 82 01 2c" + strings.Repeat("61", 300)},
	// §8.1.3.6: indefinite length, closed by end-of-contents.
	{"indefinite sequence", Element{Class: Universal, Tag: TagSequence, Constructed: true, Indefinite: true,
		Children: []Element{NewInt(Universal, TagInteger, 5)}}, "30 80 02 01 05 00 00"},
	{"nested indefinite", Element{Class: Context, Tag: 1, Constructed: true, Indefinite: true,
		Children: []Element{{Class: Universal, Tag: TagSequence, Constructed: true, Indefinite: true}}}, "a1 80 30 80 00 00 00 00"},
	{"definite sequence", NewConstructed(Universal, TagSequence, NewInt(Universal, TagInteger, 5), NewNull(Universal, TagNull)), "30 05 02 01 05 05 00"},
}

func TestEncodeDecode(t *testing.T) {
	for _, tt := range encodeTests {
		want := unhex(t, tt.hex)
		got, err := Marshal(tt.e)
		if err != nil {
			t.Errorf("%s: Marshal: %v", tt.name, err)
			continue
		}
		if !bytes.Equal(got, want) {
			t.Errorf("%s: Marshal = % x, want % x", tt.name, got, want)
		}
		e, err := DecodeAll(want)
		if err != nil {
			t.Errorf("%s: Decode: %v", tt.name, err)
			continue
		}
		if again := Append(nil, e); !bytes.Equal(again, want) {
			t.Errorf("%s: decode∘encode = % x, want % x", tt.name, again, want)
		}
	}
}

// decodeTests are BER forms that DER forbids but BER allows; they decode,
// and the getters give the value shown.
func TestDecodeBERForms(t *testing.T) {
	// §8.1.3.5: a long form length with leading zero octets, and a long
	// form for a short length.
	for _, h := range []string{"04 81 03 61 62 63", "04 83 00 00 03 61 62 63", "24 80 04 02 61 62 04 01 63 00 00",
		"24 0b 04 02 61 62 24 80 04 01 63 00 00", "1b 03 61 62 63"} {
		e, err := DecodeAll(unhex(t, h))
		if err != nil {
			t.Errorf("% s: %v", h, err)
			continue
		}
		s, err := e.Text()
		if err != nil || s != "abc" {
			t.Errorf("% s: Text = %q, %v; want abc", h, s, err)
		}
	}
	// §8.2.2: any non-zero octet is TRUE.
	e, _ := DecodeAll(unhex(t, "01 01 01"))
	if v, err := e.Bool(); err != nil || !v {
		t.Errorf("BOOLEAN 01 = %v, %v", v, err)
	}
	// Z39.50 v2 targets send ProtocolVersion with unused bits.
	e, _ = DecodeAll(unhex(t, "83 02 05 e0"))
	bs, err := e.BitString()
	if err != nil || bs.Length != 3 || !bs.At(0) || !bs.At(2) || bs.At(3) {
		t.Errorf("BIT STRING = %+v, %v", bs, err)
	}
	e, _ = DecodeAll(unhex(t, "06 07 2a 86 48 ce 13 03 01"))
	if o, err := e.OID(); err != nil || o.String() != "1.2.840.10003.3.1" {
		t.Errorf("OID = %v, %v", o, err)
	}
	e, _ = DecodeAll(unhex(t, "02 08 80 00 00 00 00 00 00 00"))
	if n, err := e.Int(); err != nil || n != -1<<63 {
		t.Errorf("INTEGER min = %v, %v", n, err)
	}
}

func deep(n int, indefinite bool) []byte {
	var b []byte
	if indefinite {
		for range n {
			b = append(b, 0x30, 0x80)
		}
		for range n {
			b = append(b, 0, 0)
		}
		return b
	}
	b = []byte{0x05, 0x00}
	for range n {
		b = append([]byte{0x30, byte(len(b))}, b...)
		if len(b) > 120 {
			break
		}
	}
	return b
}

// hostileTests must fail to decode, cleanly, with the kind of error shown.
var hostileTests = []struct {
	name      string
	hex       string
	truncated bool // a TruncatedError (more bytes could fix it), else a SyntaxError
}{
	{"empty", "", true},
	{"length beyond data", "04 05 61 62", true},
	{"huge length", "04 84 7f ff ff ff 61", true},
	{"length over 31 bits", "04 84 80 00 00 00", false},
	{"five significant length octets", "04 85 01 00 00 00 00 61", false},
	{"reserved length 0xff", "04 ff", false},
	{"length octets cut", "04 82 01", true},
	{"indefinite primitive", "04 80 61 00 00", false},
	{"indefinite without EOC", "30 80 02 01 05", true},
	{"long tag cut", "9f 81", true},
	{"long tag leading zero", "9f 80 01 00", false},
	{"short tag in long form", "9f 1e 00", false},
	{"tag number overflow", "9f ff ff ff ff 7f 00", false},
	{"child overruns parent", "30 03 04 05 61 62 63", false},
	{"EOC at top level", "00 00", false},
	{"EOC inside definite", "30 02 00 00", false},
	{"indefinite child cut by parent", "30 04 30 80 05 00", false},
}

func TestDecodeHostile(t *testing.T) {
	for _, tt := range hostileTests {
		_, _, err := Decode(unhex(t, tt.hex))
		if err == nil {
			t.Errorf("%s: decoded, want an error", tt.name)
			continue
		}
		var se *SyntaxError
		if got := errors.Is(err, ErrTruncated); got != tt.truncated || (!tt.truncated && !errors.As(err, &se)) {
			t.Errorf("%s: err = %v (%T), want truncated=%v", tt.name, err, err, tt.truncated)
		}
	}
	// Nesting: 64 levels decode, 65 do not, in either length form.
	for _, indef := range []bool{true, false} {
		lim := Limits{MaxDepth: 10}
		if _, _, err := lim.Decode(deep(10, indef)); err != nil {
			t.Errorf("depth 10 (indefinite=%v): %v", indef, err)
		}
		_, _, err := lim.Decode(deep(11, indef))
		if err == nil || !strings.Contains(err.Error(), "nesting") {
			t.Errorf("depth 11 (indefinite=%v): err = %v, want nesting error", indef, err)
		}
	}
	if _, _, err := Decode(deep(100000, true)); err == nil {
		t.Error("100000 nested indefinite SEQUENCEs decoded")
	}
	if _, _, err := (Limits{MaxElements: 3}).Decode(unhex(t, "30 06 05 00 05 00 05 00")); err == nil {
		t.Error("four elements decoded with MaxElements 3")
	}
}

var valueErrorTests = []struct {
	name string
	hex  string
	get  func(*Element) error
}{
	{"int empty", "02 00", func(e *Element) error { _, err := e.Int(); return err }},
	{"int 9 octets", "02 09 01 00 00 00 00 00 00 00 00", func(e *Element) error { _, err := e.Int(); return err }},
	{"int padded", "02 02 00 01", func(e *Element) error { _, err := e.Int(); return err }},
	{"int padded negative", "02 02 ff 80", func(e *Element) error { _, err := e.Int(); return err }},
	{"int constructed", "22 00", func(e *Element) error { _, err := e.Int(); return err }},
	{"bool 2 octets", "01 02 00 00", func(e *Element) error { _, err := e.Bool(); return err }},
	{"null with contents", "05 01 00", func(e *Element) error { return e.Null() }},
	{"oid empty", "06 00", func(e *Element) error { _, err := e.OID(); return err }},
	{"oid padded arc", "06 03 2a 80 01", func(e *Element) error { _, err := e.OID(); return err }},
	{"oid cut arc", "06 02 2a 86", func(e *Element) error { _, err := e.OID(); return err }},
	{"oid arc over 32 bits", "06 07 2a 90 80 80 80 80 00", func(e *Element) error { _, err := e.OID(); return err }},
	{"bits 8 unused", "03 02 08 00", func(e *Element) error { _, err := e.BitString(); return err }},
	{"bits unused of nothing", "03 01 01", func(e *Element) error { _, err := e.BitString(); return err }},
	{"string segment not OCTET STRING", "24 03 02 01 00", func(e *Element) error { _, err := e.Bytes(); return err }},
}

func TestValueErrors(t *testing.T) {
	for _, tt := range valueErrorTests {
		e, err := DecodeAll(unhex(t, tt.hex))
		if err != nil {
			t.Errorf("%s: Decode: %v", tt.name, err)
			continue
		}
		if err := tt.get(&e); err == nil {
			t.Errorf("%s: no error", tt.name)
		}
	}
}

func TestReader(t *testing.T) {
	stream := unhex(t, "30 03 02 01 05"+"30 80 24 80 04 01 61 00 00 00 00"+"9f 81 53 01 00")
	r := NewReader(bytes.NewReader(stream), 64)
	for i, want := range []string{"30 03 02 01 05", "30 80 24 80 04 01 61 00 00 00 00", "9f 81 53 01 00"} {
		got, err := r.ReadPDU()
		if err != nil || !bytes.Equal(got, unhex(t, want)) {
			t.Fatalf("PDU %d = % x, %v; want %s", i, got, err, want)
		}
	}
	if _, err := r.ReadPDU(); err != io.EOF {
		t.Errorf("after the last PDU: %v, want io.EOF", err)
	}

	for _, tt := range []struct {
		name, hex string
		max       int
		want      error
	}{
		{"cut in contents", "30 05 02 01", 64, io.ErrUnexpectedEOF},
		{"cut in header", "9f 81", 64, io.ErrUnexpectedEOF},
		{"cut in indefinite", "30 80 02 01 05", 64, io.ErrUnexpectedEOF},
		{"larger than max", "04 81 c8", 64, &TooLargeError{}},
		{"indefinite larger than max", "30 80" + strings.Repeat("05 00", 40), 64, &TooLargeError{}},
		{"reserved length", "04 ff", 64, &SyntaxError{}},
	} {
		_, err := NewReader(bytes.NewReader(unhex(t, tt.hex)), tt.max).ReadPDU()
		ok := false
		switch w := tt.want.(type) {
		case *TooLargeError:
			ok = errors.As(err, &w)
		case *SyntaxError:
			ok = errors.As(err, &w)
		default:
			ok = errors.Is(err, tt.want)
		}
		if !ok {
			t.Errorf("%s: err = %v, want %T %v", tt.name, err, tt.want, tt.want)
		}
	}
}

// TestReaderAllocatesWhatArrives: a header announcing 1 GB followed by ten
// bytes must not make the Reader allocate 1 GB.
func TestReaderAllocatesWhatArrives(t *testing.T) {
	in := append(unhex(t, "04 84 3f ff ff 00"), make([]byte, 10)...)
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	_, err := NewReader(bytes.NewReader(in), 1<<30).ReadPDU()
	runtime.ReadMemStats(&after)
	if !errors.Is(err, io.ErrUnexpectedEOF) {
		t.Errorf("err = %v, want io.ErrUnexpectedEOF", err)
	}
	if d := after.TotalAlloc - before.TotalAlloc; d > 1<<20 {
		t.Errorf("allocated %d bytes for a 16-byte input", d)
	}
}

func FuzzDecode(f *testing.F) {
	for _, tt := range encodeTests {
		f.Add(unhex(f, tt.hex))
	}
	for _, tt := range hostileTests {
		f.Add(unhex(f, tt.hex))
	}
	f.Add(unhex(f, "24 0b 04 02 61 62 24 80 04 01 63 00 00"))
	f.Fuzz(func(t *testing.T, data []byte) {
		e, rest, err := Decode(data)
		if err != nil {
			return
		}
		exercise(&e)
		enc, err := Marshal(e)
		if err != nil {
			t.Fatalf("Marshal: %v", err)
		}
		e2, rest2, err := Decode(enc)
		if err != nil || len(rest2) != 0 {
			t.Fatalf("re-decode of % x: %v (rest %d)", enc, err, len(rest2))
		}
		if !reflect.DeepEqual(e, e2) {
			t.Fatalf("decode∘encode changed the element:\n%#v\n%#v", e, e2)
		}
		if again := Append(nil, e2); !bytes.Equal(again, enc) {
			t.Fatalf("encoding not stable: % x vs % x", again, enc)
		}
		// The streaming reader frames the same element.
		n := len(data) - len(rest)
		pdu, err := NewReader(bytes.NewReader(data), n).ReadPDU()
		if err != nil || !bytes.Equal(pdu, data[:n]) {
			t.Fatalf("ReadPDU = % x, %v; want % x", pdu, err, data[:n])
		}
	})
}

// exercise calls every getter on every element; none may panic, and the
// ones that succeed must re-encode to the same contents.
func exercise(e *Element) {
	if n, err := e.Int(); err == nil && !bytes.Equal(AppendIntContents(nil, n), e.Value) {
		panic("INTEGER does not round-trip")
	}
	if o, err := e.OID(); err == nil {
		oe, err := NewOID(Universal, TagOID, o)
		if err != nil || !bytes.Equal(oe.Value, e.Value) {
			panic("OID does not round-trip: " + o.String())
		}
	}
	_, _ = e.Bool()
	_ = e.Null()
	_, _ = e.Bytes()
	if bs, err := e.BitString(); err == nil {
		bs.At(bs.Length - 1)
		bs.At(bs.Length)
	}
	for i := range e.Children {
		exercise(&e.Children[i])
	}
}
