package rfc1738

import (
	"net/url"
	"strings"
)

// ToNetURL returns the net/url form of u, field by field: Scheme in lower
// case; User from the decoded user and password (net/url keeps an empty
// user and an empty password apart from absent ones, as §3.1 does); Host
// as "host:port" with the port as written; Path decoded with RawPath as
// written; RawQuery the search of an http or wais URL; Opaque the
// scheme-specific part of a URL without "//" (mailto, news, others);
// Fragment decoded with RawFragment as written.
//
// What net/url cannot express, and what happens to it:
//
//   - A "?" that is data in an ftp, file, gopher or prospero path (§5
//     fsegment allows it unencoded): net/url would read a query there, so
//     ToNetURL keeps it in Path and String writes it as %3F. RFC 1738 reads
//     %3F and "?" alike in those schemes ("?" is not reserved in them), but
//     Normalize, which never decodes a reserved character, keeps them apart.
//   - An encoded "/" (%2F) in an ftp or file segment, where it means "this
//     CWD argument holds a slash" (§3.2.2): Path, being decoded, cannot tell
//     it from a separator; only RawPath (and EscapedPath, String) keeps it.
//     Code that reads Path sees //etc/motd for ftp://h/%2Fetc/motd.
//   - A gopher %09 separator (§3.4.1) becomes a TAB in Path; that loses
//     nothing (a selector holds no TAB) but the parts are not split.
//   - A port above 65535 is kept as written in Host: net/url checks only
//     that a port is digits.
//   - The fragment, not part of the URL (Appendix), is in Fragment.
func ToNetURL(u URL) *url.URL {
	nu := &url.URL{Scheme: u.Scheme()}
	if f, ok := u.Fragment(); ok {
		nu.Fragment, nu.RawFragment = unescape(f), f
		if nu.Fragment == "" {
			nu.RawFragment = ""
		}
	}
	if !u.HasAuthority() {
		nu.Opaque, _ = u.Opaque()
		return nu
	}
	if user, ok := u.User(); ok {
		if pw, ok := u.Password(); ok {
			nu.User = url.UserPassword(user, pw)
		} else {
			nu.User = url.User(user)
		}
	}
	nu.Host = u.Host()
	if p, ok := u.Port(); ok {
		nu.Host += ":" + p
	}
	path, ok := u.Path()
	if !ok {
		return nu
	}
	if k := u.Kind(); k == KindHTTP || k == KindWAIS || k == KindOther {
		// §3.3, §3.9: "?" starts the search. Other schemes' ip-schemeparts
		// are read the same way, as net/url.Parse does.
		if i := strings.IndexByte(path, '?'); i >= 0 {
			nu.RawQuery = path[i+1:]
			if nu.RawQuery == "" {
				nu.ForceQuery = true
			}
			path = path[:i]
		}
	}
	nu.Path = "/" + unescape(path)
	if strings.IndexByte(path, '%') >= 0 {
		nu.RawPath = "/" + path
	}
	return nu
}

// FromNetURL returns the RFC 1738 URL of a net/url URL: its String read by
// ParseLenient, so that what RFC 3986 leaves unencoded but RFC 1738 calls
// unsafe (notably "~") is encoded. The deviations are not returned; use
// ParseLenient(nu.String()) to see them.
//
// What RFC 1738 cannot express is an error, an *Error naming the offset in
// nu.String(): an IPv6 literal host "[…]" (RFC 1738 hosts are names or
// four-part numbers, §3.1), a host that is not a §5 hostname (such as
// "a_b" or an internationalized name), an empty port ("h:"), a user in an
// http, gopher, wais, nntp or prospero URL (§3: only ftp and telnet have
// one), and whatever else a scheme's §5 production forbids.
func FromNetURL(nu *url.URL) (URL, error) {
	s := nu.String()
	if strings.HasPrefix(nu.Host, "[") {
		return URL{}, errorOf(s, Diagnostic{Offset: strings.Index(s, "["), Rule: "host",
			Message: "an IPv6 literal host cannot be written in an RFC 1738 URL: a host is a name or a four-part number (§3.1)"})
	}
	u, _, err := ParseLenient(s)
	return u, err
}
