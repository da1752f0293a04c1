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
type octets [256]uint8

func octetsOf(set charset) *octets {
	var t octets
	for c := range t {
		if charsets[c]&set != 0 {
			t[c] = 1
		}
	}
	return &t
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
