package extract

// The octet classes the scanner needs, restated from RFC 1738 §5 and §2.2
// as a 256-entry table. TestClassesAgreeWithCore checks the table against
// the core package's Escape, Parse and Check, so the two cannot drift.
const (
	alphaChars       = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
	digitChars       = "0123456789"
	safeChars        = "$-_.+"       // §5 safe
	extraChars       = "!*'(),"      // §5 extra
	reservedChars    = ";/?:@&="     // §5 reserved
	nationalChars    = "{}|\\^~[]`"  // §5 national: unsafe, §2.2
	spaceChars       = " \t\r\n\f\v" // Appendix: whitespace ignored inside wrappers
	trailingPunct    = ".,;:!?'"     // sentence punctuation left out of a bare URL
	schemeExtraChars = "+-."         // §5 scheme = 1*[ lowalpha | digit | "+" | "-" | "." ]
	urlExtraChars    = "%#"          // '%' of an escape (§2.2), '#' of a fragment (Appendix)
)

const (
	cURL      uint8 = 1 << iota // may stand unencoded in a URL: xchar, '%', '#'
	cScheme                     // §5 scheme, with upper case (§2.1)
	cAlpha                      // §5 alpha
	cSpace                      // whitespace
	cNational                   // §5 national
	cTrailing                   // trailing sentence punctuation
	cDigit                      // §5 digit
	cBare                       // a bare URL runs over it unless strict: cURL and the national characters but '\\', '`' and '|'

	cAlphadigit = cAlpha | cDigit
)

var class = func() (t [256]uint8) {
	mark := func(chars string, bit uint8) {
		for i := 0; i < len(chars); i++ {
			t[chars[i]] |= bit
		}
	}
	xchar := alphaChars + digitChars + safeChars + extraChars + reservedChars // §5 xchar
	mark(xchar+urlExtraChars, cURL)
	mark(alphaChars+digitChars+schemeExtraChars, cScheme)
	mark(alphaChars, cAlpha)
	mark(digitChars, cDigit)
	mark(spaceChars, cSpace)
	mark(nationalChars, cNational)
	mark(trailingPunct, cTrailing)
	// §2.2 calls the national characters unsafe, but real text writes
	// http://host/~user, {…} templates and [IPv6] literals unencoded: the
	// default reading takes them and reports the URL invalid. A backslash
	// and a backquote quote or escape in text (C, JSON, TeX, Markdown), and
	// '|' delimits Markdown tables and shell pipes, far more often than
	// they belong to a URL, so a bare URL still ends there (as it does for
	// every other extractor: http://foo.bar/path|more is
	// http://foo.bar/path).
	mark(xchar+urlExtraChars+"{}^~[]", cBare)
	return t
}()

// runPlain marks, with the bits cURL and cBare of class, the octets a run
// over a URL passes with no further look: every octet of the run but '#'
// (a second one ends the URL, Appendix), the brackets (counted, so that
// one closing a bracket opened before the URL ends it) and '&' (an HTML
// character reference may end it). plainRun passes them with one look-up
// each.
var runPlain = func() (t [256]uint8) {
	for c := range t {
		t[c] = class[c] & (cURL | cBare)
	}
	for _, c := range []byte("#([{)]}&") {
		t[c] = 0
	}
	return t
}()
