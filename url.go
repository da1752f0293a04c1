// Package rfc1738 parses, checks and takes apart Uniform Resource Locators
// exactly as RFC 1738 defines them.
//
// Parse holds a URL to its scheme's production in §5: the ten schemes of §3
// (ftp, http, gopher, mailto, news, nntp, telnet, wais, file, prospero) each
// by their own rule, any other scheme by genericurl. The URL value keeps the
// input and offsets into it, so String returns the input byte for byte, and
// parsing a valid URL does not allocate. Accessors keep the distinctions the
// RFC makes (an empty user is not an absent user, §3.1), and the scheme
// views (FTP, HTTP, Gopher, …) give the decoded parts of each scheme.
//
// Check reports every violation of an input, not only the first, with byte
// offsets and §5 rule names, plus warnings for what the grammar allows but
// the text advises against.
package rfc1738

import (
	"math"
	"strconv"
	"strings"
)

// Kind names the scheme of a URL: one of the ten schemes of §3, or KindOther.
type Kind uint8

// The schemes of RFC 1738 §3.
const (
	KindOther    Kind = iota // any other scheme: §5 genericurl
	KindFTP                  // §3.2
	KindHTTP                 // §3.3
	KindGopher               // §3.4
	KindMailto               // §3.5
	KindNews                 // §3.6
	KindNNTP                 // §3.7
	KindTelnet               // §3.8
	KindWAIS                 // §3.9
	KindFile                 // §3.10
	KindProspero             // §3.11
)

var kindNames = [...]string{"", "ftp", "http", "gopher", "mailto", "news", "nntp", "telnet", "wais", "file", "prospero"}

// defaultPorts are the ports §3 gives each scheme; 0 where it gives none.
var defaultPorts = [...]int{0, 21, 80, 70, 0, 0, 119, 23, 210, 0, 1525}

// String returns the scheme name of k in lower case, or "" for KindOther.
func (k Kind) String() string { return kindNames[k] }

// DefaultPort returns the port §3 assigns to the scheme, or 0 when it has none.
func (k Kind) DefaultPort() int { return defaultPorts[k] }

// KindOf returns the Kind of a scheme name, ignoring case (§2.1).
func KindOf(scheme string) Kind {
	if len(scheme) < 3 || len(scheme) > 8 {
		return KindOther
	}
	// The name's octets in one word, each with the bit 0x20 set: that
	// makes an upper-case letter lower case, and no other octet a letter.
	var w uint64
	for i := len(scheme) - 1; i >= 0; i-- {
		w = w<<8 | uint64(scheme[i]|0x20)
	}
	switch w {
	case 'f' | 't'<<8 | 'p'<<16:
		return KindFTP
	case 'h' | 't'<<8 | 't'<<16 | 'p'<<24:
		return KindHTTP
	case 'n' | 'e'<<8 | 'w'<<16 | 's'<<24:
		return KindNews
	case 'n' | 'n'<<8 | 't'<<16 | 'p'<<24:
		return KindNNTP
	case 'w' | 'a'<<8 | 'i'<<16 | 's'<<24:
		return KindWAIS
	case 'f' | 'i'<<8 | 'l'<<16 | 'e'<<24:
		return KindFile
	case 'g' | 'o'<<8 | 'p'<<16 | 'h'<<24 | 'e'<<32 | 'r'<<40:
		return KindGopher
	case 'm' | 'a'<<8 | 'i'<<16 | 'l'<<24 | 't'<<32 | 'o'<<40:
		return KindMailto
	case 't' | 'e'<<8 | 'l'<<16 | 'n'<<24 | 'e'<<32 | 't'<<40:
		return KindTelnet
	case 'p' | 'r'<<8 | 'o'<<16 | 's'<<24 | 'p'<<32 | 'e'<<40 | 'r'<<48 | 'o'<<56:
		return KindProspero
	}
	return KindOther
}

// equalFold compares s with the lower-case ASCII name, ignoring ASCII case.
func equalFold(s, lower string) bool {
	if len(s) != len(lower) {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		if 'A' <= c && c <= 'Z' {
			c += 'a' - 'A'
		}
		if c != lower[i] {
			return false
		}
	}
	return true
}

