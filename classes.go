package rfc1738

// The character classes of RFC 1738 §5, written out as the RFC writes them.
// The 256-entry tables below are generated from these strings when the
// package loads, so the readable reference and the tables cannot disagree;
// TestClassesMatchRFC also checks these strings against the RFC text.
const (
	lowalphaChars    = "abcdefghijklmnopqrstuvwxyz"
	hialphaChars     = "ABCDEFGHIJKLMNOPQRSTUVWXYZ"
	digitChars       = "0123456789"
	safeChars        = "$-_.+"
	extraChars       = "!*'(),"
	nationalChars    = "{}|\\^~[]`"
	punctuationChars = "<>#%\""
	reservedChars    = ";/?:@&="
	hexChars         = digitChars + "ABCDEFabcdef"
)

// Class bits of the §5 productions.
const (
	classLowalpha uint16 = 1 << iota
	classHialpha
	classDigit
	classSafe
	classExtra
	classNational
	classPunctuation
	classReserved
	classHex
	classScheme // §5 scheme = 1*[ lowalpha | digit | "+" | "-" | "." ]

	classAlpha      = classLowalpha | classHialpha
	classAlphadigit = classAlpha | classDigit
	classUnreserved = classAlpha | classDigit | classSafe | classExtra // §5 unreserved
)

// classes maps each octet to its §5 class bits.
var classes = func() (t [256]uint16) {
	mark := func(chars string, bit uint16) {
		for i := 0; i < len(chars); i++ {
			t[chars[i]] |= bit
		}
	}
	mark(lowalphaChars, classLowalpha)
	mark(hialphaChars, classHialpha)
	mark(digitChars, classDigit)
	mark(safeChars, classSafe)
	mark(extraChars, classExtra)
	mark(nationalChars, classNational)
	mark(punctuationChars, classPunctuation)
	mark(reservedChars, classReserved)
	mark(hexChars, classHex)
	mark(lowalphaChars+digitChars+"+-.", classScheme)
	return t
}()

// A charset is the set of octets that a §5 production allows unencoded.
// The "escape" alternative (% hex hex) is handled by the scanner, so '%'
// itself is never in a charset.
type charset uint16

const (
	// uchar = unreserved | escape
	setUchar charset = 1 << iota
	// xchar = unreserved | reserved | escape
	setXchar
	// user, password = *[ uchar | ";" | "?" | "&" | "=" ]
	setUser
	// fsegment = *[ uchar | "?" | ":" | "@" | "&" | "=" ]; psegment is the same
	setFsegment
	// hsegment, search = *[ uchar | ";" | ":" | "@" | "&" | "=" ]
	setHsegment
	// fieldname, fieldvalue = *[ uchar | "?" | ":" | "@" | "&" ]
	setField
	// article = 1*[ uchar | ";" | "/" | "?" | ":" | "&" | "=" ] "@" host
	setArticle
	// group = alpha *[ alpha | digit | "-" | "." | "+" | "_" ]
	setGroup
	// the "/" that joins segments in fpath, hpath and ppath
	setSlash
)

// charsets maps each octet to the charsets that allow it unencoded.
var charsets = func() (t [256]charset) {
	for c := 0; c < 256; c++ {
		cl := classes[c]
		if cl&classUnreserved != 0 {
			t[c] |= setUchar | setXchar | setUser | setFsegment | setHsegment | setField | setArticle
		}
		if cl&classReserved != 0 {
			t[c] |= setXchar
		}
		if cl&(classAlpha|classDigit) != 0 {
			t[c] |= setGroup
		}
	}
	add := func(chars string, set charset) {
		for i := 0; i < len(chars); i++ {
			t[chars[i]] |= set
		}
	}
	add(";?&=", setUser)
	add("?:@&=", setFsegment)
	add(";:@&=", setHsegment)
	add("?:@&", setField)
	add(";/?:&=", setArticle)
	add("-.+_", setGroup)
	add("/", setSlash)
	return t
}()

// An octets table holds 1 for each octet that a production allows
// unencoded: a charset as bytes, which the scanner tests eight at a time.
// After the 256 octets come the set's nibble tables, with which the AVX2
// kernels test 32 octets at once (span_amd64.s).
type octets [256 + 32]uint8

func octetsOf(set charset) *octets {
	return octetsWhere(func(c byte) bool { return charsets[c]&set != 0 })
}

// octetsWhere returns the octets table of the octets in, all below 0x80
// (none of §5's sets holds an 8-bit octet: they must be encoded, §2.2).
func octetsWhere(in func(c byte) bool) *octets {
	var t octets
	for c := range 256 {
		if in(byte(c)) {
			t[c] = 1
			// The nibble tables: the first 16 bytes have, for each low
			// nibble, bit h set when the octet h<<4|lo is in the set;
			// the next 16 have 1<<h at h, for the high nibbles 0 to 7.
			t[256+c&15] |= 1 << (c >> 4)
		}
	}
	for h := range 8 {
		t[256+16+h] = 1 << h
	}
	return &t
}

// nibbles returns the nibble tables of set, the kernels' argument.
func (set *octets) nibbles() *[32]byte {
	return (*[32]byte)(set[256:])
}

// The octets tables of the productions the parser scans.
var (
	xcharOctets    = octetsOf(setXchar)
	ucharOctets    = octetsOf(setUchar)
	userOctets     = octetsOf(setUser)
	fpathOctets    = octetsOf(setFsegment | setSlash) // fsegment *[ "/" fsegment ], psegment alike
	hpathOctets    = octetsOf(setHsegment | setSlash) // hsegment *[ "/" hsegment ]
	hsegmentOctets = octetsOf(setHsegment)            // also search
	fieldOctets    = octetsOf(setField)
	articleOctets  = octetsOf(setArticle)
	// The octets of a §5 hostname: alphadigit, '-' and '.' (hostnameEnd).
	hostOctets = octetsWhere(func(c byte) bool { return classes[c]&classAlphadigit != 0 || c == '-' || c == '.' })
)

// isHex reports whether c is a §5 hex digit.
func isHex(c byte) bool { return classes[c]&classHex != 0 }

// unhex returns the value of the hex digit c. (An if chain, not a
// switch: Go's coverage counts a case's condition as run only through its
// body.)
func unhex(c byte) byte {
	if c >= '0' && c <= '9' {
		return c - '0'
	}
	if c >= 'a' && c <= 'f' {
		return c - 'a' + 10
	}
	return c - 'A' + 10
}

const upperhex = "0123456789ABCDEF"