// URL is a parsed RFC 1738 URL. It is a small comparable value that holds
// the input and offsets into it; the zero URL is not a valid URL.
//
// For the common Internet scheme syntax of §3.1,
//
//	scheme://user:password@host:port/url-path#fragment
//
// every part is kept as written, and each accessor reports whether the part
// is present at all, since an empty part differs from an absent one (§3.1).
type URL struct {
	s     string
	kind  Kind
	flags uint8
	colon int32 // index of the ':' after the scheme
	// §3.1 login parts; meaningful when flagAuthority is set.
	userEnd   int32 // end of user (start is colon+3)
	hostStart int32
	hostEnd   int32
	portEnd   int32 // end of port (start is hostEnd+1) and of the login
	port      int32 // value of the port digits, unless flagBigPort
	end       int32 // end of the URL proper: index of '#' or len(s)
}

const (
	flagAuthority   uint8 = 1 << iota // the schemepart starts with "//" (§3.1)
	flagUser                          // a user is present (maybe empty)
	flagPassword                      // a password is present (maybe empty)
	flagPort                          // a ":port" is present
	flagPath                          // the "/" before url-path is present
	flagFragment                      // a "#fragment" follows the URL
	flagUpperScheme                   // the scheme has upper-case letters
	flagBigPort                       // the port's value is beyond math.MaxInt32 (port is 0)
)

// String returns the input the URL was parsed from, byte for byte,
// including any fragment.
func (u URL) String() string { return u.s }

// Kind returns which scheme of §3 the URL uses, or KindOther.
func (u URL) Kind() Kind { return u.kind }

// Scheme returns the scheme name in lower case (§2.1: interpreters treat
// upper case as lower case). It allocates only for an upper-case name of a
// scheme RFC 1738 does not define.
func (u URL) Scheme() string {
	if u.kind != KindOther {
		return kindNames[u.kind]
	}
	name := u.s[:u.colon]
	if u.flags&flagUpperScheme != 0 {
		return strings.ToLower(name)
	}
	return name
}

// RawScheme returns the scheme name as written.
func (u URL) RawScheme() string { return u.s[:u.colon] }

// HasAuthority reports whether the URL uses the common Internet scheme
// syntax of §3.1: a schemepart that starts with "//" followed by a login.
func (u URL) HasAuthority() bool { return u.flags&flagAuthority != 0 }

// RawUser returns the user as written and whether one is present. An empty
// user (ftp://@host/) is present; §3.1 keeps it apart from no user.
func (u URL) RawUser() (string, bool) {
	if u.flags&flagUser == 0 {
		return "", false
	}
	return u.s[u.colon+3 : u.userEnd], true
}

// User returns the decoded user and whether one is present (§3.1).
func (u URL) User() (string, bool) {
	raw, ok := u.RawUser()
	return unescape(raw), ok
}

// RawPassword returns the password as written and whether one is present.
// ftp://foo:@host.com/ has an empty password; ftp://foo@host.com/ has none.
func (u URL) RawPassword() (string, bool) {
	if u.flags&flagPassword == 0 {
		return "", false
	}
	return u.s[u.userEnd+1 : u.hostStart-1], true
}

// Password returns the decoded password and whether one is present (§3.1).
func (u URL) Password() (string, bool) {
	raw, ok := u.RawPassword()
	return unescape(raw), ok
}

// Host returns the host as written: a hostname or a hostnumber of §5, or ""
// when the URL has no login (or, for file URLs, names this machine).
func (u URL) Host() string {
	if u.flags&flagAuthority == 0 {
		return ""
	}
	return u.s[u.hostStart:u.hostEnd]
}

// Port returns the port digits as written and whether a port is present.
func (u URL) Port() (string, bool) {
	if u.flags&flagPort == 0 {
		return "", false
	}
	return u.s[u.hostEnd+1 : u.portEnd], true
}

// PortValue returns the number the port digits spell, exactly, and true;
// or 0 and false when the URL has no port or when that number does not fit
// an int. Port still gives the digits as written.
func (u URL) PortValue() (int, bool) {
	if u.flags&flagPort == 0 {
		return 0, false
	}
	if u.flags&flagBigPort == 0 {
		return int(u.port), true
	}
	digits, _ := u.Port()
	return digitsValue(digits)
}

// PortNumber returns the port to connect to: the explicit port, else the
// scheme's default port (§3), else 0. A port whose value does not fit an
// int is reported as math.MaxInt: above 65535, never a usable port, and
// never a smaller number the digits do not spell.
func (u URL) PortNumber() int {
	if u.flags&flagPort == 0 {
		return u.DefaultPort()
	}
	if n, ok := u.PortValue(); ok {
		return n
	}
	return math.MaxInt
}

// digitsValue returns the value of the decimal digits s and true, or 0 and
// false when s is not all digits or its value does not fit an int. The
// test comes before the multiplication, so nothing wraps round.
func digitsValue(s string) (int, bool) {
	n := 0
	for i := 0; i < len(s); i++ {
		d := int(s[i] - '0')
		if d > 9 || d < 0 || n > (math.MaxInt-d)/10 {
			return 0, false
		}
		n = n*10 + d
	}
	return n, len(s) > 0
}

// DefaultPort returns the default port §3 gives the URL's scheme, or 0;
// for https, which RFC 1738 §4 leaves to later schemes, RFC 2818's 443.
func (u URL) DefaultPort() int {
	if u.kind == KindOther && u.IsHTTPS() {
		return httpsPort
	}
	return defaultPorts[u.kind]
}

// HostPort returns "host:port" with the explicit or default port, ready to
// dial; "" when the URL has no host or no port is known.
func (u URL) HostPort() string {
	host, port := u.Host(), u.PortNumber()
	if host == "" || port == 0 {
		return ""
	}
	if p, ok := u.Port(); ok {
		return u.s[u.hostStart:u.hostEnd] + ":" + p
	}
	return host + ":" + strconv.Itoa(port)
}

// Path returns the url-path as written (§3.1: after the "/" that follows
// host[:port], which is not part of it) and whether that "/" is present.
func (u URL) Path() (string, bool) {
	if u.flags&flagPath == 0 {
		return "", false
	}
	return u.s[u.portEnd+1 : u.end], true
}

// Opaque returns the scheme-specific part of a URL that does not use the
// "//" syntax (mailto, news, or a generic schemepart), and whether there is one.
func (u URL) Opaque() (string, bool) {
	if u.flags&flagAuthority != 0 || u.s == "" {
		return "", false
	}
	return u.s[u.colon+1 : u.end], true
}

// Fragment returns the fragment after "#" as written, and whether there is
// one. The fragment is not part of the URL (Appendix); it is kept apart.
func (u URL) Fragment() (string, bool) {
	if u.flags&flagFragment == 0 {
		return "", false
	}
	return u.s[u.end+1:], true
}

// WithoutFragment returns the URL proper, without "#fragment".
func (u URL) WithoutFragment() string { return u.s[:u.end] }

// IsZero reports whether u is the zero URL.
func (u URL) IsZero() bool { return u.s == "" }

// Offsets for callers that report positions in the input, such as the
// access layer's §6 guards.

// PathOffset returns the byte offset of the url-path in the input, or -1.
func (u URL) PathOffset() int {
	if u.flags&flagPath == 0 {
		return -1
	}
	return int(u.portEnd) + 1
}

// UserOffset returns the byte offset of the user in the input, or -1.
func (u URL) UserOffset() int {
	if u.flags&flagUser == 0 {
		return -1
	}
	return int(u.colon) + 3
}

// PasswordOffset returns the byte offset of the password in the input, or -1.
func (u URL) PasswordOffset() int {
	if u.flags&flagPassword == 0 {
		return -1
	}
	return int(u.userEnd) + 1
}

// OpaqueOffset returns the byte offset of the opaque part, or -1.
func (u URL) OpaqueOffset() int {
	if u.flags&flagAuthority != 0 || u.s == "" {
		return -1
	}
	return int(u.colon) + 1
}

// PortOffset returns the byte offset of the port digits, or -1.
func (u URL) PortOffset() int {
	if u.flags&flagPort == 0 {
		return -1
	}
	return int(u.hostEnd) + 1
}

// HostOffset returns the byte offset of the host, or -1.
func (u URL) HostOffset() int {
	if u.flags&flagAuthority == 0 {
		return -1
	}
	return int(u.hostStart)
}
